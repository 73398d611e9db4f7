/**
 * The hook memo (what a quiet call concluded, with the stat of everything it looked at) must never hide a change to
 * avp's control files: each attack below is made after the memo is in place, and the next hook call must announce it
 * and keep judging with the accepted state, exactly as without a memo. The files are left to age past the racy
 * window first (a memo is only written when nothing it saw changed in the last 2 s).
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { Project } from './hook-support.ts';
import { gateBlocked, gatedProject, gateFile, settle, writeEvent } from './hook-memo-support.ts';

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

const outside = (p: Project) => join(p.home, 'elsewhere', 'VALIDATOR.md');

interface Attack {
  name: string;
  /** Set-up before the user accepts the project. */
  before?: (p: Project) => void;
  attack: (p: Project) => void;
  /** The environment of the call after the attack. */
  env?: (p: Project) => Record<string, string>;
  said: string;
}

const attacks: Attack[] = [
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
    name: 'a linked validator file whose target, outside every folder looked at, turns into a link loop',
    before: (p) => {
      mkdirSync(join(p.home, 'elsewhere'));
      renameSync(gateFile(p), outside(p));
      symlinkSync(outside(p), gateFile(p));
    },
    attack: (p) => {
      rmSync(outside(p));
      symlinkSync(outside(p), outside(p));
    },
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
  {
    name: "the environment moves Claude Code's user settings to a folder that switches hooks off",
    attack: (p) => {
      mkdirSync(join(p.home, 'cc'));
      writeFileSync(join(p.home, 'cc', 'settings.json'), '{"disableAllHooks": true}');
    },
    env: (p) => ({ CLAUDE_CONFIG_DIR: join(p.home, 'cc') }),
    said: 'hooks that call avp were changed',
  },
  {
    name: 'the accepted record edited by hand',
    attack: (p) => {
      const trust = join(p.home, '.avp', 'trust', 'projects');
      const record = join(trust, readdirSync(trust)[0]!, 'accepted.json');
      const r = JSON.parse(readFileSync(record, 'utf8'));
      writeFileSync(record, JSON.stringify({ ...r, by: 'someone else' }));
    },
    said: 'was changed outside avp',
  },
];

describe('the hook memo never hides a change to the control files', () => {
  const projects = new Map<string, Project>();
  beforeAll(async () => {
    for (const { name, before } of attacks) projects.set(name, await gatedProject(before));
    // Past the racy window: a call now concludes on stats old enough to stand for their contents.
    await Bun.sleep(2100);
    for (const p of projects.values()) await settle(p);
  }, 120_000);

  for (const { name, attack, env, said } of attacks) {
    test(name, async () => {
      const p = projects.get(name)!;
      attack(p);
      const r = await p.hook(writeEvent(p), env?.(p));
      expect(r.json.systemMessage).toContain(said);
      // The accepted gate still judges: the change waits for the user.
      gateBlocked(r);
    });
  }
});
