/** The steps of `avp accept`: list what is pending (with diffs), refuse inside an agent, record the acceptance. */
import { AvpError } from '../errors.ts';
import { findProjectRoot } from '../paths.ts';
import { acceptPending, pendingDiff, trustStates } from './accept.ts';
import { runningUnderAgent } from './agent-env.ts';
import { recordTampered } from './record-check.ts';

export interface AcceptResult {
  text: string;
  json: { projectRoot: string; dryRun: boolean; changes: Array<{ scope: string; key: string; change: string }> };
  exitCode: number;
}

export async function runAccept(opts: { cwd: string; env: NodeJS.ProcessEnv; dryRun: boolean }): Promise<AcceptResult> {
  const projectRoot = findProjectRoot(opts.cwd, opts.env);
  const states = trustStates(projectRoot, opts.env);
  const notes: string[] = [];
  for (const s of states) {
    const why = recordTampered(s);
    if (!why) continue;
    // The record cannot say what the user accepted: every file is listed, in full, and accepted again whole.
    notes.push(
      `The accepted record of ${s.scope === 'project' ? s.base : 'your user folder'} was changed outside avp (${why}): ` +
        'every file is listed.',
    );
    s.pending = s.live.map((file) => ({ scope: s.scope, key: file.key, change: 'added' as const, file }));
  }
  const pending = states.flatMap((s) => s.pending);
  const never = states.filter((s) => !s.record && s.live.length);
  const lines: string[] = [];
  for (const s of states) {
    for (const p of s.pending) {
      lines.push(`${p.change.padEnd(7)} ${p.key}`);
      const diff = await pendingDiff(s, p);
      if (diff) lines.push(...diff.split('\n').map((l) => `    ${l}`));
    }
  }
  const json = {
    projectRoot,
    dryRun: opts.dryRun,
    changes: pending.map((p) => ({ scope: p.scope, key: p.key, change: p.change })),
  };
  if (!pending.length) {
    return { text: `Nothing to accept: avp runs on the files as they are (${projectRoot}).\n`, json, exitCode: 0 };
  }
  const listing = `${[...notes, ...lines].join('\n')}\n`;
  if (opts.dryRun) {
    const hint = never.length ? ' (never accepted on this machine: all files are listed)' : '';
    return {
      text: `${listing}\n${pending.length} change(s) pending${hint}; run \`avp accept\` to accept them.\n`,
      json,
      exitCode: 0,
    };
  }
  const agent = runningUnderAgent(opts.env);
  if (agent) {
    throw new AvpError('accept-in-agent', `avp accept refuses to run inside a coding agent: ${agent}`, {
      fix: 'run `avp accept` yourself, in a terminal outside the agent (the agent may not accept its own changes)',
    });
  }
  acceptPending(states, opts.env);
  return { text: `${listing}\nAccepted ${pending.length} change(s): hook mode now runs on them.\n`, json, exitCode: 0 };
}
