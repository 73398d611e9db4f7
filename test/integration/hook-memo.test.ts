/**
 * The hook memo (what a quiet call concluded, with the stat of everything it looked at) must never hide a change to
 * avp's control files: each attack below is made after the memo is in place, and the next hook call must announce it
 * and keep judging with the accepted state, exactly as without a memo. The files are left to age past the racy
 * window first (a memo is only written when nothing it saw changed in the last 2 s).
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { project, sh, type Project } from './hook-support.ts';

const FAILS = sh(
  `cat >/dev/null; echo '{"passed":false,"violations":[{"rule":"r","file":"src/a.ts","line":1,"snippet":"x","suggestion":"y"}],"summary":"bad"}'`,
);

function writeEvent(p: Project) {
  const file = join(p.root, 'src/a.ts');
  return {
    session_id: 's1',
    transcript_path: join(p.home, 't.jsonl'),
    cwd: p.root,
    hook_event_name: 'PostToolUse',
    tool_name: 'Write',
    tool_input: { file_path: file, content: 'const a = 1;\n' },
    tool_response: { type: 'create', filePath: file, content: 'const a = 1;\n' },
    tool_use_id: 't1',
  };
}

const memoDir = (p: Project) => join(p.home, '.avp', 'cache', 'hook');
const parseCache = (p: Project) => join(p.home, '.avp', 'cache', 'discovery');
const gateFile = (p: Project) => join(p.root, '.avp/validators/gate/VALIDATOR.md');

/** Edits a file in place to bytes of the same length and sets its mtime back: only its ctime tells. */
function editKeepingSizeAndMtime(path: string, from: string, to: string) {
  const before = statSync(path);
  const text = readFileSync(path, 'utf8');
  expect(text).toContain(from);
  expect(to.length).toBe(from.length);
  writeFileSync(path, text.replace(from, to));
  utimesSync(path, before.atimeMs / 1000, before.mtimeMs / 1000);
  expect(statSync(path).mtimeMs).toBe(before.mtimeMs);
}

/** The calls that bring a memo: the first parses the validators (parse cache), the second finds all cached. */
async function settle(p: Project) {
  for (let i = 0; i < 2; i++) expect((await p.hook(writeEvent(p))).json.decision).toBe('block');
  expect(readdirSync(memoDir(p))).toHaveLength(1);
  return p.hook(writeEvent(p));
}

const attacks: Array<{ name: string; attack: (p: Project) => void; said: string }> = [
  {
    name: 'a validator edited in place, its size and mtime kept',
    attack: (p) => editKeepingSizeAndMtime(gateFile(p), 'Rules of gate.', 'Rules of GATE.'),
    said: 'changed .avp/validators/gate/VALIDATOR.md',
  },
  {
    name: 'a new validator beside the accepted one',
    attack: (p) => p.validator('other', { match: { tools: ['Write'] } }),
    said: 'added .avp/validators/other/VALIDATOR.md',
  },
  {
    name: 'a file added to the validator folder (a script it does not name yet)',
    attack: (p) => p.write('.avp/validators/gate/scripts/extra.sh', 'echo\n'),
    said: 'added .avp/validators/gate/scripts/extra.sh',
  },
  {
    name: 'the validator removed',
    attack: (p) => rmSync(join(p.root, '.avp/validators/gate'), { recursive: true }),
    said: 'deleted .avp/validators/gate/VALIDATOR.md',
  },
  {
    name: 'a config file that switches avp off, at the project root',
    attack: (p) => p.write('avp.config.json', '{"disabled": true}'),
    said: 'added avp.config.json',
  },
  {
    name: 'a config file that switches avp off, in .config/',
    attack: (p) => p.write('.config/avp.json', '{"disabled": true}'),
    said: 'added .config/avp.json',
  },
  {
    name: "a user config that disables the project's validator",
    attack: (p) => {
      mkdirSync(join(p.home, '.avp'), { recursive: true });
      writeFileSync(join(p.home, '.avp', 'config.json'), '{"disabledValidators": ["gate"]}');
    },
    said: 'added ~/.avp/config.json',
  },
  {
    name: "Claude Code's hooks switched off in a new settings file",
    attack: (p) => p.write('.claude/settings.local.json', '{"disableAllHooks": true}'),
    said: 'hooks that call avp were changed',
  },
];

describe('the hook memo never hides a change to the control files', () => {
  const projects = new Map<string, Project>();
  beforeAll(async () => {
    for (const { name } of attacks) {
      const p = project();
      p.validator('gate', { match: { tools: ['Write', 'Edit'] } }, FAILS);
      await p.accept();
      projects.set(name, p);
    }
    // Past the racy window: a call now concludes on stats old enough to stand for their contents.
    await Bun.sleep(2100);
    for (const p of projects.values()) await settle(p);
  }, 120_000);

  for (const { name, attack, said } of attacks) {
    test(name, async () => {
      const p = projects.get(name)!;
      attack(p);
      const r = await p.hook(writeEvent(p));
      expect(r.json.systemMessage).toContain(said);
      // The accepted gate still judges: the change waits for the user.
      expect(r.json.decision).toBe('block');
    });
  }
});

describe('the hook memo is what it says', () => {
  test('a held memo answers like the full path: no walk, no parse cache, the gate still blocks', async () => {
    const p = project();
    p.validator('gate', { match: { tools: ['Write', 'Edit'] } }, FAILS);
    await p.accept();
    await Bun.sleep(2100);
    const first = await settle(p);
    // Without the parse cache, only the memo can tell this call what the validators are.
    rmSync(parseCache(p), { recursive: true, force: true });
    const second = await p.hook(writeEvent(p));
    expect(second.json.decision).toBe('block');
    expect(second.json.reason).toBe(first.json.reason);
    expect(existsSync(parseCache(p))).toBe(false);
  }, 60_000);

  test('a memo that is not JSON, or of another avp, is ignored and written again', async () => {
    const p = project();
    p.validator('gate', { match: { tools: ['Write', 'Edit'] } }, FAILS);
    await p.accept();
    await Bun.sleep(2100);
    await settle(p);
    const [name] = readdirSync(memoDir(p));
    const path = join(memoDir(p), name!);
    const good = JSON.parse(readFileSync(path, 'utf8'));
    for (const bad of ['{"format": 1, "seen": [', JSON.stringify({ ...good, version: '0.0.0-other' })]) {
      writeFileSync(path, bad);
      rmSync(parseCache(p), { recursive: true, force: true });
      const r = await p.hook(writeEvent(p));
      expect(r.json.decision).toBe('block');
      // The full path ran: it rebuilt the parse cache.
      expect(existsSync(parseCache(p))).toBe(true);
    }
  }, 60_000);
});
