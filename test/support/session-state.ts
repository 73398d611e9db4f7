/** Where avp keeps session state in tests: `$AVP_HOME/sessions/<16 hex of sha256(real project root)>/`. */
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';

/** The folder of a project's sessions under the avp home `avpHome` (one `<session-id>/` per session). */
export function projectSessions(avpHome: string, root: string): string {
  const key = createHash('sha256').update(realpathSync(root)).digest('hex').slice(0, 16);
  return join(avpHome, 'sessions', key);
}
