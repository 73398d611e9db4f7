import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { prepareEvent, stopGuard } from '../../../src/session/session.ts';
import { seriesState } from '../../../src/session/stop-guard.ts';
import { readRecords, sessionDir } from '../../../src/session/store.ts';
import { config, ev, tempProject } from './helpers.ts';

const stop = (root: string, n: number, active: boolean, extra: Record<string, unknown> = {}) =>
  ev(root, 'Stop', { stopHookActive: active, raw: { n, stop_hook_active: active, ...extra } });

describe('Stop loop guard', () => {
  test('blocks at most maxStopBlocks consecutive Stops, then lets the agent stop and tells the user what remains', async () => {
    const root = tempProject();
    const cfg = config({ maxStopBlocks: 3 });
    expect(await stopGuard(stop(root, 1, false), true, cfg, { remaining: 'tests: 2 failing' })).toEqual({
      block: true,
    });
    expect(await stopGuard(stop(root, 2, true), true, cfg)).toEqual({ block: true });
    expect(await stopGuard(stop(root, 3, true), true, cfg)).toEqual({ block: true });
    const released = await stopGuard(stop(root, 4, true), true, cfg, { remaining: 'tests: 2 failing' });
    expect(released.block).toBe(false);
    expect(released.systemMessage).toContain('3 times');
    expect(released.systemMessage).toContain('tests: 2 failing');
    expect(released.systemMessage).toContain('maxStopBlocks');
    // A host that continues anyway (still stop_hook_active) is not blocked again in this series.
    const again = await stopGuard(stop(root, 5, true), true, cfg, { remaining: 'tests: 2 failing' });
    expect(again.block).toBe(false);
    expect(again.systemMessage).toContain('tests: 2 failing');
  });

  test('a passing Stop, a new prompt, or a Stop without stop_hook_active resets the count', async () => {
    const root = tempProject();
    const cfg = config({ maxStopBlocks: 2 });
    await stopGuard(stop(root, 1, false), true, cfg);
    await stopGuard(stop(root, 2, true), true, cfg);
    expect((await stopGuard(stop(root, 3, true), false, cfg)).block).toBe(false); // passes: reset
    await stopGuard(stop(root, 4, false), true, cfg);
    await prepareEvent(ev(root, 'UserPromptSubmit'), cfg); // new prompt: reset
    expect((await stopGuard(stop(root, 5, true), true, cfg)).block).toBe(true);
    expect((await stopGuard(stop(root, 6, true), true, cfg)).block).toBe(true);
    expect((await stopGuard(stop(root, 7, true), true, cfg)).block).toBe(false);
    // A fresh Stop (host says: not a continuation) starts a new series even right after a release.
    expect((await stopGuard(stop(root, 8, false), true, cfg)).block).toBe(true);
    expect(seriesState(readRecords(sessionDir(root, 's1')), undefined).blocks).toBe(1);
  });

  test('maxStopBlocks 0 never blocks a Stop; sub-agents are counted apart from the main agent', async () => {
    const root = tempProject();
    expect((await stopGuard(stop(root, 1, false), true, config({ maxStopBlocks: 0 }))).block).toBe(false);
    const cfg = config({ maxStopBlocks: 1 });
    const sub = (n: number, active: boolean) =>
      ev(root, 'SubagentStop', { stopHookActive: active, raw: { n, agent_id: 'a1', agent_type: 'reviewer' } });
    expect((await stopGuard(sub(1, false), true, cfg)).block).toBe(true);
    expect((await stopGuard(stop(root, 2, false), true, cfg)).block).toBe(true);
    const r = await stopGuard(sub(3, true), true, cfg);
    expect(r.block).toBe(false);
    expect(r.systemMessage).toContain('sub-agent reviewer');
  });

  test('consecutive Stops with identical input are each counted', async () => {
    const root = tempProject();
    const cfg = config({ maxStopBlocks: 2 });
    const same = () =>
      ev(root, 'Stop', { stopHookActive: true, raw: { stop_hook_active: true, last_assistant_message: 'Done.' } });
    expect((await stopGuard(same(), true, cfg)).block).toBe(true);
    expect((await stopGuard(same(), true, cfg)).block).toBe(true);
    expect((await stopGuard(same(), true, cfg)).block).toBe(false);
  });

  test('other events are not guarded', async () => {
    const root = tempProject();
    expect(await stopGuard(ev(root, 'PostToolUse'), true, config({ maxStopBlocks: 0 }))).toEqual({ block: true });
  });

  test('6 hook processes guarding Stops at once: the count is serialized (3 block, then released)', async () => {
    const root = tempProject();
    const worker = join(import.meta.dir, 'worker.ts');
    const decisions = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const p = Bun.spawn([process.execPath, worker, 'stop', root, 'active'], {
          stdout: 'pipe',
          stderr: 'inherit',
          env: process.env,
        });
        return (JSON.parse(await new Response(p.stdout).text()) as { block: boolean }).block;
      }),
    );
    expect(decisions.filter(Boolean)).toHaveLength(3);
    const recs = readRecords(sessionDir(root, 's1'));
    expect(recs.filter((r) => r.t === 'stop-block')).toHaveLength(3);
    expect(recs.filter((r) => r.t === 'stop-released')).toHaveLength(3);
  });
});
