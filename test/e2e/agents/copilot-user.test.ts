/**
 * avp at user scope in the real GitHub Copilot CLI, offline: `avp init --agent copilot --user` writes
 * `$COPILOT_HOME/hooks/avp.json` (default `~/.copilot/hooks/avp.json`) and the recommended validators into
 * `$AVP_HOME/validators`; the project has no `.github/hooks/` and no `.avp/validators/`. Copilot loads its user hooks
 * from `<COPILOT_HOME or ~/.copilot>/hooks/` next to the repository's `.github/hooks/` (its changelog: "Load personal
 * hooks from ~/.copilot/hooks"; its code: `userHooksDir` = the resolved Copilot home + `hooks`), and — unlike a
 * repository's hooks — also in a folder the user has not trusted, so these runs pass no `--trust-folder`.
 *
 * The scripted turn is avp-part2's: a key write (refused before it is written: `src/` exists, so Copilot's `create`
 * would write it), `rm -rf ~` (denied; the `rm` guard records an attempt), and the end of the turn (a user Stop
 * validator that never passes, ended by the loop guard). Two runs at once: the default home, and `COPILOT_HOME`.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startOpenAIServer } from '../../support/openai-server.ts';
import type { AgentProject, AgentRun } from './agent-support.ts';
import {
  avpStepAt,
  DONE_TEXT,
  installAvp,
  MAX_STOP_BLOCKS,
  PROMPT,
  KEY_FILE,
  runLog,
  SENTINEL,
  sessionRecords,
} from './avp-support.ts';
import { COPILOT_BIN, copilotModel, isCopilotTurn, makeCopilotProject, runCopilot } from './copilot-support.ts';
import { agentOutcomes, carries, ONLY, said } from './outcome-support.ts';
import { chatToolResults } from './turn-support.ts';

const RUN_TIMEOUT_MS = 150_000;

interface Outcome {
  project: AgentProject;
  run: AgentRun;
  rmLog: string;
  /** What `avp init --agent copilot --user` printed. */
  initOutput: string;
  /** Where `avp init --user` was expected to write Copilot's hook file. */
  hookFile: string;
  turns: Array<{ body: any; toolResults: number }>;
}

type Home = 'default' | 'COPILOT_HOME';

async function drive(home: Home): Promise<Outcome> {
  let root = '';
  const server = await startOpenAIServer((req) => copilotModel(root, avpStepAt)(req));
  try {
    const project = makeCopilotProject(server.url);
    root = project.root;
    let hookFile = join(project.home, '.copilot', 'hooks', 'avp.json');
    if (home === 'COPILOT_HOME') {
      project.env.COPILOT_HOME = join(project.root, '..', 'copilot-home');
      hookFile = join(project.env.COPILOT_HOME, 'hooks', 'avp.json');
    }
    const { rmLog, initOutput } = installAvp(project, 'copilot', { user: true });
    // Copilot's `create` refuses a file whose folder is missing: with `src/` there, only avp stands in the way.
    mkdirSync(join(project.root, 'src'));
    const run = await runCopilot(project, PROMPT, RUN_TIMEOUT_MS, { trustFolder: false });
    const turns = server.requests
      .filter((r) => isCopilotTurn(r.body))
      .map((r) => ({ body: r.body, toolResults: chatToolResults(r.body) }));
    return { project, run, rmLog, initOutput, hookFile, turns };
  } finally {
    await server.close();
  }
}

const HOMES: Home[] = ['default', 'COPILOT_HOME'];
const wanted = existsSync(COPILOT_BIN) && (!ONLY || ONLY.includes('copilot'));
const { startAll, outcome } = agentOutcomes<Home, Outcome>((home) => `copilot (${home})`);

beforeAll(() => (wanted ? startAll(HOMES, drive) : undefined), 200_000);

for (const home of HOMES) {
  describe.skipIf(!wanted)(`avp init --agent copilot --user, in the real Copilot CLI (${home} home)`, () => {
    test('avp is installed only at user scope: no .github/hooks/ and no validators in the project', () => {
      const o = outcome(home);
      expect(existsSync(o.hookFile), o.hookFile).toBe(true);
      expect(existsSync(join(o.project.root, '.github'))).toBe(false);
      expect(existsSync(join(o.project.root, '.avp', 'validators'))).toBe(false);
      if (home === 'COPILOT_HOME') expect(existsSync(join(o.project.home, '.copilot', 'hooks'))).toBe(false);
      // These runs trust no folder, so the project scope's advice to trust one would be wrong here.
      expect(o.initOutput).toContain(o.hookFile);
      expect(o.initOutput).not.toContain('--trust-folder');
    });

    test("a write of a hard-coded key is refused before it is written; avp's reason reaches the model", () => {
      const o = outcome(home);
      const after = o.turns.filter((t) => t.toolResults === 1);
      expect(after.length, said(o)).toBeGreaterThan(0);
      carries(after[0]!.body, '[no-secrets').toBe(true);
      expect(existsSync(join(o.project.root, KEY_FILE)), 'the key reached the disk').toBe(false);
      expect(runLog(o.project).some((r) => /^no-secrets(?:-before)?$/.test(String(r.validator ?? r.name)))).toBe(true);
    });

    test('a shell `rm -rf ~` is denied before it runs', () => {
      const o = outcome(home);
      expect(existsSync(join(o.project.home, SENTINEL))).toBe(true);
      expect(existsSync(o.rmLog), 'rm was asked to delete the temp HOME: the hook did not deny it').toBe(false);
    });

    test("the user's Stop validator blocks the end of the turn until the loop guard lets it end", () => {
      const o = outcome(home);
      expect(o.run.code, said(o)).toBe(0);
      expect(o.run.stdout).toContain(DONE_TEXT);
      const records = sessionRecords(o.project);
      expect(records.filter((r) => r.t === 'stop-block')).toHaveLength(MAX_STOP_BLOCKS);
      expect(records.filter((r) => r.t === 'stop-released')).toHaveLength(1);
    });
  });
}
