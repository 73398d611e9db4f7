/**
 * One hook call as a list of named stages over one context (hook/context.ts). A stage either ends the call with a
 * decision or hands on to the next. The order is chosen for the common case — an event no validator cares about —
 * which must cost a few milliseconds: normalize (sync, no disk), the accepted state, config (two readdirs when no
 * config file exists), discover (parse cache), match (picomatch), and out with `{}`. Only when something matches are
 * the runner, judges, diff and valibot loaded (prepare). Optional stages plug in where the adapter or the event asks:
 * carried findings for agents whose after-event of a file tool cannot refuse, the Stop guard at a Stop.
 */
import type { AgentAdapter } from '../agents/types.ts';
import type { HookEvent } from '../protocol/event.ts';
import { isStopTrigger } from '../protocol/trigger.ts';
import { observesOnlyAfter } from '../session/session.ts';
import type { Stage } from './context.ts';
import { acceptedState } from './stages/accepted-state.ts';
import { carriedFindings, observedEdit, recordObserved, tellCarried } from './stages/carried-findings.ts';
import { config } from './stages/config.ts';
import { decide } from './stages/decide.ts';
import { discover } from './stages/discover.ts';
import { guard } from './stages/guard.ts';
import { log } from './stages/log.ts';
import { match } from './stages/match.ts';
import { prepare } from './stages/prepare.ts';
import { run } from './stages/run.ts';
import { session } from './stages/session.ts';
import { stopGuard, stopRecord } from './stages/stop-guard.ts';

/** The stages after normalize, in order, each with the name AVP_PROFILE reports it under. Render follows them. */
export function stagesFor(adapter: AgentAdapter, event: HookEvent): [string, Stage][] {
  // Carried findings live in the session: without one (or without a project) there is nothing to carry.
  const carries = !event.stateless && !!event.sessionId && observesOnlyAfter(adapter);
  const stop = isStopTrigger(event.event);
  const when = (on: boolean, stages: [string, Stage][]) => (on ? stages : []);
  return [
    ['accepted state', acceptedState],
    ['guard', guard],
    ['config', config],
    ['discover', discover],
    ['session', session],
    ...when(carries, [['carried findings', carriedFindings]]),
    ['match', match],
    ...when(carries, [['observed edit', observedEdit]]),
    ['prepare', prepare],
    ['run', run],
    ...when(carries, [['record observed', recordObserved]]),
    ...when(stop, [['stop guard', stopGuard]]),
    ['log', log],
    ['decide', decide],
    ...when(carries, [['tell carried', tellCarried]]),
    ...when(stop, [['stop record', stopRecord]]),
  ];
}
