/**
 * `avp hook [--agent NAME] [--event NAME]`: what the agent's hook entry runs on every event. stdin: the event
 * JSON in that agent's protocol; stdout: the answer in that protocol (one JSON document, or an exit code where the
 * agent reads those); when stdin is not an event, the agent's own refusal (exit 2 with a message on stderr, or an
 * explicit deny on agents that skip failing hooks).
 * src/cli.ts calls `runHookCommand` directly (no citty) so the no-match path stays a few milliseconds.
 */
import { writeSync } from 'node:fs';
import type { CommandDef } from 'citty';
import { AGENT_NAMES, isAgentName, loadAgent } from '../agents/index.ts';
import type { AgentAdapter } from '../agents/types.ts';
import { AvpError } from '../errors.ts';
import { parseInput } from '../hook/input.ts';
import type { ReadInput } from '../hook/shortcut/answer.ts';

const USAGE = `usage: avp hook [--agent ${AGENT_NAMES.join('|')}] [--event NAME] [--no-cache]   (reads one hook event as JSON on stdin)`;

/**
 * Writes all of `text` to fd 1 or 2 before returning (the process may exit right after). Through `fs.writeSync`, not
 * `process.stdout`: setting up Node's stdout stream costs ~2.7 ms of CPU per call (bench/hook-cost.ts's floors). A
 * non-blocking pipe that is full (EAGAIN) is waited on; a closed one (EPIPE) ends the write.
 */
async function write(fd: 1 | 2, text: string): Promise<void> {
  let bytes = Buffer.from(text, 'utf8');
  while (bytes.length) {
    try {
      bytes = bytes.subarray(writeSync(fd, bytes));
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // The agent stopped reading (closed the pipe): there is no one left to answer.
      if (code === 'EPIPE') return;
      if (code !== 'EAGAIN') throw e;
      await new Promise((r) => setTimeout(r, 1));
    }
  }
}

/**
 * Under a managed policy that forbids switching avp off, `AVP_SUBAGENT=1` counts only in avp's own judges: an
 * ancestor process runs this same binary. Anyone can put the variable in the agent's settings (`"env"`); nobody but
 * avp makes the agent a child of avp.
 */
async function subagentClaimRefused(): Promise<boolean> {
  const { killSwitchForbidden } = await import('../config/managed.ts');
  if (!killSwitchForbidden(process.env) || process.platform !== 'linux') return false;
  const { readFileSync, readlinkSync } = await import('node:fs');
  let self: string;
  try {
    self = readlinkSync('/proc/self/exe');
  } catch {
    return false;
  }
  for (let pid = process.ppid, depth = 0; pid > 1 && depth < 64; depth++) {
    try {
      if (readlinkSync(`/proc/${pid}/exe`) === self) return false;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      pid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    } catch {
      return true;
    }
  }
  return true;
}

/** stdin's text: as the hook shortcut read it (hook/shortcut/answer.ts), else read here. */
async function inputText(given: ReadInput | undefined): Promise<string> {
  // Rebuilt: the compiled shortcut carries its own copy of the error class (scripts/build-options.ts).
  if (given && 'error' in given) throw new AvpError('hook-input', given.error.message, { fix: given.error.fix });
  if (given) return given.text;
  const { readStdinText, stdinTimeout } = await import('../hook/stdin.ts');
  return readStdinText(stdinTimeout(process.env));
}

/**
 * The hook, without citty. Returns the exit code; never throws, never prints a stack trace. `given`: the input the
 * hook shortcut already read, when it did not answer.
 */
export async function runHookCommand(argv: string[], given?: ReadInput): Promise<number> {
  // Recursion guard first: a judge sub-agent (claude -p …) inherits the project's hooks and would call avp again.
  if (process.env.AVP_SUBAGENT === '1' && !(await subagentClaimRefused())) {
    await write(1, '{}\n');
    return 0;
  }
  const startedAt = Date.now();
  const agentAt = argv.indexOf('--agent');
  const agent = agentAt >= 0 ? argv[agentAt + 1] : argv.find((a) => a.startsWith('--agent='))?.slice(8);
  // --event: the event's name for agents whose input carries none (Copilot runs one command per event).
  const eventAt = argv.indexOf('--event');
  const eventName = eventAt >= 0 ? argv[eventAt + 1] : argv.find((a) => a.startsWith('--event='))?.slice(8);
  // --no-cache: every judge is asked again (same as AVP_NO_CACHE=1), e.g. while writing a validator's prompt.
  if (argv.includes('--no-cache')) process.env.AVP_NO_CACHE = '1';
  const unknown = argv.filter(
    (a, i) =>
      !(
        a === '--agent' ||
        a === '--event' ||
        a === '--no-cache' ||
        a.startsWith('--agent=') ||
        a.startsWith('--event=') ||
        (agentAt >= 0 && i === agentAt + 1) ||
        (eventAt >= 0 && i === eventAt + 1)
      ),
  );
  if ((agent !== undefined && !isAgentName(agent)) || unknown.length) {
    // Only a broken hook entry gets here: the did-you-mean costs nothing on the normal path.
    const { didYouMean } = await import('../did-you-mean.ts');
    const why =
      agent !== undefined && !isAgentName(agent)
        ? `unsupported agent "${agent}" (supported: ${AGENT_NAMES.join(', ')})${didYouMean(agent, AGENT_NAMES)}`
        : `unknown ${unknown[0]?.startsWith('-') ? 'flag' : 'argument'} ${unknown[0]} for avp hook${didYouMean(unknown[0] ?? '', ['--agent', '--event', '--no-cache', '--help'])}`;
    await write(2, `avp: ${why}\n${USAGE}\n  see \`avp hook --help\`\n`);
    return 2;
  }
  // Whatever happens below, the process ends soon after answering (a judge's stray handle must not hold the agent).
  const exitSoon = (code: number) => setTimeout(() => process.exit(code), 200).unref();
  let input: unknown;
  let adapter: AgentAdapter | undefined;
  let release: (() => void) | undefined;
  try {
    adapter = await loadAgent(agent !== undefined && isAgentName(agent) ? agent : 'claude');
    const text = await inputText(given);
    input = given && 'value' in given && given.value !== undefined ? given.value : parseInput(text);
    if (eventName && input !== null && typeof input === 'object' && !Array.isArray(input)) {
      const given = input as Record<string, unknown>;
      if (given.hook_event_name === undefined && given.hookEventName === undefined)
        input = { hook_event_name: eventName, ...given };
    }
    // The same event from the agent's plugin hook and its settings hook at once (Claude Code and Codex run both, in
    // parallel, and combine the answers): one avp answers, the other passes.
    const twoHooks = adapter.name === 'claude' || adapter.name === 'codex';
    if (twoHooks) release = (await import('../hook/duplicate-call.ts')).claimCall(text, process.env);
    if (twoHooks && !release) {
      await write(1, '{}\n');
      exitSoon(0);
      return 0;
    }
    if (process.env.AVP_PROFILE === '1') {
      const cpu = process.cpuUsage();
      const used = ((cpu.user + cpu.system) / 1000).toFixed(2);
      const rss = (process.memoryUsage.rss() / 2 ** 20).toFixed(1);
      void write(2, `avp profile (ms): stdin read by ${performance.now().toFixed(2)} (cpu ${used}, rss ${rss} MB)\n`);
    }
    const { answerHook } = await import('../hook/hook.ts');
    if (process.env.AVP_PROFILE === '1') {
      const cpu = process.cpuUsage();
      const rss = (process.memoryUsage.rss() / 2 ** 20).toFixed(1);
      const used = ((cpu.user + cpu.system) / 1000).toFixed(2);
      void write(2, `avp profile (ms): hook path loaded (cpu ${used}, rss ${rss} MB)\n`);
    }
    const answer = await answerHook(adapter, input, process.env, startedAt);
    await write(1, answer.stdout);
    if (answer.stderr) await write(2, answer.stderr);
    if (answer.notes.length) await write(2, `${answer.notes.join('\n')}\n`);
    exitSoon(answer.exitCode);
    return answer.exitCode;
  } catch (e) {
    const bad = e instanceof AvpError && e.code === 'hook-input';
    if (!bad && process.env.AVP_DEBUG && e instanceof Error && e.stack) await write(2, `${e.stack}\n`);
    // Bad input must not pass silently, and an internal failure must still answer: the agent's own refusal (exit 2
    // with the message on stderr, or a deny/block that names the kill switch).
    const message = bad ? e.describe() : e instanceof Error ? e.message : String(e);
    const answer = (adapter ?? (await loadAgent('claude'))).failClosed(input, {
      kind: bad ? 'bad-input' : 'internal',
      message,
    });
    if (answer.stderr) await write(2, answer.stderr);
    await write(1, answer.stdout);
    exitSoon(answer.exitCode);
    return answer.exitCode;
  } finally {
    release?.();
  }
}

/**
 * The citty definition, for `avp hook --help` and the command table. A plain object (citty's `defineCommand` is the
 * identity function): importing citty here would put it on every hook call.
 */
const hookCommand: CommandDef<{
  agent: { type: 'string'; description: string; default: string };
  event: { type: 'string'; description: string };
  cache: { type: 'boolean'; description: string; default: boolean };
}> = {
  meta: {
    name: 'hook',
    description:
      "Run the validators matching one agent hook event (JSON on stdin) and answer in the agent's hook protocol on stdout. Written into each agent's hook settings by `avp init`.",
  },
  args: {
    agent: {
      type: 'string',
      description: `The agent whose hook protocol is spoken: ${AGENT_NAMES.join(', ')}`,
      default: 'claude',
    },
    event: {
      type: 'string',
      description:
        "The event's name, for agents whose hook input does not carry it (GitHub Copilot CLI: written by `avp init`)",
    },
    cache: {
      type: 'boolean',
      description: 'Reuse stored verdicts (--no-cache asks every judge again; same as AVP_NO_CACHE=1)',
      default: true,
    },
  },
  async run({ rawArgs }) {
    process.exitCode = await runHookCommand(rawArgs);
  },
};
export default hookCommand;
