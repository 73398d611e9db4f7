/**
 * Can the judges avp would use work at all? The static half of `avp doctor` (no request is sent) and the check
 * `avp add` makes before it installs an LLM validator: which backend each validator gets and why, and what is wrong
 * with it — no backend found, a `judge.command` whose program is not on PATH or not executable, an `AVP_CLAUDE_BIN`
 * that is not an executable, the OpenAI API without a key. A judge that passes here may still not answer: that is
 * the probe's job (`probe.ts`).
 */
import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { AvpConfig } from '../config/types.ts';
import { errorMessage, isAvpError } from '../errors.ts';
import { claudeBin, detectBackend, findOnPath, type Detection } from './detect.ts';

export interface JudgeProblem {
  message: string;
  fix: string;
}

export interface JudgeCheck {
  /** The backend chosen (absent when none could be). */
  detection?: Detection;
  /** What keeps this judge from working, with the fix; absent when nothing avp can see is wrong. */
  problem?: JudgeProblem;
  /** Set explicitly (routing, judge.backend / AVP_JUDGE, judge.command, AVP_CLAUDE_BIN): broken even when unused. */
  configured: boolean;
  /** The LLM validators (ids) this judge evaluates. */
  validators: string[];
}

/** Shell words that are not programs on PATH (builtins, keywords, grouping): nothing to look for. */
const SHELL_WORDS = new Set(
  '. : [ [[ ! { ( alias break cd command continue echo eval exec exit export false for if printf pwd read return set shift test times trap true type ulimit umask unset until wait while case'.split(
    ' ',
  ),
);

/** The program a `sh -c` command line starts: the first word after `VAR=value` assignments (and `exec`/`env`). */
export function commandProgram(command: string): string | undefined {
  const words = command.trim().match(/"[^"]*"|'[^']*'|\S+/g) ?? [];
  let i = 0;
  while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!)) i++;
  if (words[i] === 'exec' || words[i] === 'env') {
    i++;
    while (i < words.length && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!) || words[i]!.startsWith('-'))) i++;
  }
  const word = words[i]?.replace(/^(["'])(.*)\1$/, '$2');
  // Expansions and substitutions are decided by the shell at run time.
  if (!word || SHELL_WORDS.has(word) || /[$`*?(){};|&<>]/.test(word)) return undefined;
  return word;
}

/** What is wrong with a `command` judge's command line that avp can see without running it (it may cost anything). */
export function commandProblem(command: string, cwd: string, env: NodeJS.ProcessEnv): JudgeProblem | undefined {
  const where = env.AVP_JUDGE_COMMAND ? 'AVP_JUDGE_COMMAND' : 'judge.command in avp.config.json';
  const program = commandProgram(command);
  if (!program) return undefined;
  if (program.includes('/')) {
    const path = isAbsolute(program) ? program : resolve(cwd, program);
    let st;
    try {
      st = statSync(path);
    } catch {
      return {
        message: `the judge command's program ${program} does not exist (${where}: \`${command}\`)`,
        fix: `create ${path}, or fix ${where} (the command runs through \`sh -c\` in the project root)`,
      };
    }
    if (!st.isFile() || (st.mode & 0o111) === 0)
      return {
        message: `the judge command's program ${program} is not an executable file (${where}: \`${command}\`)`,
        fix: st.isFile() ? `chmod +x ${path}` : `point ${where} at a program, not a folder`,
      };
    return undefined;
  }
  if (findOnPath(program, env)) return undefined;
  return {
    message: `the judge command's program \`${program}\` is not on PATH (${where}: \`${command}\`)`,
    fix: `install ${program} or add its folder to PATH (the PATH avp's hook runs with), or fix ${where}`,
  };
}

/** The judge one validator gets (or, without one, the default) and what is wrong with it. */
export function checkJudge(
  config: AvpConfig,
  env: NodeJS.ProcessEnv,
  projectRoot: string,
  validator?: { id: string; name: string },
): JudgeCheck {
  const routed = validator && (config.judge.validators[validator.id] ?? config.judge.validators[validator.name]);
  const configured =
    (!!routed && routed !== 'auto') ||
    config.judge.backend !== 'auto' ||
    !!config.judge.command ||
    !!env.AVP_CLAUDE_BIN;
  const validators = validator ? [validator.id] : [];
  // Auto-detection passes over a broken AVP_CLAUDE_BIN silently: the user asked for that claude, say it is missing.
  const wanted = (routed && routed !== 'auto' ? routed : config.judge.backend) ?? 'auto';
  if (env.AVP_CLAUDE_BIN && !claudeBin(env) && (wanted === 'claude' || (wanted === 'auto' && !config.judge.command)))
    return {
      problem: {
        message: `AVP_CLAUDE_BIN=${env.AVP_CLAUDE_BIN} is not an executable file (absolute, or found on PATH)`,
        fix: 'set AVP_CLAUDE_BIN to the claude executable (`command -v claude`), or unset it',
      },
      configured,
      validators,
    };
  let detection: Detection;
  try {
    detection = detectBackend(config, env, validator);
  } catch (e) {
    const fix = isAvpError(e) && e.fix ? e.fix : 'see `avp doctor`';
    return { problem: { message: errorMessage(e).split('\n')[0]!, fix }, configured, validators };
  }
  return { detection, configured, validators, ...withProblem(detection, config, env, projectRoot) };
}

function withProblem(
  d: Detection,
  config: AvpConfig,
  env: NodeJS.ProcessEnv,
  projectRoot: string,
): { problem?: JudgeProblem } {
  if (d.backend === 'command') {
    const problem = commandProblem(config.judge.command ?? '', projectRoot, env);
    return problem ? { problem } : {};
  }
  if (d.backend === 'openai' && !env.OPENAI_BASE_URL && !env.OPENAI_API_KEY)
    return {
      problem: {
        message: 'the openai judge goes to api.openai.com but OPENAI_API_KEY is not set',
        fix: 'export OPENAI_API_KEY=…, or OPENAI_BASE_URL=http://localhost:11434/v1 for a local server (Ollama, vLLM…)',
      },
    };
  return {};
}

/**
 * The default judge and the judge of every LLM validator, one entry per distinct judge (same backend and reason, or
 * the same problem), each listing the validators it evaluates. The default comes first.
 */
export function checkJudges(
  llm: Array<{ id: string; name: string }>,
  config: AvpConfig,
  env: NodeJS.ProcessEnv,
  projectRoot: string,
): JudgeCheck[] {
  const out = new Map<string, JudgeCheck>();
  const key = (c: JudgeCheck) => c.problem?.message ?? `${c.detection!.backend}\0${c.detection!.reason}`;
  const first = checkJudge(config, env, projectRoot);
  out.set(key(first), first);
  for (const v of llm) {
    const c = checkJudge(config, env, projectRoot, v);
    const known = out.get(key(c));
    if (known) known.validators.push(v.id);
    else out.set(key(c), c);
  }
  return [...out.values()];
}
