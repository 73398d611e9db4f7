/**
 * Picks the judge of a validator: its script when it has one, else the configured backend (per-validator routing
 * in `judge.validators`, then `judge.backend`). Backends are imported on demand so a hook call loads only the judge
 * it uses. A validator with no usable judge throws `judge-none`, which the engine reports as a validator error.
 */
import type { AvpConfig, BackendName } from '../config-types.ts';
import { AvpError } from '../errors.ts';
import type { Validator } from '../format/types.ts';
import type { Judge } from './types.ts';

/** The backend configured for a validator (by id, then by name, then the default). */
export function backendFor(validator: Validator, config: AvpConfig): BackendName {
  return config.judge.validators[validator.id] ?? config.judge.validators[validator.name] ?? config.judge.backend;
}

/** Returns the judge that evaluates `validator`. */
export async function judgeFor(validator: Validator, config: AvpConfig): Promise<Judge> {
  if (validator.spec.script) return (await import('./script.ts')).scriptJudge;
  const backend = backendFor(validator, config);
  if (backend === 'command' || (backend === 'auto' && config.judge.command)) {
    if (!config.judge.command) {
      throw new AvpError('judge-none', 'judge backend "command" is selected but no command is configured', {
        fix: 'set judge.command in avp.config.json or AVP_JUDGE_COMMAND (e.g. "codex exec -"), or choose another backend',
      });
    }
    return (await import('./command.ts')).commandJudge(config.judge.command);
  }
  throw new AvpError('judge-none', `no judge backend is available for "${validator.id}" (backend: ${backend})`, {
    fix: 'set AVP_JUDGE_COMMAND / judge.command to a program that reads the prompt on stdin and prints the verdict, or give the validator a script',
  });
}
