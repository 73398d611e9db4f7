/**
 * The hook shortcut's attack tests, shared: the projects, the calls that bring a record, and the run of a list of
 * attacks — each made after the shortcut answered a Read; the next Read must go to the full path and say or judge
 * what the full path says and judges.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gatedProject } from './hook-memo-support.ts';
import { BIN, project, sh, type Project } from './hook-support.ts';
import { readEvent, traced, untilAnswered, type Traced } from './hook-shortcut-support.ts';

export const READS_FAIL = sh(
  `cat >/dev/null; echo '{"passed":false,"violations":[{"rule":"r","file":"src/a.ts","line":1,"snippet":"x","suggestion":"y"}],"summary":"bad"}'`,
);
export const PASSES = sh(`cat >/dev/null; echo '{"passed":true,"violations":[],"summary":"ok"}'`);

export function editKeepingSizeAndMtime(path: string, from: string, to: string) {
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

export interface Case {
  p: Project;
  /** The environment of every call (the link case names the project through a link). */
  env: Record<string, string>;
  event: () => unknown;
}

export interface Attack {
  name: string;
  /** A project with no validator installed (the shortcut then counts no call), not the gated one. */
  bare?: boolean;
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

export const told = (said: string) => (r: Traced) => expect(r.json.systemMessage).toContain(said);
export const blockedBy = (name: string) => (r: Traced) => {
  expect(r.json.decision).toBe('block');
  expect(r.json.reason).toContain(`[${name}]`);
};

/** The project named through a link (`links/project`); `links/other` leads to another, accepted, project. */
export const throughLink: Pick<Attack, 'before' | 'via'> = {
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

/** Runs `attacks`, each on a project of its own, set up and brought to an answered Read first. */
export function describeAttacks(title: string, attacks: Attack[]) {
  describe(title, () => {
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
}
