/**
 * `avp hook [--agent claude]`: what the agent's hook entry runs on every event. stdin: the event JSON; stdout: one
 * JSON document (or `{}`); exit 0 — or exit 2 with a message on stderr when stdin is not an event.
 * src/cli.ts calls `runHookCommand` directly (no citty) so the no-match path stays a few milliseconds.
 */
import type { CommandDef } from 'citty';

const USAGE = 'usage: avp hook [--agent claude] [--no-cache]   (reads one hook event as JSON on stdin)';

/** Writes and waits for the pipe to take it: the process may exit right after. */
function write(stream: NodeJS.WriteStream, text: string): Promise<void> {
  return new Promise((resolve) => {
    if (!text) return resolve();
    stream.write(text, () => resolve());
  });
}

/** Fail closed on avp's own failure, in the shape the event needs (a PreToolUse is denied, not "blocked"). */
function internalErrorAnswer(input: unknown, message: string): Record<string, unknown> {
  const reason = `avp could not evaluate this event (internal error: ${message}). To turn avp off: AVP_DISABLE=1.`;
  const event = (input as { hook_event_name?: unknown } | undefined)?.hook_event_name;
  const avp = { reason, passed: false, violations: [], summary: 'avp internal error', systemMessage: reason };
  if (event === 'PreToolUse')
    return {
      hookSpecificOutput: { hookEventName: event, permissionDecision: 'deny', permissionDecisionReason: reason },
      ...avp,
    };
  if (event === 'PermissionRequest')
    return { hookSpecificOutput: { hookEventName: event, decision: { behavior: 'deny', message: reason } }, ...avp };
  return { decision: 'block', ...avp };
}

/** The hook, without citty. Returns the exit code; never throws, never prints a stack trace. */
export async function runHookCommand(argv: string[]): Promise<number> {
  // Recursion guard first: a judge sub-agent (claude -p …) inherits the project's hooks and would call avp again.
  if (process.env.AVP_SUBAGENT === '1') {
    await write(process.stdout, '{}\n');
    return 0;
  }
  const startedAt = Date.now();
  const agentAt = argv.indexOf('--agent');
  const agent = agentAt >= 0 ? argv[agentAt + 1] : argv.find((a) => a.startsWith('--agent='))?.slice(8);
  // --no-cache: every judge is asked again (same as AVP_NO_CACHE=1), e.g. while writing a validator's prompt.
  if (argv.includes('--no-cache')) process.env.AVP_NO_CACHE = '1';
  const unknown = argv.filter(
    (a, i) =>
      !(a === '--agent' || a === '--no-cache' || a.startsWith('--agent=') || (agentAt >= 0 && i === agentAt + 1)),
  );
  if ((agent !== undefined && agent !== 'claude') || unknown.length) {
    // Only a broken hook entry gets here: the did-you-mean costs nothing on the normal path.
    const { didYouMean } = await import('../did-you-mean.ts');
    const why =
      agent !== undefined && agent !== 'claude'
        ? `unsupported agent "${agent}" (supported: claude)${didYouMean(agent, ['claude'])}`
        : `unknown ${unknown[0]?.startsWith('-') ? 'flag' : 'argument'} ${unknown[0]} for avp hook${didYouMean(unknown[0] ?? '', ['--agent', '--no-cache', '--help'])}`;
    await write(process.stderr, `avp: ${why}\n${USAGE}\n  see \`avp hook --help\`\n`);
    return 2;
  }
  // Whatever happens below, the process ends soon after answering (a judge's stray handle must not hold the agent).
  const exitSoon = (code: number) => setTimeout(() => process.exit(code), 200).unref();
  let input: unknown;
  let release: (() => void) | undefined;
  try {
    const { readStdin, parseInput } = await import('../hosts/stdin.ts');
    const wait = Number(process.env.AVP_STDIN_TIMEOUT_MS);
    const text = await readStdin(Number.isInteger(wait) && wait > 0 ? { timeoutMs: wait } : {});
    input = parseInput(text);
    // The same event from the plugin's hook and the settings' hook at once: one avp answers, the other passes.
    const { claimCall } = await import('../hosts/duplicate-call.ts');
    release = claimCall(text, process.env);
    if (!release) {
      await write(process.stdout, '{}\n');
      exitSoon(0);
      return 0;
    }
    if (process.env.AVP_PROFILE === '1')
      process.stderr.write(`avp profile (ms): stdin read by ${performance.now().toFixed(2)}\n`);
    const { answerClaudeHook } = await import('../engine/hook.ts');
    const answer = await answerClaudeHook(input, process.env, startedAt);
    await write(process.stdout, answer.stdout);
    if (answer.notes.length) await write(process.stderr, `${answer.notes.join('\n')}\n`);
    exitSoon(answer.exitCode);
    return answer.exitCode;
  } catch (e) {
    const { AvpError } = await import('../errors.ts');
    if (e instanceof AvpError && e.code === 'hook-input') {
      // Exit 2 = a blocking error whose stderr Claude Code shows: bad input must not pass silently.
      await write(process.stderr, `avp hook: ${e.describe()}\n`);
      exitSoon(2);
      return 2;
    }
    // An internal failure must still answer; fail closed with a block that names the kill switch.
    const message = e instanceof Error ? e.message : String(e);
    if (process.env.AVP_DEBUG && e instanceof Error && e.stack) await write(process.stderr, `${e.stack}\n`);
    await write(process.stderr, `avp hook: internal error: ${message}\n`);
    await write(process.stdout, `${JSON.stringify(internalErrorAnswer(input, message))}\n`);
    exitSoon(0);
    return 0;
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
  cache: { type: 'boolean'; description: string; default: boolean };
}> = {
  meta: {
    name: 'hook',
    description:
      "Run the validators matching one agent hook event (JSON on stdin) and answer in the agent's hook protocol on stdout. Written into .claude/settings.json by `avp init`.",
  },
  args: {
    agent: {
      type: 'string',
      description: 'The agent whose hook protocol is spoken (only "claude" today)',
      default: 'claude',
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
