/**
 * The live file behind an accepted copy. While a change is pending, hook mode runs validators from
 * `$AVP_HOME/trust/…/tree`; an error about such a file must send the user to the file they edit (and `avp accept`),
 * never into avp's own state, which the agent may not touch and the user should not hand-edit.
 */
import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { avpHome } from '../paths.ts';

/** The live path of a file inside an accepted tree, or undefined when `path` is not in one. */
export function liveOfAccepted(path: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const trust = join(avpHome(env), 'trust');
  const rel = relative(trust, path);
  if (!rel || rel.startsWith('..')) return undefined;
  const parts = rel.split(sep);
  if (parts[0] === 'user' && parts[1] === 'tree') {
    // The user tree mirrors `~/.avp/…` as `.avp/…` and `~/.avprc` as `.avprc`.
    const inner = parts.slice(2);
    if (inner[0] === '.avp') return join(avpHome(env), ...inner.slice(1));
    return join(env.HOME ?? '', ...inner);
  }
  if (parts[0] === 'projects' && parts[2] === 'tree') {
    try {
      const record = JSON.parse(readFileSync(join(trust, 'projects', parts[1]!, 'accepted.json'), 'utf8'));
      if (typeof record?.base === 'string') return join(record.base, ...parts.slice(3));
    } catch {
      // no readable record: the caller says it generally
    }
    return undefined;
  }
  return undefined;
}
