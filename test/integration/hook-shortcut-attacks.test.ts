/**
 * The hook shortcut's record must never hide what the full path would have seen: each change below is made after
 * the shortcut answered a Read, and the next Read must go to the full path and say or judge what the full path says
 * and judges — as the agent's shell could make them (the guard refuses most of them to the agent's own tools).
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
import { gatedProject, gateFile } from './hook-memo-support.ts';
import { BIN, project, sh, type Project } from './hook-support.ts';
import { readEvent, records, traced, untilAnswered, type Traced } from './hook-shortcut-support.ts';

const READS_FAIL = sh(
  `cat >/dev/null; echo '{"passed":false,"violations":[{"rule":"r","file":"src/a.ts","line":1,"snippet":"x","suggestion":"y"}],"summary":"bad"}'`,
);
const PASSES = sh(`cat >/dev/null; echo '{"passed":true,"violations":[],"summary":"ok"}'`);

function editKeepingSizeAndMtime(path: string, from: string, to: string) {
  const before = statSync(path);
  writeFileSync(path, readFileSync(path, 'utf8').replace(from, to));
  utimesSync(path, before.atimeMs / 1000, before.mtimeMs / 1000);
  expect(statSync(path).mtimeMs).toBe(before.mtimeMs);
}

async function bareProject(before?: (p: Project) => void): Promise<Project> {
  const p = project();
  before?.(p);
  await p.accept();
  return p;
}

interface Case {
  p: Project;
  /** The environment of every call (the link case names the project through a link). */
  env: Record<string, string>;
  event: () => unknown;
}

interface Attack {
  name: string;
  /** A project with no validator installed (the shortcut then stats without node:fs), not the gated one. */
  bare?: boolean;
  /** Set-up before the user accepts the project (the gate validator watches Write and Edit only). */
  before?: (p: Project) => void;
  /** A call's environment and event, when not the project's own. */
  via?: (p: Project) => Omit<Case, 'p'>;
  attack: (c: Case) => void | Promise<void>;
  /** What the next Read must show. */
  then: (r: Traced, c: Case) => void;
}

const told = (said: string) => (r: Traced) => expect(r.json.systemMessage).toContain(said);
const blockedBy = (name: string) => (r: Traced) => {
  expect(r.json.decision).toBe('block');
  expect(r.json.reason).toContain(`[${name}]`);
};

/** The project named through a link (`links/project`); `links/other` leads to another, accepted, project. */
const throughLink: Pick<Attack, 'before' | 'via'> = {
  before: (p) => {
    // The other project is accepted beforehand, in this project's avp home: the attack only turns the link.
    const other = project();
    other.validator('reads', { match: { tools: ['Read'] } }, READS_FAIL);
    const accepted = Bun.spawnSync([BIN, 'accept'], {
      cwd: other.root,
      env: { PATH: process.env.PATH ?? '', HOME: p.home, AVP_HOME: join(p.home, '.avp') },
    });
    expect(accepted.exitCode).toBe(0);
    mkdirSync(join(p.home, 'links'));
    symlinkSync(p.root, join(p.home, 'links', 'project'));
    symlinkSync(other.root, join(p.home, 'links', 'other'));
  },
  via: (p) => ({
    env: { CLAUDE_PROJECT_DIR: join(p.home, 'links', 'project') },
    event: () => readEvent(p, 'src/a.ts', { cwd: join(p.home, 'links', 'project') }),
  }),
};

const attacks: Attack[] = [
  {
    name: 'a validator edited in place, its size and mtime kept',
    attack: ({ p }) => editKeepingSizeAndMtime(gateFile(p), 'Rules of gate.', 'Rules of GATE.'),
    then: (r) => {
      expect(r.why).toStartWith('changed: ');
      told('changed .avp/validators/gate/VALIDATOR.md')(r);
    },
  },
  {
    name: 'a new validator that concerns Reads (waits for the user, and is said)',
    attack: ({ p }) => p.validator('reads', { match: { tools: ['Read'] } }, READS_FAIL),
    then: told('added .avp/validators/reads/VALIDATOR.md'),
  },
  {
    name: 'the user accepts a validator that concerns Reads, in another terminal: it judges the next Read',
    attack: async ({ p }) => {
      p.validator('reads', { match: { tools: ['Read'] } }, READS_FAIL);
      await p.accept();
    },
    then: blockedBy('reads'),
  },
  {
    name: 'another session was told of an acceptance first and recorded the call again: this session is told too',
    attack: async ({ p, env }) => {
      p.validator('later', { match: { tools: ['Write'] } });
      await p.accept();
      const other = () => readEvent(p, 'src/a.ts', { session_id: 's2' });
      await p.hook(other(), env);
      // Past the racy window, session s2's Read is recorded anew, on the acceptance logs as they are now.
      await Bun.sleep(2100);
      await untilAnswered(p, other(), env);
    },
    then: (r) => {
      expect(r.why).toBe('acceptances not told');
      expect(r.json.systemMessage).toContain('later');
    },
  },
  {
    name: "the same, of a validator accepted in avp's home (the user's acceptances, not the project's)",
    attack: async ({ p, env }) => {
      const dir = join(p.home, '.avp', 'validators', 'mine');
      mkdirSync(dir, { recursive: true });
      const front = 'name: mine\ndescription: Test validator mine.\nseverity: error\ntrigger: PostToolUse';
      writeFileSync(join(dir, 'VALIDATOR.md'), `---\n${front}\nmatch:\n  tools: ["Write"]\n---\nRules of mine.\n`);
      await p.accept();
      const other = () => readEvent(p, 'src/a.ts', { session_id: 's2' });
      await p.hook(other(), env);
      // Past the racy window, session s2's Read is recorded anew, on the acceptance logs as they are now.
      await Bun.sleep(2100);
      await untilAnswered(p, other(), env);
    },
    then: (r) => {
      expect(r.why).toBe('acceptances not told');
      expect(r.json.systemMessage).toContain('mine');
    },
  },
  {
    name: "Claude Code's hooks switched off in a new settings file",
    attack: ({ p }) => p.write('.claude/settings.local.json', '{"disableAllHooks": true}'),
    then: told('hooks that call avp were changed'),
  },
  {
    name: 'the accepted record edited by hand',
    attack: ({ p }) => {
      const trust = join(p.home, '.avp', 'trust', 'projects');
      const record = join(trust, readdirSync(trust)[0]!, 'accepted.json');
      writeFileSync(record, JSON.stringify({ ...JSON.parse(readFileSync(record, 'utf8')), by: 'someone else' }));
    },
    then: told('was changed outside avp'),
  },
  {
    name: 'the project named through a link that now leads to another project, where a validator concerns Reads',
    ...throughLink,
    attack: ({ p }) => renameSync(join(p.home, 'links', 'other'), join(p.home, 'links', 'project')),
    then: (r) => {
      expect(r.why).toBe('root');
      blockedBy('reads')(r);
    },
  },
  {
    name: 'nothing installed: the project named through a link that now leads to another project',
    bare: true,
    ...throughLink,
    attack: ({ p }) => renameSync(join(p.home, 'links', 'other'), join(p.home, 'links', 'project')),
    then: (r) => {
      expect(r.why).toBe('root');
      blockedBy('reads')(r);
    },
  },
  {
    name: 'the link that named the project removed',
    ...throughLink,
    attack: ({ p }) => rmSync(join(p.home, 'links', 'project')),
    then: (r) => expect(r.why).toBe('root'),
  },
  {
    name: 'nothing installed: a validator that concerns Reads added to the project',
    bare: true,
    attack: ({ p }) => p.validator('reads', { match: { tools: ['Read'] } }, READS_FAIL),
    then: told('added .avp/validators/reads/VALIDATOR.md'),
  },
  {
    name: "avp's user config made a link to itself, which no stat can follow",
    attack: ({ p }) => symlinkSync('config.json', join(p.home, '.avp', 'config.json')),
    then: (r, { p }) => expect(r.why).toBe(`changed: ${join(p.home, '.avp', 'config.json')}`),
  },
  {
    name: "nothing installed: avp's user config made a link to itself, which no stat can follow",
    bare: true,
    attack: ({ p }) => symlinkSync('config.json', join(p.home, '.avp', 'config.json')),
    then: (r, { p }) => expect(r.why).toBe(`changed: ${join(p.home, '.avp', 'config.json')}`),
  },
  {
    name: 'a Stop ended the turn (a Stop validator is installed): the next call begins a turn, as the full path does',
    before: (p) => p.validator('at-stop', { trigger: 'Stop' }, PASSES),
    attack: async ({ p, env }) => {
      const stop = await p.hook({ ...(readEvent(p) as object), hook_event_name: 'Stop', stop_hook_active: false }, env);
      expect(stop.code).toBe(0);
    },
    then: (r) => expect(r.why).toBe('a turn ended'),
  },
  {
    name: 'a managed policy appears that requires a validator the project lacks',
    via: (p) => ({ env: { AVP_MANAGED_CONFIG: join(p.home, 'managed.json') }, event: () => readEvent(p) }),
    attack: ({ p }) => writeFileSync(join(p.home, 'managed.json'), JSON.stringify({ requiredValidators: ['no-keys'] })),
    then: (r) => {
      expect(r.json.decision).toBe('block');
      expect(r.stdout).toContain('no-keys');
    },
  },
  {
    name: 'the record replaced by bytes that are not one (a record is only used whole)',
    attack: ({ p }) => {
      for (const file of records(p)) writeFileSync(file, '{"format": 1, "calls": [');
    },
    then: (r) => {
      expect(r.why).toBe('no record for this environment');
      expect(r.stdout).toBe('{}\n');
    },
  },
  {
    name: "a record of another avp version (an upgrade's first calls)",
    attack: ({ p }) => {
      for (const file of records(p)) {
        writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), version: '0.0.1' }));
      }
    },
    then: (r) => expect(r.why).toBe('no record for this environment'),
  },
];

describe('the hook shortcut never hides what the full path would see', () => {
  const cases = new Map<string, Case>();
  beforeAll(async () => {
    for (const { name, bare, before, via } of attacks) {
      const p = bare ? await bareProject(before) : await gatedProject(before);
      const c = { p, ...(via?.(p) ?? { env: {}, event: () => readEvent(p) }) };
      cases.set(name, c);
      await p.hook(c.event(), c.env);
    }
    // Past the racy window (see hook-shortcut.test.ts), then each project's Read is answered from a record.
    await Bun.sleep(2100);
    for (const c of cases.values()) await untilAnswered(c.p, c.event(), c.env);
  }, 120_000);

  for (const { name, attack, then } of attacks) {
    test(name, async () => {
      const c = cases.get(name)!;
      await attack(c);
      const r = await traced(c.p, c.event(), c.env);
      expect(r.answered).toBe(false);
      then(r, c);
    });
  }
});
