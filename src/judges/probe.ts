/**
 * `avp doctor`'s "does the judge answer?": the cheapest real request each backend allows, under a short timeout.
 * anthropic: a 1-token Messages request; openai: `GET /models` (no tokens), else a 1-token completion; claude: a
 * one-turn
 * `claude -p` with no tools, hooks disabled and the recursion guard set; codex, gemini, qwen, droid: one short answer
 * from the same read-only, hooks-off run a judge gets; command: not run (it may cost anything).
 */
import { runProcess } from '../os/spawn.ts';
import { errorMessage } from '../errors.ts';
import { ANTHROPIC_DEFAULT_URL } from './anthropic.ts';
import type { Detection } from './detect.ts';
import { postWithRetry } from './http-retry.ts';
import { OPENAI_DEFAULT_URL } from './openai.ts';

export interface ProbeResult {
  ok: boolean;
  ms: number;
  /** What answered, or why not. */
  detail: string;
}

async function timed(
  timeoutMs: number,
  fn: (signal: AbortSignal, deadline: number) => Promise<string>,
): Promise<ProbeResult> {
  const started = performance.now();
  const ac = new AbortController();
  const t = setTimeout(() => ac.abort(`no answer within ${timeoutMs / 1000} s`), timeoutMs);
  try {
    const detail = await fn(ac.signal, Date.now() + timeoutMs);
    return { ok: true, ms: Math.round(performance.now() - started), detail };
  } catch (e) {
    return {
      ok: false,
      ms: Math.round(performance.now() - started),
      detail: errorMessage(e).replace(/\n\s*fix: /, ' — fix: '),
    };
  } finally {
    clearTimeout(t);
  }
}

/** Sends one cheap request to the detected backend. Never throws. */
export function probeBackend(
  found: Detection,
  model: string,
  env: NodeJS.ProcessEnv,
  opts: { timeoutMs: number; cwd: string },
): Promise<ProbeResult> {
  switch (found.backend) {
    case 'anthropic':
      return timed(opts.timeoutMs, async (signal, deadline) => {
        const base = (env.ANTHROPIC_BASE_URL || ANTHROPIC_DEFAULT_URL).replace(/\/+$/, '');
        const headers: Record<string, string> = { 'anthropic-version': '2023-06-01' };
        if (env.ANTHROPIC_API_KEY) headers['x-api-key'] = env.ANTHROPIC_API_KEY;
        const body = { model, max_tokens: 1, messages: [{ role: 'user', content: 'ping' }] };
        return postWithRetry(
          { url: `${base}/v1/messages`, headers, body, signal, deadline, backend: 'anthropic', maxAttempts: 1 },
          (r) => {
            const m = JSON.parse(r.text.startsWith('{') ? r.text : '{}');
            return `${base} answered (model ${m.model ?? model})`;
          },
        );
      });
    case 'openai':
      return timed(opts.timeoutMs, async (signal, deadline) => {
        const base = (env.OPENAI_BASE_URL || OPENAI_DEFAULT_URL).replace(/\/+$/, '');
        const headers: Record<string, string> = env.OPENAI_API_KEY
          ? { authorization: `Bearer ${env.OPENAI_API_KEY}` }
          : {};
        // The built-in fetch on purpose: one look at the model list, whose failure only means "try a completion".
        const res = await fetch(`${base}/models`, { headers, signal }).catch(() => undefined);
        if (res?.ok) {
          const j = (await res.json().catch(() => ({}))) as { data?: Array<{ id: string }> };
          const listed = j.data?.some((m) => m.id === model);
          return `${base} answered (${j.data?.length ?? 0} models${j.data ? `; ${model} ${listed ? 'is listed' : 'is NOT listed'}` : ''})`;
        }
        const body = { model, max_tokens: 1, messages: [{ role: 'user', content: 'ping' }] };
        return postWithRetry(
          { url: `${base}/chat/completions`, headers, body, signal, deadline, backend: 'openai', maxAttempts: 1 },
          () => `${base} answered`,
        );
      });
    case 'claude':
      return timed(opts.timeoutMs, async (signal) => {
        const argv = [
          found.bin!,
          '-p',
          '--output-format',
          'json',
          '--model',
          model,
          '--tools',
          '',
          '--no-session-persistence',
          '--strict-mcp-config',
          '--settings',
          '{"disableAllHooks":true}',
          '--max-turns',
          '1',
        ];
        const { withoutHostSession } = await import('./claude.ts');
        const r = await runProcess({
          argv,
          cwd: opts.cwd,
          env: { ...withoutHostSession(env), AVP_SUBAGENT: '1' },
          stdin: 'Reply with the single word OK.',
          signal,
        });
        if (r.aborted) throw new Error(`the claude CLI did not answer: ${String(signal.reason)}`);
        if (r.spawnError) throw new Error(`cannot start ${found.bin}: ${r.spawnError.message}`);
        let j: any;
        try {
          j = JSON.parse(r.stdout.trim().split('\n').pop() ?? '');
        } catch {
          throw new Error(`the claude CLI exited with ${r.code}: ${(r.stderrTail || r.stdout).slice(0, 300)}`);
        }
        if (j.is_error)
          throw new Error(`the claude CLI answered with an error: ${String(j.result ?? j.subtype).slice(0, 300)}`);
        return `claude CLI answered (model ${Object.keys(j.modelUsage ?? {})[0] ?? model})`;
      });
    case 'codex':
    case 'gemini':
    case 'qwen':
    case 'droid': {
      const backend = found.backend;
      return timed(opts.timeoutMs, async (signal) => {
        const [{ agentCliCommand, agentJudgeEnv }, { AGENT_CLI_SPECS }] = await Promise.all([
          import('./agent-cli.ts'),
          import('./agent-cli-specs.ts'),
        ]);
        const spec = AGENT_CLI_SPECS[backend];
        const cmd = agentCliCommand(
          { backend, bin: found.bin!, ...(model ? { model } : {}) },
          opts.cwd,
          agentJudgeEnv(env, undefined, opts.cwd),
        );
        const r = await runProcess({ ...cmd, cwd: opts.cwd, stdin: 'Reply with the single word OK.', signal });
        if (r.aborted) throw new Error(`${spec.label} did not answer: ${String(signal.reason)}`);
        if (r.spawnError) throw new Error(`cannot start ${found.bin}: ${r.spawnError.message}`);
        if (r.code !== 0 && !r.stdout.trim())
          throw new Error(`${spec.label} exited with ${r.code}: ${r.stderrTail.slice(-300)}`);
        const answer = spec.answer(r.stdout);
        return `${spec.label} answered (model ${answer.model ?? (model || 'its configured default')})`;
      });
    }
    default:
      return Promise.resolve({
        ok: true,
        ms: 0,
        detail: 'the command backend is not probed (running it may cost anything); try `avp check`',
      });
  }
}
