/**
 * The plugins avp writes for the agents that run hooks in-process (OpenCode, Amp), and the small protocol between
 * such a plugin and `avp hook`: the plugin sends one Claude-shaped event (`hook_event_name`, `session_id`, `cwd`,
 * `tool_name`, `tool_input`, `tool_response`, `prompt`, `stop_hook_active`) and avp answers on exit 0 with
 * `{decision: "deny" | "block" | "warn" | "pass", reason?, message?, context?}`. Anything else — a non-zero exit, a
 * timeout, output that is not that JSON, avp missing — is a failure the plugin turns into a refusal.
 */
import type { HookEvent } from '../event.ts';
import { OWNED_MARKER } from './hook-layouts.ts';
import type { AgentAnswer, Decision } from './types.ts';

/** avp's answer to a plugin. */
export function pluginAnswer(_event: HookEvent, d: Decision): AgentAnswer {
  const out: Record<string, unknown> = { decision: d.kind };
  if (d.reason !== undefined && d.kind !== 'pass') out.reason = d.reason;
  if (d.userMessage !== undefined) out.message = d.userMessage;
  if (d.context !== undefined) out.context = d.context;
  return { stdout: `${JSON.stringify(out)}\n`, exitCode: 0 };
}

/** Runs avp with one event; any failure comes back as `{decision: "fail", reason}` (the caller refuses). */
function askSource(command: string, timeoutMs: number): string {
  return `const COMMAND = ${JSON.stringify(command)};
const TIMEOUT_MS = ${timeoutMs};

async function ask(event, cwd) {
  const argv = process.platform === "win32" ? ["cmd", "/d", "/s", "/c", COMMAND] : ["sh", "-c", COMMAND];
  try {
    const proc = Bun.spawn(argv, {
      cwd,
      env: process.env,
      stdin: new Blob([JSON.stringify(event)]),
      stdout: "pipe",
      stderr: "pipe",
    });
    const timer = setTimeout(() => proc.kill(), TIMEOUT_MS);
    const [out, err, code] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    clearTimeout(timer);
    if (code !== 0) return { decision: "fail", reason: err.trim() || "avp exited with " + code };
    const answer = JSON.parse(out);
    if (!answer || typeof answer.decision !== "string") throw new Error("no decision in avp's answer");
    return answer;
  } catch (e) {
    return { decision: "fail", reason: "avp could not check this (" + (e && e.message ? e.message : e) + "). To turn avp off: AVP_DISABLE=1." };
  }
}

const refuses = (a) => a.decision === "deny" || a.decision === "block" || a.decision === "fail";
`;
}

/** OpenCode: `.opencode/plugins/avp.ts`, loaded by OpenCode at startup. */
export function opencodePlugin(command: string, timeoutSeconds: number): string {
  return `// avp's plugin for OpenCode, ${OWNED_MARKER}.
// It runs \`${command}\` before and after every tool call, and when the session goes idle.
${askSource(command, timeoutSeconds * 1000)}
export const AvpPlugin = async ({ client, directory }) => {
  const sentBack = new Set(); // sessions avp sent back at their last idle (the Stop loop signal)
  const ours = new Set(); // sessions whose next message is avp's own follow-up
  const base = (sessionID) => ({ session_id: sessionID, cwd: directory });
  return {
    "tool.execute.before": async (input, output) => {
      const a = await ask({ hook_event_name: "tool.execute.before", ...base(input.sessionID), tool_use_id: input.callID, tool_name: input.tool, tool_input: output.args }, directory);
      if (refuses(a)) throw new Error(a.reason || "avp refused this tool call");
    },
    "tool.execute.after": async (input, output) => {
      const a = await ask({ hook_event_name: "tool.execute.after", ...base(input.sessionID), tool_use_id: input.callID, tool_name: input.tool, tool_input: input.args, tool_response: output.output }, directory);
      const note = a.decision === "fail" ? a.reason : a.context || (refuses(a) ? a.reason : undefined);
      if (note) output.output = (output.output ?? "") + "\\n\\n" + note;
    },
    "chat.message": async (input, output) => {
      if (ours.delete(input.sessionID)) return;
      sentBack.delete(input.sessionID);
      const prompt = (output.parts ?? []).filter((p) => p.type === "text").map((p) => p.text).join("\\n");
      await ask({ hook_event_name: "chat.message", ...base(input.sessionID), prompt }, directory);
    },
    event: async ({ event }) => {
      if (event.type !== "session.idle") return;
      const id = event.properties && event.properties.sessionID;
      const a = await ask({ hook_event_name: "session.idle", ...base(id), stop_hook_active: sentBack.has(id) }, directory);
      if (a.decision === "block" && a.reason) {
        sentBack.add(id);
        ours.add(id);
        // A follow-up that could not be sent is no follow-up: the user's next message is theirs, a new turn.
        client.session.prompt({ path: { id }, body: { parts: [{ type: "text", text: a.reason }] } }).catch(() => {
          ours.delete(id);
          sentBack.delete(id);
        });
      } else sentBack.delete(id);
    },
  };
};
`;
}

/** Amp: `.amp/plugins/avp.ts` (Amp runs plugins only with \`PLUGINS=all\`). */
export function ampPlugin(command: string, timeoutSeconds: number): string {
  return `// @i-know-the-amp-plugin-api-is-wip-and-very-experimental-right-now
// avp's plugin for Amp, ${OWNED_MARKER}.
// It runs \`${command}\` before every tool call.
${askSource(command, timeoutSeconds * 1000)}
export default function (amp) {
  amp.on("tool.call", async (event) => {
    const a = await ask({
      hook_event_name: "tool.call",
      session_id: (event.thread && event.thread.id) || event.threadID,
      cwd: process.cwd(),
      tool_use_id: event.toolUseID || event.id,
      tool_name: event.tool,
      tool_input: event.input || event.args || {},
    }, process.cwd());
    if (refuses(a)) return { action: "reject-and-continue", message: a.reason || "avp refused this tool call" };
    return { action: "allow" };
  });
}
`;
}
