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
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { gatedProject, gateFile } from './hook-memo-support.ts';
import { BIN, project, sh, type Project } from './hook-support.ts';
import { readEvent, records, traced, untilAnswered, type Traced } from './hook-shortcut-support.ts';
import { envDigest, SHORTCUT_FORMAT, shortcutCall, shortcutPath } from '../../src/hook/shortcut/shortcut-file.ts';
import { toldFileName } from '../../src/trust/told-name.ts';
import { VERSION } from '../../src/version.ts';

const READS_FAIL = sh(
  `cat >/dev/null; echo '{"passed":false,"violations":[{"rule":"r","file":"src/a.ts","line":1,"snippet":"x","suggestion":"y"}],"summary":"bad"}'`,
);
const PASSES = sh(`cat >/dev/null; echo '{"passed":true,"violations":[],"summary":"ok"}'`);

/**
 * A record that answers `event` whatever is installed: written as avp writes one, for the environment the test's calls
 * run under (tests/support/run-avp.ts: PATH, HOME, AVP_HOME, NO_COLOR, then `env` and the project's own variables).
 */
function plantRecord(p: Project, env: Record<string, string>, event: ReturnType<typeof readEvent>, installed = false) {
  const full = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: p.home,
    AVP_HOME: join(p.home, '.avp'),
    NO_COLOR: '1',
    CLAUDE_PROJECT_DIR: p.root,
    ...env,
  };
  const digest = envDigest(full);
  const root = statSync(p.root);
  const trust = join(p.home, '.avp', 'trust', 'projects');
  const told = readdirSync(trust).map((d) => join(trust, d))[0]!;
  // What the session was told: the record matches it, so only the policy can keep the call from the record.
  const session = JSON.parse(readFileSync(join(told, 'sessions', toldFileName(event.session_id)), 'utf8'));
  const record = {
    format: SHORTCUT_FORMAT,
    version: VERSION,
    env: digest,
    seen: [],
    root: { dir: p.root, id: `${root.dev}:${root.ino}` },
    projectRoot: p.root,
    told: { dir: join(told, 'sessions'), project: session.project, user: session.user },
    sessions: join(p.home, '.avp', 'sessions'),
    installed,
    stopCheck: false,
    stdout: '{}\n',
    calls: [shortcutCall(event.hook_event_name, event.tool_name, event.cwd)],
  };
  mkdirSync(join(p.home, '.avp', 'cache', 'hook'), { recursive: true });
  writeFileSync(shortcutPath(join(p.home, '.avp'), digest), JSON.stringify(record));
}

function editKeepingSizeAndMtime(path: string, from: string, to: string) {
  const before = statSync(path);
  writeFileSync(path, readFileSync(path, 'utf8').replace(from, to));
  utimesSync(path, before.atimeMs / 1000, before.mtimeMs / 1000);
  expect(statSync(path).mtimeMs).toBe(before.mtimeMs);
}

interface Case {
  p: Project;
  /** The environment of every call (the link case names the project through a link). */
  env: Record<string, string>;
  event: () => unknown;
}

interface Attack {
  name: string;
  /** Set-up before the user accepts the project (the gate validator watches Write and Edit only). */
  before?: (p: Project) => void;
  /** A call's environment and event, when not the project's own. */
  via?: (p: Project) => Omit<Case, 'p'>;
  attack: (c: Case) => void | Promise<void>;
  /** No record comes by itself: the calls before the attack are not expected to be answered. */
  plant?: boolean;
  /** What the next Read must show. */
  then: (r: Traced, c: Case) => void;
}

const told = (said: string) => (r: Traced) => expect(r.json.systemMessage).toContain(said);
const blockedBy = (name: string) => (r: Traced) => {
  expect(r.json.decision).toBe('block');
  expect(r.json.reason).toContain(`[${name}]`);
};

const attacks: Attack[] = [
  {
    name: 'a validator edited in place, its size and mtime kept',
    attack: ({ p }) => editKeepingSizeAndMtime(gateFile(p), 'Rules of gate.', 'Rules of GATE.'),
    then: told('changed .avp/validators/gate/VALIDATOR.md'),
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
    attack: ({ p }) => renameSync(join(p.home, 'links', 'other'), join(p.home, 'links', 'project')),
    then: (r) => {
      expect(r.why).toBe('root');
      blockedBy('reads')(r);
    },
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
    name: 'a record planted under a managed policy (the policy requires a validator that concerns Reads)',
    before: (p) => {
      p.validator('reads', { match: { tools: ['Read'] } }, READS_FAIL);
      writeFileSync(join(p.home, 'managed.json'), JSON.stringify({ requiredValidators: ['reads'] }));
    },
    via: (p) => ({ env: { AVP_MANAGED_CONFIG: join(p.home, 'managed.json') }, event: () => readEvent(p) }),
    // Under the policy nothing is recorded: the record is planted, as an attacker with the agent's shell could.
    plant: true,
    attack: ({ p, env }) => plantRecord(p, env, readEvent(p)),
    then: (r) => {
      expect(r.why).toBe('a managed policy');
      blockedBy('reads')(r);
    },
  },
  {
    name: 'the same, a record that says validators are installed (its checks take node:fs)',
    before: (p) => {
      p.validator('reads', { match: { tools: ['Read'] } }, READS_FAIL);
      writeFileSync(join(p.home, 'managed.json'), JSON.stringify({ requiredValidators: ['reads'] }));
    },
    via: (p) => ({ env: { AVP_MANAGED_CONFIG: join(p.home, 'managed.json') }, event: () => readEvent(p) }),
    // Under the policy nothing is recorded: the record is planted, as an attacker with the agent's shell could.
    plant: true,
    attack: ({ p, env }) => plantRecord(p, env, readEvent(p), true),
    then: (r) => {
      expect(r.why).toBe('a managed policy');
      blockedBy('reads')(r);
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
    for (const { name, before, via } of attacks) {
      const p = await gatedProject(before);
      const c = { p, ...(via?.(p) ?? { env: {}, event: () => readEvent(p) }) };
      cases.set(name, c);
      await p.hook(c.event(), c.env);
    }
    // Past the racy window (see hook-shortcut.test.ts), then each project's Read is answered from a record.
    await Bun.sleep(2100);
    for (const [name, c] of cases)
      if (!attacks.find((a) => a.name === name)!.plant) await untilAnswered(c.p, c.event(), c.env);
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
