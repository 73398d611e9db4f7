/**
 * Is a scope's record the one avp wrote? Each record names the offset of its line in the acceptance log, and the
 * line carries the SHA-256 of the record's bytes. A record edited by hand (or by an agent's shell: `sed -i` on
 * `accepted.json` to accept its own change) no longer matches. Both files are the user's, so an attacker who rewrites
 * the record and the log together is not caught here: docs/accepted-state.md says so.
 */
import { entryAt, logSize } from './acceptance-log.ts';
import type { ScopeState } from './state.ts';

/** Why the scope's record cannot be trusted as avp's, or undefined when it matches its logged acceptance. */
export function recordTampered(state: Pick<ScopeState, 'dir' | 'record'>): string | undefined {
  const r = state.record;
  if (!r) return undefined;
  if (typeof r.log !== 'number') {
    // A record from before the log: fine while there is no log; a log beside it means the pointer was removed.
    return logSize(state.dir) > 0 ? 'it names no acceptance, yet avp has logged acceptances here' : undefined;
  }
  const entry = entryAt(state.dir, r.log);
  if (!entry) return 'its acceptance is missing from the acceptance log';
  if (entry.record !== r.sha) return 'it is not the record that acceptance wrote';
  return undefined;
}
