import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { tempDir } from '../support/run-avp.ts';
import { startServerProcess, type ServerProcess } from '../integration/registry-server-support.ts';
import { publishWebFixtures } from '../integration/registry-web-support.ts';

// A real browser, a real server process, on a shared 2-core machine: generous budgets.
setDefaultTimeout(120_000);

/**
 * The registry's pages in Chromium from the distribution's packages (`apt-get install chromium`; scripts/test.sh
 * installs it when missing), driven by playwright-core: search → package page → copy the install command; a hostile
 * package renders inert (no script runs, nothing is fetched from elsewhere); light and dark schemes are readable.
 * Screenshots go to test/artifacts/registry-browser/; `docs/img/registry-package.png` (the README's) is written when
 * missing or with AVP_UPDATE_SCREENSHOTS=1.
 */
const CHROMIUM = '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const ARTIFACTS = resolve(import.meta.dir, '../artifacts/registry-browser');
const README_SHOT = resolve(import.meta.dir, '../../docs/img/registry-package.png');
const PUBLIC = 'https://registry.example.com';

let browser: Browser;
let srv: ServerProcess;
let beacon: ReturnType<typeof Bun.serve>;
const beaconHits: string[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: apt-get install chromium (scripts/test.sh does it when run as root)`);
  }
  mkdirSync(ARTIFACTS, { recursive: true });
  beacon = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(req) {
      beaconHits.push(new URL(req.url).pathname);
      return new Response('', { status: 204 });
    },
  });
  const data = tempDir('avp-browser-data-');
  // --base-url: the install command names the public address, as it would behind a proxy
  srv = await startServerProcess({ data, baseUrl: PUBLIC });
  await publishWebFixtures(srv, data, { beacon: `http://127.0.0.1:${beacon.port}` });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await srv?.stop();
  await beacon?.stop(true);
});

async function newPage(opts: { javaScriptEnabled?: boolean; colorScheme?: 'light' | 'dark' } = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, ...opts });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: srv.url });
  return context.newPage();
}

/** WCAG contrast ratio of two `rgb(r, g, b)` colours. */
function contrast(a: string, b: string): number {
  const lum = (c: string) => {
    const [r, g, bl] = (c.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((x) => {
      const v = Number(x) / 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

describe('the registry in a browser', () => {
  test('search → package page → copy the install command', async () => {
    const page = await newPage();
    await page.goto(`${srv.url}/`);
    await page.getByLabel('Search validators').fill('secret');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\?q=secret/);
    await page.getByRole('link', { name: 'secret-scan', exact: true }).click();
    await page.waitForURL(/\/packages\/secret-scan\/$/);
    expect(await page.locator('h1').innerText()).toBe('secret-scan 1.2.0');
    const command = `avp add secret-scan --registry ${PUBLIC}`;
    expect(await page.locator('#install-cmd').innerText()).toBe(command);
    const copy = page.getByRole('button', { name: 'Copy' });
    await copy.click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(command);
    expect(await page.locator('#copy-status').innerText()).toBe('Install command copied to the clipboard');
    await page.screenshot({ path: join(ARTIFACTS, 'package-light.png'), fullPage: true });
    if (!existsSync(README_SHOT) || process.env.AVP_UPDATE_SCREENSHOTS === '1')
      await page.screenshot({ path: README_SHOT });
    await page.context().close();
  });

  test('a package whose markdown tries script injection renders inert: no script ran, nothing was fetched', async () => {
    const page = await newPage();
    const dialogs: string[] = [];
    const requests: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(`${srv.url}/packages/injection/`);
    await page.waitForLoadState('networkidle');
    // our own script ran (the copy button is shown), so a script from the package could have — and did not
    expect(await page.getByRole('button', { name: 'Copy' }).isVisible()).toBe(true);
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(beaconHits).toEqual([]);
    expect(requests.filter((u) => !u.startsWith(srv.url))).toEqual([]);
    const protocols = (await page.evaluate('[...document.links].map((a) => a.protocol)')) as string[];
    expect([...new Set(protocols)].sort()).toEqual(['http:', 'https:']);
    expect(await page.locator('main img, main iframe, main svg, main style, main form').count()).toBe(0);
    expect(await page.locator('h1').count()).toBe(1);
    // the text is there, as text
    expect(await page.locator('.markdown h3').innerText()).toContain("<script>window.__pwned = 'script'</script>");
    // and clicking what looks like a link runs nothing either
    await page.getByText('[click me]').click();
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
    await page.screenshot({ path: join(ARTIFACTS, 'injection.png'), fullPage: true });
    await page.context().close();
  });

  test('without JavaScript: search and the install command still work; the copy button stays hidden', async () => {
    const page = await newPage({ javaScriptEnabled: false });
    await page.goto(`${srv.url}/`);
    await page.getByLabel('Search validators').fill('private keys');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/\?q=private/);
    await page.getByRole('link', { name: 'secret-scan', exact: true }).click();
    expect(await page.locator('#install-cmd').innerText()).toContain('avp add secret-scan');
    expect(await page.getByRole('button', { name: 'Copy' }).count()).toBe(0);
    await page.context().close();
  });

  for (const scheme of ['light', 'dark'] as const) {
    test(`${scheme} scheme: text, muted text and links keep a 4.5:1 contrast`, async () => {
      const page = await newPage({ colorScheme: scheme });
      await page.goto(`${srv.url}/packages/secret-scan/1.1.0/`);
      // (a string: it runs in the page, where the DOM is)
      const colours = (await page.evaluate(`(() => {
        const of = (sel) => getComputedStyle(document.querySelector(sel)).color;
        return { bg: getComputedStyle(document.body).backgroundColor, text: of('main p'),
          muted: of('dl.facts dt'), link: of('main a'), warn: of('.notice') };
      })()`)) as Record<string, string>;
      for (const [name, colour] of Object.entries(colours)) {
        if (name === 'bg') continue;
        expect([name, contrast(colour, colours.bg!) >= 4.5]).toEqual([name, true]);
      }
      await page.screenshot({ path: join(ARTIFACTS, `yanked-version-${scheme}.png`), fullPage: true });
      await page.context().close();
    });
  }
});
