/**
 * The hook shortcut's record must never hide what the full path would have seen: each change below is made after
 * the shortcut answered a Read — to the control files, the acceptances, the project folder, the session — as the
 * agent's shell could make them (the guard refuses most of them to the agent's own tools). Attacks on the record
 * itself are in hook-shortcut-records.test.ts.
 */
import { expect } from 'bun:test';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gateFile } from './hook-memo-support.ts';
import {
  blockedBy,
  describeAttacks,
  editKeepingSizeAndMtime,
  PASSES,
  READS_FAIL,
  throughLink,
  told,
  type Attack,
} from './hook-shortcut-attack-support.ts';
import type { Project } from './hook-support.ts';
import { readEvent, untilAnswered } from './hook-shortcut-support.ts';

/**
 * A change the user accepts; then another session's Read is told of it and recorded again on the new acceptance
 * logs. This session, not told yet, must be told at its next Read (`said`: what the news names).
 */
function toldFirstToAnotherSession(change: (p: Project) => void, said: string): Pick<Attack, 'attack' | 'then'> {
  return {
    attack: async ({ p, env }) => {
      change(p);
      await p.accept();
      const other = () => readEvent(p, 'src/a.ts', { session_id: 's2' });
      await p.hook(other(), env);
      // Past the racy window, session s2's Read is recorded anew, on the acceptance logs as they are now.
      await Bun.sleep(2100);
      await untilAnswered(p, other(), env);
    },
    then: (r) => {
      expect(r.why).toBe('acceptances not told');
      expect(r.json.systemMessage).toContain(said);
    },
  };
}

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
    ...toldFirstToAnotherSession((p) => p.validator('later', { match: { tools: ['Write'] } }), 'later'),
  },
  {
    name: "the same, of a validator accepted in avp's home (the user's acceptances, not the project's)",
    ...toldFirstToAnotherSession((p) => {
      const dir = join(p.home, '.avp', 'validators', 'mine');
      mkdirSync(dir, { recursive: true });
      const front = 'name: mine\ndescription: Test validator mine.\nseverity: error\ntrigger: PostToolUse';
      writeFileSync(join(dir, 'VALIDATOR.md'), `---\n${front}\nmatch:\n  tools: ["Write"]\n---\nRules of mine.\n`);
    }, 'mine'),
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
    name: 'the folder calls are counted in made a link to another folder (the shortcut would write there)',
    attack: ({ p }) => {
      const pending = join(p.root, '.avp', 'logs', 'pending-calls');
      mkdirSync(join(p.home, 'elsewhere'));
      rmSync(pending, { recursive: true });
      symlinkSync(join(p.home, 'elsewhere'), pending);
    },
    then: (r, { p }) => {
      expect(r.why).toBe('the folder to count in');
      expect(r.stdout).toBe('{}\n');
      // Neither the shortcut nor the full path's fold followed the link.
      expect(readdirSync(join(p.home, 'elsewhere'))).toEqual([]);
    },
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
];

describeAttacks('the hook shortcut never hides what the full path would see', attacks);
