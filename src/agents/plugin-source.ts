/**
 * The plugins avp writes for the agents that run hooks in-process (OpenCode, Amp), and the small protocol between
 * such a plugin and `avp hook`: the plugin sends one Claude-shaped event (`hook_event_name`, `session_id`, `cwd`,
 * `tool_name`, `tool_input`, `tool_response`, `prompt`, `stop_hook_active`) and avp answers on exit 0 with
 * `{decision: "deny" | "block" | "warn" | "pass", reason?, message?, context?}`. Anything else — a non-zero exit, a
 * timeout, output that is not that JSON, avp missing — is a failure the plugin turns into a refusal.
 */
import type { HookEvent } from '../protocol/event.ts';
import { OWNED_MARKER } from '../trust/control-files.ts';
import type { AgentAnswer, Decision } from './types.ts';

/**
 * The line naming a plugin's format: raised whenever what the plugin does changes, so `avp doctor` can tell a plugin
 * written by an older avp (the file is the user's copy; only `avp init` rewrites it).
 */
export const PLUGIN_FORMAT = 'avp plugin format';

/** The format a plugin's text declares (0: written before formats were numbered). */
export function pluginFormat(text: string): number {
  const m = new RegExp(`${PLUGIN_FORMAT} (\\d+)`).exec(text);
  return m ? Number(m[1]) : 0;
}

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

/**
 * OpenCode: `.opencode/plugins/avp.ts`, loaded by OpenCode at startup. A sub-agent (the `task` tool) runs in a child
 * session (`parentID`); its events go to avp as the main session's, with the child named in `agent_id` (as Claude Code
 * sends a sub-agent's), so its changes count in the main turn. Its prompt is not the user's (no UserPromptSubmit) and
 * its idle is not the main agent's Stop: avp judges the sub-agent's end as a SubagentStop at the `task` tool's result
 * (`subagent.stop`), where a refusal is appended to the result the main agent reads. A background task's result comes
 * later: its child's idle is judged then (`session.idle.subagent`), report only, since nothing waits for it.
 */
export function opencodePlugin(command: string, timeoutSeconds: number): string {
  return `// avp's plugin for OpenCode, ${OWNED_MARKER}.
// ${PLUGIN_FORMAT} 2 (sub-agent sessions are judged as SubagentStop)
// It runs \`${command}\` before and after every tool call, and when the session goes idle.
${askSource(command, timeoutSeconds * 1000)}
export const AvpPlugin = async ({ client, directory }) => {
  const sentBack = new Set(); // sessions avp sent back at their last idle (the Stop loop signal)
  const ours = new Set(); // sessions whose next message is avp's own follow-up
  const parents = new Map(); // session → its parent session ("" for a main one), from OpenCode's session events
  const agents = new Map(); // sub-agent session → its agent's name
  const background = new Set(); // sub-agent sessions of background tasks: nothing waits for their result
  const learn = (info) => {
    if (!info || typeof info.id !== "string") return;
    parents.set(info.id, typeof info.parentID === "string" ? info.parentID : "");
    if (typeof info.agent === "string") agents.set(info.id, info.agent);
  };
  const parentOf = async (id) => {
    if (!parents.has(id)) {
      try {
        learn((await client.session.get({ path: { id } })).data);
      } catch {
        // not found: taken for a main session until OpenCode's session events say otherwise
      }
      if (!parents.has(id)) parents.set(id, "");
    }
    return parents.get(id) || "";
  };
  // A sub-agent's event is its main session's, with the sub-agent named (nested sub-agents: the topmost session).
  const base = async (id) => {
    let root = id;
    for (let depth = 0; depth < 16; depth++) {
      const parent = await parentOf(root);
      if (!parent || parent === root) break;
      root = parent;
    }
    if (root === id) return { session_id: id, cwd: directory };
    return { session_id: root, agent_id: id, agent_type: agents.get(id), cwd: directory };
  };
  const append = (output, note) => {
    if (note) output.output = (output.output ?? "") + "\\n\\n" + note;
  };
  return {
    "tool.execute.before": async (input, output) => {
      const a = await ask({ hook_event_name: "tool.execute.before", ...(await base(input.sessionID)), tool_use_id: input.callID, tool_name: input.tool, tool_input: output.args }, directory);
      if (refuses(a)) throw new Error(a.reason || "avp refused this tool call");
    },
    "tool.execute.after": async (input, output) => {
      const result = output.output;
      const a = await ask({ hook_event_name: "tool.execute.after", ...(await base(input.sessionID)), tool_use_id: input.callID, tool_name: input.tool, tool_input: input.args, tool_response: result }, directory);
      append(output, a.decision === "fail" ? a.reason : a.context || (refuses(a) ? a.reason : undefined));
      const meta = output.metadata || {};
      const child = input.tool === "task" && typeof meta.sessionId === "string" ? meta.sessionId : "";
      if (!child) return;
      if (!parents.get(child)) parents.set(child, input.sessionID);
      if (meta.background) return void background.add(child);
      // The sub-agent has finished and its result is here: its end is judged now, and a refusal joins the result.
      const s = await ask({ hook_event_name: "subagent.stop", ...(await base(child)), agent_id: child, agent_type: agents.get(child) || (input.args && input.args.subagent_type), stop_hook_active: sentBack.has(child), last_assistant_message: result }, directory);
      if (refuses(s)) sentBack.add(child);
      else sentBack.delete(child);
      append(output, refuses(s) ? s.reason || "avp refused the sub-agent's result" : undefined);
    },
    "chat.message": async (input, output) => {
      if (ours.delete(input.sessionID)) return;
      if (await parentOf(input.sessionID)) return; // a sub-agent's prompt, written by the main agent
      sentBack.delete(input.sessionID);
      const prompt = (output.parts ?? []).filter((p) => p.type === "text").map((p) => p.text).join("\\n");
      await ask({ hook_event_name: "chat.message", session_id: input.sessionID, cwd: directory, prompt }, directory);
    },
    event: async ({ event }) => {
      if (event.type === "session.created" || event.type === "session.updated") return learn(event.properties && event.properties.info);
      if (event.type !== "session.idle") return;
      const id = event.properties && event.properties.sessionID;
      if (await parentOf(id)) {
        // A sub-agent's idle is no Stop; a background one's end is judged here, report only.
        if (background.delete(id)) await ask({ hook_event_name: "session.idle.subagent", ...(await base(id)), stop_hook_active: false }, directory);
        return;
      }
      const a = await ask({ hook_event_name: "session.idle", ...(await base(id)), stop_hook_active: sentBack.has(id) }, directory);
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
// ${PLUGIN_FORMAT} 1
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
