/**
 * avp's guard on a shell call (`controlPlaneDenial` of a PreToolUse Bash event), for the commands agents run most:
 * ones that write nothing, ones that write elsewhere (the control table is then resolved once), and one refused.
 * Each call builds its own resolver and table, as a hook call does. Medians over repeated runs.
 * Run: node_modules/.bin/bun bench/shell-guard.ts [rounds]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HookEvent } from '../src/protocol/event.ts';
import { controlPlaneDenial } from '../src/trust/guard.ts';

const ROUNDS = Number(process.argv[2] ?? 300);
const root = mkdtempSync(join(tmpdir(), 'avp-bench-guard-'));
const project = join(root, 'project');
mkdirSync(join(project, '.claude'), { recursive: true });
writeFileSync(join(project, '.claude/settings.json'), '{"hooks":{}}\n');
const env = { HOME: join(root, 'home'), AVP_HOME: join(root, 'home/.avp'), PATH: process.env.PATH ?? '/usr/bin' };

const COMMANDS = [
  'npm test',
  'git status && git diff --stat',
  'cd src && grep -rn TODO . | head -20',
  'npm run build > build.log 2>&1',
  `bash -c 'for f in src/*.ts; do wc -l "$f"; done'`,
  "printf '{}\\n' > .claude/settings.json",
];

const event = (command: string): HookEvent => ({
  agent: 'claude',
  event: 'PreToolUse',
  tool: 'Bash',
  toolKind: 'shell',
  toolInput: { command },
  cwd: project,
  projectRoot: project,
  files: [],
  raw: {},
});

const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log('command | refused | median (ms)');
for (const command of COMMANDS) {
  const times: number[] = [];
  let refused = false;
  for (let i = 0; i < ROUNDS; i++) {
    const t = performance.now();
    refused = controlPlaneDenial(event(command), env) !== undefined;
    times.push(performance.now() - t);
  }
  // The last command writes a control file and must be refused, the others not: else its row times the other path.
  if (refused !== (command === COMMANDS.at(-1)))
    throw new Error(`the guard ${refused ? 'refused' : 'did not refuse'}: ${command}`);
  console.log(`${command} | ${refused} | ${median(times).toFixed(3)}`);
}
rmSync(root, { recursive: true, force: true });
