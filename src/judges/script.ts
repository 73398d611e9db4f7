/**
 * Script validators: a directory validator names an executable under its `scripts/` with the frontmatter key
 * `script`. avp runs it with the normalized HookEvent as JSON on stdin and reads one AVP response
 * (`{passed, violations, summary}`) from stdout. Deterministic, offline, no model.
 *
 * `.ts/.js/.mjs/.cjs/.mts/.cts` scripts run on the runtime inside the avp binary (`BUN_BE_BUN=1 avp run <script>`),
 * so no Node or Bun install is needed; any other file is executed directly (shebang + executable bit).
 */
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { extname, isAbsolute, relative, resolve } from 'node:path';
import { readRegularText } from '../os/read-regular.ts';
import { runProcess, stderrNote } from '../os/spawn.ts';
import { AvpError } from '../errors.ts';
import { plainPass } from './verdict-pass.ts';
import { liveOfAccepted } from '../trust/live-path.ts';
import type { HookEvent } from '../protocol/event.ts';
import type { Validator } from '../validator/types.ts';
import type { Judge, JudgeRequest, JudgeResult, Verdict } from './types.ts';

const JS_EXTENSIONS = new Set(['.ts', '.js', '.mjs', '.cjs', '.mts', '.cts', '.tsx', '.jsx']);

/** How to disable one validator, for every error message that names it. */
export function disableHint(v: { id: string }): string {
  return `to skip this validator add "${v.id}" to disabledValidators in avp.config.json (or AVP_DISABLED_VALIDATORS=${v.id}); AVP_DISABLE=1 turns avp off`;
}

/** Absolute path of a validator's script, checked to be a file inside the validator's directory. */
export function scriptPath(validator: Validator): string {
  const script = validator.spec.script;
  const dir = validator.dir;
  if (!script)
    throw new AvpError('judge-script', `validator "${validator.id}" has no script`, { fix: disableHint(validator) });
  if (!dir) {
    throw new AvpError('judge-script', `"script" needs a directory validator, but ${validator.path} is a single file`, {
      file: validator.path,
      fix: `move it to ${validator.name}/VALIDATOR.md with the script under ${validator.name}/scripts/`,
    });
  }
  const path = resolve(dir, script);
  const rel = relative(dir, path);
  if (rel.startsWith('..') || isAbsolute(rel)) {
    throw new AvpError('judge-script', `script "${script}" is outside the validator directory`, {
      file: validator.path,
      fix: 'put the script under scripts/',
    });
  }
  let isFile = false;
  try {
    isFile = statSync(path).isFile();
  } catch {
    // reported below
  }
  if (!isFile) {
    const live = liveOfAccepted(path);
    throw new AvpError('judge-script', `missing reference: script ${rel} does not exist`, {
      file: liveOfAccepted(validator.path) ?? validator.path,
      fix: live
        ? `the user creates ${live} and runs \`avp accept\` in their own terminal`
        : `create ${path}, or fix the "script" key; ${disableHint(validator)}`,
    });
  }
  return path;
}

/** This process's own executable, robust to the file being replaced under it (Linux), else `process.execPath`. */
function selfExe(): string {
  return process.platform === 'linux' && existsSync('/proc/self/exe') ? '/proc/self/exe' : process.execPath;
}

/** The command line that runs a script: JS/TS on avp's own runtime, anything else directly. */
export function scriptArgv(path: string): { argv: string[]; env: Record<string, string> } {
  if (JS_EXTENSIONS.has(extname(path).toLowerCase())) {
    // Compiled avp becomes the bun CLI with BUN_BE_BUN=1; from source, execPath is bun itself. On Linux the running
    // image is /proc/self/exe: it still starts when dist/avp was replaced (an upgrade) while this hook ran.
    return { argv: [selfExe(), 'run', '--no-env-file', path], env: { BUN_BE_BUN: '1' } };
  }
  try {
    accessSync(path, constants.X_OK);
  } catch {
    throw notExecutable(path);
  }
  return { argv: [path], env: {} };
}

/** The error for a script that cannot run; about an accepted copy it names the live script, never avp's state. */
function notExecutable(path: string): AvpError {
  const live = liveOfAccepted(path);
  if (!live)
    return new AvpError('judge-script', `script ${path} is not executable`, { file: path, fix: `chmod +x ${path}` });
  return new AvpError('judge-script', `the accepted copy of script ${live} is not executable`, {
    file: live,
    fix: `the user makes ${live} executable (chmod +x) and runs \`avp accept\` in their own terminal`,
  });
}

/** The validator's identity, as the script protocol gives it to a judge (AVP_VALIDATOR_DIR…). */
function validatorEnv(validator: Validator, projectRoot: string): Record<string, string> {
  return {
    AVP_VALIDATOR_NAME: validator.name,
    AVP_VALIDATOR_ID: validator.id,
    AVP_VALIDATOR_DIR: validator.dir ?? '',
    AVP_PROJECT_ROOT: projectRoot,
  };
}

/**
 * The environment every judge child gets: `base` (the hook's env) plus the validator's identity and the recursion
 * guard.
 */
export function judgeEnv(
  validator: Validator,
  projectRoot: string,
  extra: Record<string, string> = {},
  base: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  return {
    ...base,
    ...extra,
    ...validatorEnv(validator, projectRoot),
    // A judge that calls an agent (or avp) must not re-enter the hook: avp hook passes through when it sees this.
    AVP_SUBAGENT: '1',
  };
}

/** Runs the script judge of one validator. Throws AvpError (`judge-*`) for every way it can fail. */
export async function evaluateScript(req: JudgeRequest): Promise<JudgeResult> {
  const { validator, event, signal } = req;
  const path = scriptPath(validator);
  const builtin = await builtinRun(validator, event);
  if (builtin) return builtin;
  const fast = await tryWorker(req, path);
  if (fast) return fast;
  const { argv, env } = scriptArgv(path);
  const result = await runProcess({
    argv,
    cwd: event.projectRoot,
    env: judgeEnv(validator, event.projectRoot, env),
    stdin: `${JSON.stringify(event)}\n`,
    signal,
  });
  const rel = relative(validator.dir ?? '', path);
  if (result.spawnError) {
    throw new AvpError('judge-crash', `script ${rel} could not start: ${result.spawnError.message}`, {
      file: path,
      fix: disableHint(validator),
    });
  }
  if (result.aborted)
    throw new AvpError('judge-timeout', `script ${rel} was stopped: ${String(signal.reason ?? 'timeout')}`, {
      fix: disableHint(validator),
    });
  if (result.overflow)
    throw new AvpError('judge-unreadable', `script ${rel} printed more than 4 MiB on stdout`, {
      fix: disableHint(validator),
    });
  if (result.code !== 0) {
    const how = result.code === null ? `was killed by ${result.signal}` : `exited with code ${result.code}`;
    throw new AvpError('judge-crash', `script ${rel} ${how}${stderrNote(result.stderrTail)}`, {
      file: path,
      fix: disableHint(validator),
    });
  }
  return { verdict: await parseScriptOutput(result.stdout, validator.name, result.stderrTail), judge: 'script' };
}

/**
 * A script's answer as a verdict (throws `judge-unreadable` when it is none): a plain pass read at once
 * (verdict-pass.ts), anything else by the verdict reader, whose valibot schemas load only then.
 */
async function verdictOf(value: unknown, rule: string): Promise<Verdict> {
  return plainPass(value) ?? (await import('./verdict.ts')).verdictFromValue(value, { rule });
}

/**
 * The script protocol is strict: stdout holds exactly one JSON document (logs go to stderr), read by `verdictOf`.
 */
export async function parseScriptOutput(stdout: string, rule: string, stderrTail = ''): Promise<Verdict> {
  const text = stdout.trim();
  const fix =
    'print exactly one JSON response on stdout: {"passed": boolean, "violations": [...], "summary": "..."} (logs go to stderr)';
  if (!text)
    throw new AvpError('judge-unreadable', `the script printed nothing on stdout${stderrNote(stderrTail)}`, { fix });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AvpError(
      'judge-unreadable',
      `the script's stdout is not JSON: ${JSON.stringify(text.slice(0, 200))}${stderrNote(stderrTail)}`,
      { fix },
    );
  }
  try {
    return await verdictOf(value, rule);
  } catch (e) {
    throw new AvpError(
      'judge-unreadable',
      // The reader's own words say which rule was broken (a contradiction, an ambiguous "passed").
      `the script's JSON is not an AVP response: ${JSON.stringify(text.slice(0, 200))} — ${(e as Error).message}`,
      { fix, cause: e },
    );
  }
}

/**
 * Catalog scripts installed unmodified run from avp's own bundle (see builtin-script.ts); undefined → not one of them.
 * `AVP_SCRIPT_PROCESS=1` forces the process path (to compare, or to rule the built-in path out). The runner asks
 * this first for a validator whose `scripts/` key is known (runner/run-one.ts), without a timer or an abort signal:
 * the built-in `validate` is synchronous, nothing could stop it mid-way.
 */
export async function builtinRun(validator: Validator, event: HookEvent): Promise<JudgeResult | undefined> {
  if (!validator.dir || !validator.spec.script || process.env.AVP_SCRIPT_PROCESS === '1') return undefined;
  const { builtinValidate, callWithEnv, jsonCopy } = await import('./builtin-script.ts');
  const validate = await builtinValidate(validator.dir, validator.spec.script, validator.scripts);
  if (!validate) return undefined;
  let value: unknown;
  try {
    // The same plain event a process would read from stdin (a JSON round trip, its strings shared).
    value = await callWithEnv(validate, jsonCopy(event), validatorEnv(validator, event.projectRoot));
  } catch (e) {
    throw new AvpError(
      'judge-crash',
      `script ${validator.spec.script}: validate() threw: ${(e as Error).message ?? String(e)}`,
      { file: validator.path, fix: disableHint(validator) },
    );
  }
  try {
    return { verdict: await verdictOf(value, validator.name), judge: 'builtin-script' };
  } catch (e) {
    throw new AvpError(
      'judge-unreadable',
      `script ${validator.spec.script}: validate() returned something that is not an AVP response`,
      { fix: disableHint(validator), cause: e },
    );
  }
}

/**
 * The in-process path for JS/TS scripts exporting `validate` (see script-worker.ts); undefined → run the process.
 * Opt-in with `AVP_SCRIPT_WORKER=1`: measured with bench/hook.ts, a Worker in the compiled binary was not faster
 * than a second process (≈ 55–75 ms vs 57–65 ms per call on the 2-core machine), so the process stays the default.
 */
async function tryWorker(req: JudgeRequest, path: string): Promise<JudgeResult | undefined> {
  const { validator, event, signal } = req;
  if (!JS_EXTENSIONS.has(extname(path).toLowerCase()) || process.env.AVP_SCRIPT_WORKER !== '1') return undefined;
  let source: string;
  try {
    if (statSync(path).size > 1024 * 1024) return undefined;
    source = readRegularText(path);
  } catch {
    return undefined;
  }
  const { exportsValidate, validateInWorker } = await import('./script-worker.ts');
  if (!exportsValidate(source)) return undefined;
  const env = Object.fromEntries(
    Object.entries(judgeEnv(validator, event.projectRoot)).filter(
      (e): e is [string, string] => typeof e[1] === 'string',
    ),
  );
  const out = await validateInWorker(path, event, env, signal);
  const rel = relative(validator.dir ?? '', path);
  if (out.kind === 'fallback') return undefined;
  if (out.kind === 'aborted')
    throw new AvpError('judge-timeout', `script ${rel} was stopped: ${String(signal.reason ?? 'timeout')}`, {
      fix: disableHint(validator),
    });
  if (out.kind === 'error')
    throw new AvpError('judge-crash', `script ${rel}: validate() threw: ${out.message}`, {
      file: path,
      fix: disableHint(validator),
    });
  try {
    return { verdict: await verdictOf(out.value, validator.name), judge: 'script' };
  } catch (e) {
    throw new AvpError(
      'judge-unreadable',
      `script ${rel}: validate() returned something that is not an AVP response: ${JSON.stringify(out.value)?.slice(0, 200)}`,
      {
        fix: 'return {"passed": boolean, "violations": [...], "summary": "..."}',
        cause: e,
      },
    );
  }
}

/** The script judge (one instance serves every script validator). */
export const scriptJudge: Judge = { name: 'script', evaluate: evaluateScript };
