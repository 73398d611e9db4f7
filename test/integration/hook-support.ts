/** Helpers for the hook integration tests: a throwaway project with validators, and `avp hook` runs on it. */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AVP_BIN, runAvp, tempDir, type AvpRun } from '../support/run-avp.ts';
import { projectSessions } from '../support/session-state.ts';

/** `AVP_TEST_BIN` lets the suite run against another build of the binary (e.g. a cross-compiled one). */
export const BIN = process.env.AVP_TEST_BIN || AVP_BIN;
export const FIXTURES = join(import.meta.dir, '../fixtures/hook/claude-code');

export interface Project {
  root: string;
  home: string;
  /** Adds a directory validator; `script` (shell or TS source) becomes `scripts/<scriptName>`. */
  validator(name: string, fm: Record<string, unknown>, script?: string, scriptName?: string): void;
  /** Writes a raw file under the project. */
  write(rel: string, text: string): void;
  /** A captured fixture with its paths moved into this project. */
  fixture(name: string): Record<string, any>;
  hook(input: unknown, env?: Record<string, string>): Promise<AvpRun & { json: any }>;
  /** `avp accept` as the user: makes the project's files as they are now the state hook mode runs on. */
  accept(): Promise<AvpRun>;
}

function yaml(value: unknown, indent = ''): string {
  if (Array.isArray(value)) return `[${value.map((x) => JSON.stringify(x)).join(', ')}]`;
  if (value && typeof value === 'object') {
    return `\n${Object.entries(value)
      .map(([k, x]) => `${indent}  ${k}: ${yaml(x, `${indent}  `)}`)
      .join('\n')}`;
  }
  return JSON.stringify(value);
}

/**
 * A throwaway project. Like a user who ran `avp init`, the files written before the first hook call are accepted
 * then (`acceptFirst: false` leaves that to avp's first-run acceptance); files changed later need `p.accept()`.
 * `agent` runs `avp hook --agent <agent>` (default: Claude Code's `avp hook`).
 */
export function project(opts: { acceptFirst?: boolean; agent?: string } = {}): Project {
  const root = tempDir('avp-e-hook-');
  const home = tempDir('avp-e-hook-home-');
  mkdirSync(join(root, '.git'));
  // One acceptance before the first hook call, shared by hook calls started together.
  let firstAccept: Promise<unknown> | undefined = opts.acceptFirst === false ? Promise.resolve() : undefined;
  const env = () => ({ HOME: home, AVP_HOME: join(home, '.avp'), CLAUDE_PROJECT_DIR: root });
  const p: Project = {
    root,
    home,
    validator(name, fm, script, scriptName = 'check.sh') {
      const dir = join(root, '.avp/validators', name);
      mkdirSync(join(dir, 'scripts'), { recursive: true });
      const front = {
        name,
        description: `Test validator ${name}.`,
        severity: 'error',
        trigger: 'PostToolUse',
        ...fm,
        ...(script !== undefined ? { script: `scripts/${scriptName}` } : {}),
      };
      const lines = Object.entries(front).map(([k, v]) => `${k}: ${yaml(v)}`);
      writeFileSync(join(dir, 'VALIDATOR.md'), `---\n${lines.join('\n')}\n---\nRules of ${name}.\n`);
      if (script !== undefined) {
        writeFileSync(join(dir, 'scripts', scriptName), script);
        chmodSync(join(dir, 'scripts', scriptName), 0o755);
      }
    },
    write(rel, text) {
      mkdirSync(join(root, rel, '..'), { recursive: true });
      writeFileSync(join(root, rel), text);
    },
    fixture(name) {
      return JSON.parse(
        readFileSync(join(FIXTURES, name), 'utf8').replaceAll('/home/dev/project', root).replaceAll('/home/dev', home),
      );
    },
    async accept() {
      firstAccept ??= Promise.resolve();
      const run = await runAvp(['accept'], { bin: BIN, cwd: root, env: env() });
      if (run.code !== 0) throw new Error(`avp accept failed: ${run.stderr}`);
      return run;
    },
    async hook(input, extra = {}) {
      firstAccept ??= p.accept();
      await firstAccept;
      const run = await runAvp(opts.agent ? ['hook', '--agent', opts.agent] : ['hook'], {
        bin: BIN,
        cwd: root,
        stdin: typeof input === 'string' ? input : `${JSON.stringify(input)}\n`,
        env: { ...env(), ...extra },
        timeoutMs: 30_000,
      });
      let json: any;
      try {
        json = JSON.parse(run.stdout);
      } catch {
        json = undefined;
      }
      return { ...run, json };
    },
  };
  return p;
}

export const sh = (body: string) => `#!/bin/sh\n${body}\n`;
/** A TypeScript script judge (run on avp's own runtime): one violation per line of new content holding `sk-live-`. */
export const KEY_FINDER = `const event = JSON.parse(await Bun.stdin.text());
const violations = [];
for (const f of event.files) {
  (typeof f.after === 'string' ? f.after : '').split('\\n').forEach((line, i) => {
    if (line.includes('sk-live-')) violations.push({ rule: 'no-keys', file: f.relPath, line: i + 1, snippet: line.trim(), suggestion: 'read it from process.env' });
  });
}
console.log(JSON.stringify({ passed: violations.length === 0, violations, summary: violations.length + ' hardcoded key(s)' }));
`;
export const PASSES = sh(`cat >/dev/null; echo '{"passed":true,"violations":[],"summary":"ok"}'`);

/** Where avp keeps a session's state: `$AVP_HOME/sessions/<16 hex of sha256(real project root)>/<session>`. */
export function sessionStateDir(home: string, root: string, session: string): string {
  return join(projectSessions(join(home, '.avp'), root), session);
}

/**
 * `avp hook` on a pipe `feed` writes to (and may leave open): what it answers (killed after 10 s if it never does).
 */
export async function hookFedBy(
  cwd: string,
  env: Record<string, string>,
  feed: (stdin: { write(s: string): unknown; flush(): unknown; end(): unknown }) => Promise<void> | void,
) {
  const proc = Bun.spawn([BIN, 'hook'], { cwd, env, stdin: 'pipe', stdout: 'pipe', stderr: 'pipe' });
  await feed(proc.stdin);
  const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  clearTimeout(timer);
  return { out, err, code };
}

/** `avp hook` given the start of an event on a stdin never closed, with `AVP_STDIN_TIMEOUT_MS=500`. */
export function hookWithOpenStdin(cwd: string, env: Record<string, string>) {
  return hookFedBy(cwd, { ...env, AVP_STDIN_TIMEOUT_MS: '500' }, (stdin) => {
    stdin.write('{"hook_event_name": "Stop"');
    stdin.flush();
  });
}
