/**
 * Picks the judge of a validator: its script when it has one, else the configured backend (per-validator routing
 * in `judge.validators`, then `judge.backend` / `AVP_JUDGE`, then auto-detection: claude on PATH → codex, gemini,
 * qwen, droid on PATH → ANTHROPIC_API_KEY → OPENAI_BASE_URL/OPENAI_API_KEY). Backends are imported on demand so a
 * hook call loads only the judge it uses. LLM and command judges come wrapped in the verdict cache (unless
 * `cache.enabled` is false / `AVP_NO_CACHE=1`). A validator with no usable judge throws `judge-unconfigured` (or
 * `judge-none`), which the engine reports as a validator error — fail closed.
 */
import type { AvpConfig, BackendName } from '../config/types.ts';
import { AvpError } from '../errors.ts';
import type { Validator } from '../validator/types.ts';
import type { Judge } from './types.ts';

/** The backend configured for a validator (by id, then by name, then the default). */
export function backendFor(validator: Validator, config: AvpConfig): BackendName {
  return config.judge.validators[validator.id] ?? config.judge.validators[validator.name] ?? config.judge.backend;
}

/** Returns the judge that evaluates `validator`. */
export async function judgeFor(
  validator: Validator,
  config: AvpConfig,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Judge> {
  if (validator.spec.script) return (await import('./script.ts')).scriptJudge;
  const backend = backendFor(validator, config);
  if (backend === 'command' || (backend === 'auto' && config.judge.command)) {
    if (!config.judge.command) {
      throw new AvpError('judge-none', 'judge backend "command" is selected but no command is configured', {
        fix: 'set judge.command in avp.config.json or AVP_JUDGE_COMMAND (e.g. "codex exec -"), or choose another backend',
      });
    }
    const judge = (await import('./command.ts')).commandJudge(config.judge.command);
    if (!config.cache.enabled) return judge;
    const { cachingJudge } = await import('./cache.ts');
    return cachingJudge(judge, { model: '', identity: config.judge.command, maxBytes: config.cache.maxBytes, env });
  }
  const { detectBackend } = await import('./detect.ts');
  const found = detectBackend(config, env, validator);
  const { createLlmJudge } = await import('./backends.ts');
  return createLlmJudge(found, validator, config, env);
}
