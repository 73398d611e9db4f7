/**
 * `avp report` rendered in headless Chromium (Debian's, driven by playwright-core): on the log of a real run every
 * chart is drawn, the page asks the network for nothing, and text from the log that is HTML (file names are the
 * agent's choice) stays text. The screenshot is kept in test/artifacts/ (AVP_UPDATE_SCREENSHOT=1 also refreshes the
 * README's docs/img/report.png, from a two-week log replayed from the real run's lines).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { project } from './hook-support.ts';
import { realRun, type RealRun } from './stats-support.ts';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = resolve(import.meta.dir, '../artifacts');
const CHARTS = ['latency', 'blocks', 'tokens', 'cost', 'blockers', 'files'];

let run: RealRun;
let browser: Browser;
beforeAll(async () => {
  run = await realRun();
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await run?.server.close();
});

/** Opens a report; returns what the page requested, whether any dialog opened, and the drawn marks per chart. */
async function render(file: string, screenshot?: string) {
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  const requests: string[] = [];
  let dialogs = 0;
  page.on('request', (r) => requests.push(r.url()));
  page.on('dialog', async (d) => {
    dialogs++;
    await d.dismiss();
  });
  await page.goto(pathToFileURL(file).href);
  const marks: Record<string, number> = {};
  for (const id of CHARTS) {
    marks[id] = await page.$$eval(
      `svg[data-chart="${id}"] .mark`,
      (els) =>
        els.filter((e) => {
          const b = e.getBoundingClientRect();
          return b.width > 0 || b.height > 0;
        }).length,
    );
  }
  const text = await page.innerText('body');
  if (screenshot) await page.screenshot({ path: screenshot, fullPage: true });
  await page.close();
  return { requests, dialogs, marks, text };
}

describe('avp report', () => {
  test('on a real run: every chart is drawn, nothing is fetched, the screenshot is kept', async () => {
    const out = join(run.p.root, 'out/report.html');
    const r = await run.avp(['report', '--out', 'out/report.html']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(out);
    const html = readFileSync(out, 'utf8');
    expect(html).not.toMatch(/<script|<link|<img|@import|url\(/i);
    expect(html.match(/https?:\/\/[^"\s]+/g)?.filter((u) => u !== 'http://www.w3.org/2000/svg') ?? []).toEqual([]);
    mkdirSync(ARTIFACTS, { recursive: true });
    const page = await render(out, join(ARTIFACTS, 'report.png'));
    expect(page.requests).toEqual([pathToFileURL(out).href]);
    // latency: 11 runs as dots; blocks: blocked + warned bars; tokens: in + out; cost: one bar; one blocker, one file
    expect(page.marks).toMatchObject({ latency: 11, blocks: 2, tokens: 2, cost: 1, blockers: 1, files: 1 });
    expect(page.text).toContain('no-keys');
    expect(page.text).toContain('src/config.ts');
  }, 60_000);

  test('the default place is in the project’s ignored logs folder; --out - prints the page', async () => {
    const r = await run.avp(['report', '--since', '7d']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(join(run.p.root, '.avp/logs/report.html'));
    const piped = await run.avp(['report', '--out', '-']);
    expect(piped.stdout.startsWith('<!doctype html>')).toBe(true);
    const bad = await run.avp(['report', '--since', 'yesterday-ish']);
    expect(bad.code).toBe(2);
    const folder = await run.avp(['report', '--out', '.avp']);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toContain('report.html');
  });

  test('HTML in the log (validator and file names) is shown as text and runs nothing', async () => {
    const p = project();
    mkdirSync(join(p.root, '.avp/logs'), { recursive: true });
    const ts = new Date().toISOString();
    const evilFile = '<img src=x onerror=alert(1)>.ts';
    const evilName = '</title><script>alert(2)</script>';
    appendFileSync(
      join(p.root, `.avp/logs/hook-${ts.slice(0, 10)}.jsonl`),
      `${JSON.stringify({
        ts,
        validator: evilName,
        severity: 'error',
        status: 'failed',
        durationMs: 40,
        files: [evilFile],
        details: [{ rule: 'x', file: evilFile }],
        call: 'c1',
      })}\n`,
    );
    const { runAvp } = await import('../support/run-avp.ts');
    const { BIN } = await import('./hook-support.ts');
    const r = await runAvp(['report', '--out', 'r.html'], {
      bin: BIN,
      cwd: p.root,
      env: { HOME: p.home, AVP_HOME: join(p.home, '.avp') },
    });
    expect(r.code).toBe(0);
    const html = readFileSync(join(p.root, 'r.html'), 'utf8');
    expect(html).not.toMatch(/<script|<img/i);
    const page = await render(join(p.root, 'r.html'));
    expect(page.dialogs).toBe(0);
    expect(page.text).toContain(evilFile);
    expect(page.marks.files).toBe(1);
  }, 60_000);

  test('a two-week log (the real run’s lines replayed over 14 days) draws every day', async () => {
    const p = project();
    const logs = join(p.root, '.avp/logs');
    mkdirSync(logs, { recursive: true });
    const src = join(run.p.root, '.avp/logs');
    const real = readdirSync(src)
      .filter((n) => n.startsWith('hook-'))
      .flatMap((n) => readFileSync(join(src, n), 'utf8').trim().split('\n'))
      .map((l) => JSON.parse(l));
    const day0 = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`) - 13 * 86_400_000;
    for (let d = 0; d < 14; d++) {
      const lines: string[] = [];
      const calls: string[] = [];
      // A working day's worth of sessions, busier mid-week; latency drifts with the day.
      const sessions = 3 + ((d * 7) % 5);
      for (let s = 0; s < sessions; s++) {
        const t = day0 + d * 86_400_000 + (9 + s) * 3_600_000;
        for (const l of real) {
          const ts = new Date(t + (l.call.charCodeAt(l.call.length - 1) % 20) * 60_000).toISOString();
          const call = `${l.call}-${d}-${s}`;
          const factor = 1 + ((d * 13 + s * 7 + l.validator.length) % 10) / 4;
          lines.push(JSON.stringify({ ...l, ts, call, durationMs: Math.round(l.durationMs * factor * 20) }));
        }
        for (let c = 0; c < 6; c++)
          calls.push(JSON.stringify({ ts: new Date(t).toISOString(), event: 'PostToolUse', call: `x-${d}-${s}-${c}` }));
      }
      const day = new Date(day0 + d * 86_400_000).toISOString().slice(0, 10);
      writeFileSync(join(logs, `hook-${day}.jsonl`), `${lines.join('\n')}\n`);
      writeFileSync(join(logs, `calls-${day}.jsonl`), `${calls.join('\n')}\n`);
    }
    const { runAvp } = await import('../support/run-avp.ts');
    const { BIN } = await import('./hook-support.ts');
    const r = await runAvp(['report', '--out', 'r.html'], {
      bin: BIN,
      cwd: p.root,
      env: { HOME: p.home, AVP_HOME: join(p.home, '.avp') },
    });
    expect(r.code).toBe(0);
    const shot = join(ARTIFACTS, 'report-two-weeks.png');
    const page = await render(join(p.root, 'r.html'), shot);
    expect(page.marks.cost).toBe(14);
    expect(page.marks.blocks).toBe(28);
    expect(page.marks.latency).toBeGreaterThan(14 * 11);
    if (process.env.AVP_UPDATE_SCREENSHOT === '1' && existsSync(shot))
      copyFileSync(shot, resolve(import.meta.dir, '../../docs/img/report.png'));
  }, 60_000);
});
