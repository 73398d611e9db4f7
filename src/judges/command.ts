/**
 * The `command` judge backend: any program that reads a prompt on stdin and answers on stdout — `codex exec`,
 * `gemini -p`, `llm -m …`, a local model's CLI, or a shell script. The command line (`judge.command` /
 * `AVP_JUDGE_COMMAND`) runs through `sh -c` in the project root; the reply is read with the tolerant verdict parser
 * (JSON anywhere in the reply, else an ALLOW/DENY line). Every failure is a validator error, never a pass.
 */
import { runProcess, stderrNote } from '../os/spawn.ts';
import { AvpError } from '../errors.ts';
import type { Judge, JudgeRequest, JudgeResult } from './types.ts';
import { disableHint, judgeEnv } from './script.ts';

/** The prompt as one text: the system part (instructions + response format) then the user part (validator + change). */
async function promptText(req: JudgeRequest): Promise<string> {
  const { buildPrompt } = await import('./prompt.ts');
  const p = buildPrompt(req.validator, req.event);
  return `${p.system}\n\n${p.user}\n`;
}

/** A judge that runs `command` for every validator routed to it. */
export function commandJudge(command: string): Judge {
  return {
    name: 'command',
    async evaluate(req: JudgeRequest): Promise<JudgeResult> {
      const { validator, event, signal } = req;
      const result = await runProcess({
        argv: ['sh', '-c', command],
        cwd: event.projectRoot,
        env: judgeEnv(validator, event.projectRoot, { AVP_EVENT: event.event }),
        stdin: await promptText(req),
        signal,
      });
      const shown = command.length > 80 ? `${command.slice(0, 77)}...` : command;
      if (result.spawnError)
        throw new AvpError('judge-crash', `judge command could not start: ${result.spawnError.message}`, {
          fix: disableHint(validator),
        });
      if (result.aborted)
        throw new AvpError(
          'judge-timeout',
          `judge command \`${shown}\` was stopped: ${String(signal.reason ?? 'timeout')}`,
          { fix: disableHint(validator) },
        );
      if (result.overflow)
        throw new AvpError('judge-unreadable', `judge command \`${shown}\` printed more than 4 MiB`, {
          fix: disableHint(validator),
        });
      if (result.code !== 0) {
        const how = result.code === null ? `was killed by ${result.signal}` : `exited with code ${result.code}`;
        throw new AvpError('judge-crash', `judge command \`${shown}\` ${how}${stderrNote(result.stderrTail)}`, {
          fix: `check judge.command / AVP_JUDGE_COMMAND; ${disableHint(validator)}`,
        });
      }
      const { parseVerdict, verifyLines } = await import('./verdict.ts');
      let verdict;
      try {
        verdict = parseVerdict(result.stdout, { rule: validator.name });
      } catch (e) {
        const msg = e instanceof Error ? e.message : String(e);
        throw new AvpError('judge-unreadable', `judge command \`${shown}\`: ${msg}${stderrNote(result.stderrTail)}`, {
          fix: disableHint(validator),
          cause: e,
        });
      }
      return { verdict: verifyLines(verdict, event), judge: 'command' };
    },
  };
}
