/**
 * The hook shortcut's record itself, attacked: planted where the full path never writes one (under a managed policy,
 * whose guarantee must not rest on a user-writable file), replaced by bytes that are not a record, left by another
 * avp version. The next Read must go to the full path and answer as it does.
 */
import { expect } from 'bun:test';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { envDigest, SHORTCUT_FORMAT, shortcutCall, shortcutPath } from '../../src/hook/shortcut/shortcut-file.ts';
import { toldFileName } from '../../src/trust/told-name.ts';
import { VERSION } from '../../src/version.ts';
import type { Project } from './hook-support.ts';
import { blockedBy, describeAttacks, READS_FAIL, type Attack } from './hook-shortcut-attack-support.ts';
import { readEvent, records } from './hook-shortcut-support.ts';

/** A before-tool call that would switch the project's hooks off: a Write of the settings, or a shell command's. */
function switchOff(p: Project, tool: 'Write' | 'Bash') {
  const { tool_response: _r, ...rest } = readEvent(p);
  const settings = join(p.root, '.claude', 'settings.json');
  const content = '{"disableAllHooks": true}';
  const tool_input =
    tool === 'Write' ? { file_path: settings, content } : { command: `echo '${content}' > ${settings}` };
  return { ...rest, hook_event_name: 'PreToolUse', tool_name: tool, tool_input };
}

/** The same before-tool call naming no tool: not one the guard can tell apart from a Write, so never a record's. */
function noTool(p: Project) {
  const { tool_name: _t, ...rest } = switchOff(p, 'Bash');
  return rest;
}

/** What a record's key and told file are made of: any call's fields. */
type Call = Pick<ReturnType<typeof readEvent>, 'session_id' | 'hook_event_name' | 'cwd'> & { tool_name?: string };

/**
 * A record that answers `event` whatever is installed: written as avp writes one, for the environment the test's calls
 * run under (tests/support/run-avp.ts: PATH, HOME, AVP_HOME, NO_COLOR, then `env` and the project's own variables).
 */
function plantRecord(p: Project, env: Record<string, string>, event: Call, installed = false, countIn = installed) {
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
  // With validators installed a record names the folder calls are counted in, made by the full path's count.
  const pending = join(p.root, '.avp', 'logs', 'pending-calls');
  if (countIn) mkdirSync(pending, { recursive: true });
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
    ...(countIn ? { pending: { dir: pending, id: `${statSync(pending).dev}:${statSync(pending).ino}` } } : {}),
    stopCheck: false,
    stdout: '{}\n',
    calls: [shortcutCall(event.hook_event_name, event.tool_name, event.cwd)],
  };
  mkdirSync(join(p.home, '.avp', 'cache', 'hook'), { recursive: true });
  writeFileSync(shortcutPath(join(p.home, '.avp'), digest), JSON.stringify(record));
}

const attacks: Attack[] = [
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
    name: 'the same, a record that says validators are installed (the call would be counted)',
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
    name: 'a record that says validators are installed and names no folder to count in (the call would go uncounted)',
    plant: true,
    attack: ({ p }) => plantRecord(p, {}, readEvent(p), true, false),
    then: (r) => {
      expect(r.why).toBe('no folder to count in');
      expect(r.stdout).toBe('{}\n');
    },
  },
  ...(['Write', 'Bash'] as const).map((tool): Attack => ({
    name: `a record planted for a before-tool ${tool} that switches the hooks off (the guard's call, not a record's)`,
    bare: true,
    plant: true,
    via: (p) => ({ env: {}, event: () => switchOff(p, tool) }),
    attack: ({ p }) => plantRecord(p, {}, switchOff(p, tool)),
    then: (r) => {
      expect(r.why).toBe('the guard reads this event');
      expect(r.json.hookSpecificOutput.permissionDecision).toBe('deny');
    },
  })),
  {
    name: 'a record planted for a before-tool call that names no tool (the guard decides what it is, not a record)',
    bare: true,
    plant: true,
    via: (p) => ({ env: {}, event: () => noTool(p) }),
    attack: ({ p }) => plantRecord(p, {}, noTool(p)),
    then: (r) => expect(r.why).toBe('the guard reads this event'),
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

describeAttacks('the hook shortcut trusts no record it did not write for this state', attacks);
