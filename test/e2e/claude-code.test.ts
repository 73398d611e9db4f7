/**
 * End-to-end: the real Claude Code CLI, offline, scripted through the loopback Anthropic server, with avp's hook
 * installed by `dist/avp init`. (a) a Write with a hardcoded key is blocked and avp's reason reaches the model;
 * (b) a Stop validator that never passes is bounded by avp's loop guard and the session ends; (c) a Bash command that
 * overwrites the hook settings (`.claude/settings.local.json`) is refused before it runs, and avp keeps being called.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startAnthropicServer } from '../support/anthropic-server.ts';
import { runAvp } from '../support/run-avp.ts';
import { projectSessions } from '../support/session-state.ts';
import { newInput, mainRequests, makeProject, runClaude, turnOf, type Project } from './claude-support.ts';

const projects: Project[] = [];
afterAll(() => {
  for (const p of projects) p.cleanup();
});

describe('real Claude Code CLI with avp hooks', () => {
  test("a Write with a hardcoded key is blocked; avp's reason reaches the model's next request", async () => {
    const project = await makeProject(['no-hardcoded-keys']);
    projects.push(project);
    const file = join(project.root, 'src', 'config.ts');
    const server = await startAnthropicServer(({ body }) => {
      if (!Array.isArray(body.tools) || !body.tools.length) return { text: 'ok' }; // side requests (titles…)
      const turn = turnOf(body);
      if (turn === 0)
        return {
          toolUse: {
            name: 'Write',
            input: { file_path: file, content: 'export const API_KEY = "sk-live-1234567890abcdef";\n' },
          },
        };
      return { text: 'Understood, the key must come from the environment.' };
    });
    try {
      const run = await runClaude(project, server.url, 'Create src/config.ts with the API key.');
      expect(run.timedOut).toBe(false);
      const main = mainRequests(server.requests);
      expect(main.length).toBeGreaterThanOrEqual(2);
      const next = newInput(main[1]);
      // Claude Code's own wording for a PostToolUse block, carrying avp's reason.
      expect(next).toContain('PostToolUse:Write hook blocking error');
      expect(next).toContain('no-hardcoded-keys');
      expect(next).toContain('src/config.ts:1');
      expect(next).toContain('read the key from process.env.API_KEY');
      expect(run.code).toBe(0);
      // The file was written (PostToolUse runs after the tool) and avp logged the run.
      expect(readFileSync(file, 'utf8')).toContain('sk-live-');
      expect(readdirSync(join(project.root, '.avp', 'logs')).length).toBeGreaterThan(0);
      // What that real session logged is what `avp stats` and `avp report` read back.
      const stats = await runAvp(['stats', '--json'], { cwd: project.root, env: project.env });
      expect(stats.code, stats.stderr).toBe(0);
      const row = JSON.parse(stats.stdout).validators.find(
        (v: { validator: string }) => v.validator === 'no-hardcoded-keys',
      );
      expect(row.runs).toBeGreaterThanOrEqual(1);
      expect(row.blocked).toBeGreaterThanOrEqual(1);
      const report = await runAvp(['report', '--out', '-'], { cwd: project.root, env: project.env });
      expect(report.code, report.stderr).toBe(0);
      expect(report.stdout).toContain('no-hardcoded-keys');
      expect(report.stdout).toContain('<svg');
    } finally {
      await server.close();
    }
  }, 120_000);

  test('with the catalog validators `avp init` installs, a hardcoded key in a Write is blocked by no-secrets', async () => {
    const project = await makeProject([], { catalog: true });
    projects.push(project);
    const file = join(project.root, 'src', 'settings.ts');
    const server = await startAnthropicServer(({ body }) => {
      if (!Array.isArray(body.tools) || !body.tools.length) return { text: 'ok' };
      if (turnOf(body) === 0)
        return {
          toolUse: {
            name: 'Write',
            input: { file_path: file, content: 'export const API_KEY = "sk-live-1234567890abcdef";\n' },
          },
        };
      return { text: 'Will use the environment.' };
    });
    try {
      const run = await runClaude(project, server.url, 'Add the settings file.');
      expect(run.timedOut).toBe(false);
      const next = newInput(mainRequests(server.requests)[1]);
      expect(next).toContain('PostToolUse:Write hook blocking error');
      expect(next).toContain('[no-secrets] src/settings.ts:1');
    } finally {
      await server.close();
    }
  }, 120_000);

  test('a key written through Bash (sed -i), around the Write/Edit hooks, is caught at PostToolUse:Bash', async () => {
    const project = await makeProject(['no-hardcoded-keys']);
    projects.push(project);
    Bun.spawnSync(
      ['bash', '-c', 'echo \'export const url = "https://example.com";\' > app.ts && git add . && git commit -qm base'],
      { cwd: project.root },
    );
    const command = `sed -i 's|"https://example.com"|"sk-live-9876543210abcd"|' app.ts`;
    const server = await startAnthropicServer(({ body }) => {
      if (!Array.isArray(body.tools) || !body.tools.length) return { text: 'ok' };
      if (turnOf(body) === 0) return { toolUse: { name: 'Bash', input: { command, description: 'Edit app.ts' } } };
      return { text: 'Noted.' };
    });
    try {
      const run = await runClaude(project, server.url, 'Put the key into app.ts.', {
        args: ['--allowedTools', 'Bash(sed:*)'],
      });
      expect(run.timedOut).toBe(false);
      expect(readFileSync(join(project.root, 'app.ts'), 'utf8')).toContain('sk-live-'); // the command did run
      const main = mainRequests(server.requests);
      expect(main.length).toBeGreaterThanOrEqual(2);
      const next = newInput(main[1]);
      expect(next).toContain('PostToolUse:Bash hook blocking error');
      expect(next).toContain('no-hardcoded-keys');
      expect(next).toContain('app.ts:1');
    } finally {
      await server.close();
    }
  }, 120_000);

  test('a Bash overwrite of the hook settings is refused before it runs; the next key Write is still blocked', async () => {
    const project = await makeProject(['no-hardcoded-keys']);
    projects.push(project);
    // `avp init` with avp off PATH writes this machine's path into the local settings: that is where avp's hook is.
    const settings = join(project.root, '.claude', 'settings.local.json');
    const before = readFileSync(settings, 'utf8');
    const file = join(project.root, 'src', 'config.ts');
    const command = "printf '{}\\n' > .claude/settings.local.json";
    const server = await startAnthropicServer(({ body }) => {
      if (!Array.isArray(body.tools) || !body.tools.length) return { text: 'ok' };
      const turn = turnOf(body);
      if (turn === 0) return { toolUse: { name: 'Bash', input: { command, description: 'Reset the settings' } } };
      if (turn === 1)
        return {
          toolUse: {
            name: 'Write',
            input: { file_path: file, content: 'export const API_KEY = "sk-live-1234567890abcdef";\n' },
          },
        };
      return { text: 'Done.' };
    });
    try {
      // Every permission bypassed (as root that needs IS_SANDBOX): Claude Code's own prompt for a write to its
      // settings does not stand in the way, so without avp's guard the command runs.
      project.env.IS_SANDBOX = '1';
      const run = await runClaude(project, server.url, 'Reset the Claude settings, then add the key.', {
        args: ['--permission-mode', 'bypassPermissions'],
      });
      expect(run.timedOut).toBe(false);
      expect(readFileSync(settings, 'utf8')).toBe(before);
      const main = mainRequests(server.requests);
      expect(main.length).toBeGreaterThanOrEqual(3);
      expect(newInput(main[1])).toContain('avp refuses this command before it runs');
      // avp is still called: the Write of a hard-coded key right after is blocked as before.
      const next = newInput(main[2]);
      expect(next).toContain('PostToolUse:Write hook blocking error');
      expect(next).toContain('no-hardcoded-keys');
    } finally {
      await server.close();
    }
  }, 120_000);

  test('Stop loop guard: a Stop validator that never passes blocks maxStopBlocks times, then the session ends', async () => {
    const project = await makeProject(['always-fail-stop']);
    projects.push(project);
    const notes = join(project.root, 'notes.md');
    const server = await startAnthropicServer(({ body }) => {
      if (!Array.isArray(body.tools) || !body.tools.length) return { text: 'ok' };
      if (turnOf(body) === 0) return { toolUse: { name: 'Write', input: { file_path: notes, content: '# notes\n' } } };
      return { text: 'Done.' };
    });
    try {
      const run = await runClaude(project, server.url, 'Write notes.md, then stop.');
      expect(run.timedOut).toBe(false);
      expect(run.code).toBe(0);
      const main = mainRequests(server.requests);
      // Claude Code treats `additionalContext` on a Stop as a reason to continue (observed with 2.1.x: 8 more turns),
      // so a Stop that avp lets through must carry only a systemMessage.
      const continuedByContext = main.filter((b) => newInput(b).includes('Stop hook additional context'));
      expect(
        continuedByContext.length,
        'a released Stop carried hookSpecificOutput.additionalContext, which makes Claude Code continue; the renderer must send only systemMessage on a non-blocking Stop/SubagentStop',
      ).toBe(0);
      const feedback = main.filter((b) => newInput(b).includes('Stop hook feedback'));
      // Default maxStopBlocks = 3: three forced continuations, then avp lets the agent stop (Claude's own cap is 8).
      expect(feedback).toHaveLength(3);
      // The Stop validator saw the turn's files (the Write before the first Stop); the same finding on the same
      // content is shown in full once, then briefly as "still failing".
      expect(newInput(feedback[0]!)).toContain('turn files: notes.md');
      for (const b of feedback.slice(1)) expect(newInput(b)).toContain('[always-fail-stop] still failing');
      expect(main).toHaveLength(2 + 3); // Write turn, first "Done.", three continuations
      // avp recorded the release in the session state.
      const state = projectSessions(join(project.home, '.avp'), project.root);
      const session = readdirSync(state).find((n) => !n.startsWith('.'))!;
      const records = readFileSync(join(state, session, 'events.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(records.filter((r) => r.t === 'stop-block')).toHaveLength(3);
      expect(records.filter((r) => r.t === 'stop-released')).toHaveLength(1);
      // The user is told what remains: Claude Code records avp's systemMessage in the session transcript.
      const projectsDir = join(project.home, '.claude', 'projects');
      const transcripts = readdirSync(projectsDir).flatMap((d) =>
        readdirSync(join(projectsDir, d))
          .filter((f) => f.endsWith('.jsonl'))
          .map((f) => join(projectsDir, d, f)),
      );
      const transcript = transcripts.map((f) => readFileSync(f, 'utf8')).join('\n');
      expect(transcript).toContain('maxStopBlocks: 3');
      expect(transcript).toContain('turn files: notes.md');
    } finally {
      await server.close();
    }
  }, 180_000);
});
