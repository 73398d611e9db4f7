import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { SQL } from 'bun';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderMarkdown, safeHref } from '../../registry/pages/markdown.ts';
import { serveStaticExport } from '../../registry/static-server.ts';
import { runAvp, tempDir } from '../support/run-avp.ts';
import { api, startServerProcess, type ServerProcess } from './registry-server-support.ts';
import { activeContent, publishWebFixtures } from './registry-web-support.ts';

setDefaultTimeout(60_000);

/** The registry's web pages, read as a browser without JavaScript would: server-rendered HTML, its headers, links. */
const page = async (url: string) => {
  const res = await fetch(url, { headers: { accept: 'text/html' } });
  return { status: res.status, html: await res.text(), headers: res.headers };
};

describe('registry web pages (served)', () => {
  let srv: ServerProcess;
  const data = tempDir('avp-web-data-');

  beforeAll(async () => {
    srv = await startServerProcess({ data });
    await publishWebFixtures(srv, data);
  });
  afterAll(async () => {
    await srv?.stop();
  });

  test('GET / is the home page for a browser and stays the JSON index for API clients', async () => {
    const home = await page(`${srv.url}/`);
    expect(home.status).toBe(200);
    expect(home.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(home.html).toContain('<label class="sr-only" for="q">Search validators</label>');
    expect(home.html).toContain('href="/packages/secret-scan/"');
    expect(home.html).toContain('2 packages');
    const apiIndex = await api(srv.url, '/');
    expect(apiIndex.body).toMatchObject({ name: 'avp registry', api: '/api/packages' });
  });

  test('every page forbids inline script and framing', async () => {
    for (const path of ['/', '/packages/secret-scan/', '/packages/secret-scan/1.0.0/', '/owners/alice/', '/nope']) {
      const { headers } = await page(`${srv.url}${path}`);
      const csp = headers.get('content-security-policy') ?? '';
      expect([path, csp]).toEqual([path, expect.stringContaining("script-src 'self'")]);
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  test('search by name, description and tag, without JavaScript (a form GET)', async () => {
    const byName = await page(`${srv.url}/?q=secret`);
    expect(byName.html).toContain('>secret-scan</a>');
    expect(byName.html).not.toContain('>injection</a>');
    expect(byName.html).toContain('value="secret"');
    const byDescription = await page(`${srv.url}/?q=private+keys`);
    expect(byDescription.html).toContain('>secret-scan</a>');
    const byTag = await page(`${srv.url}/?q=secrets`);
    expect(byTag.html).toContain('>secret-scan</a>');
    const none = await page(`${srv.url}/?q=zzzz`);
    expect(none.html).toContain('Nothing matches');
    expect(none.html).toContain('0 packages');
    // the query is echoed escaped
    const hostile = await page(`${srv.url}/?q=${encodeURIComponent('"><script>alert(1)</script>')}`);
    expect(activeContent(hostile.html)).toEqual([]);
    expect(hostile.html).toContain('&#34;&#62;&#60;script&#62;');
  });

  test('the package page: description, markdown, trigger/severity/match, versions, install, integrity, owners, files', async () => {
    const { status, html } = await page(`${srv.url}/packages/secret-scan`);
    expect(status).toBe(200);
    expect(html).toContain('<h1>secret-scan <span class="badge">1.2.0</span></h1>');
    expect(html).toContain('Blocks commits that add API keys, tokens or private keys');
    // markdown rendered, headings below the page's own
    expect(html).toContain('<h3>Secret scan</h3>');
    expect(html).toContain('<strong>credentials</strong>');
    expect(html).toContain('<a href="https://owasp.org/" rel="nofollow noopener noreferrer ugc">OWASP</a>');
    expect(html).toContain('<code class="language-ts">');
    // at a glance
    expect(html).toContain('<dt>Trigger</dt><dd><code>PreToolUse</code></dd>');
    expect(html).toContain('<dt>Severity</dt><dd><code>error</code></dd>');
    expect(html).toContain('<dt>Tools</dt><dd><code>Write</code> <code>Edit</code></dd>');
    expect(html).toContain('<code>src/**/*.ts</code> <code>*.env</code>');
    // install, with the registry it came from
    expect(html).toContain(`<code id="install-cmd">avp add secret-scan --registry ${srv.url}</code>`);
    expect(html).toContain('data-copy="install-cmd"');
    // versions: yanked marked, prerelease listed, latest flagged
    expect(html).toMatch(
      /href="\/packages\/secret-scan\/1\.1\.0\/">1\.1\.0<\/a><\/td><td><time[^>]*>[\d-]+<\/time><\/td><td><span class="badge yanked">yanked<\/span>/,
    );
    expect(html).toContain('href="/packages/secret-scan/2.0.0-beta.1/"');
    expect(html).toContain('1.2.0</a> <span class="badge">latest</span>');
    // facts
    const meta = (await api(srv.url, '/api/packages/secret-scan/1.2.0')).body;
    expect(html).toContain(`<code>${meta.integrity}</code>`);
    expect(html).toContain(`(${meta.size} bytes)`);
    expect(html).toContain('<a href="/owners/alice/">alice</a>');
    expect(html).toContain(`<time datetime="${meta.publishedAt}">${meta.publishedAt.slice(0, 10)}</time>`);
    expect(html).toContain('<dt>License</dt><dd>MIT</dd>');
    expect(html).toContain('<dt>Author</dt><dd>Security Team</dd>');
    for (const f of ['README.md', 'VALIDATOR.md', 'references/rules.md']) expect(html).toContain(`<code>${f}</code>`);
    expect(html).toContain('<a href="/?q=security">#security</a>');
  });

  test('a page per version; a yanked one says so and installs by exact version', async () => {
    const one = await page(`${srv.url}/packages/secret-scan/1.0.0/`);
    expect(one.html).toContain('<code id="install-cmd">avp add secret-scan@1.0.0 --registry');
    expect(one.html).not.toContain('class="notice"');
    const yanked = await page(`${srv.url}/packages/secret-scan/1.1.0`);
    expect(yanked.status).toBe(200);
    expect(yanked.html).toContain('This version is yanked: new installs get 1.2.0');
    expect(yanked.html).toContain('avp add secret-scan@1.1.0');
    const missing = await page(`${srv.url}/packages/secret-scan/9.9.9`);
    expect(missing.status).toBe(404);
    expect(missing.html).toContain('secret-scan has no version 9.9.9.');
  });

  test("an owner's page lists what they own; unknown names are 404 pages", async () => {
    const owner = await page(`${srv.url}/owners/alice`);
    expect(owner.html).toContain('<h1>alice</h1>');
    expect(owner.html).toContain('Owner of 2 packages.');
    expect((await page(`${srv.url}/owners/nobody-here`)).status).toBe(404);
    const unknown = await page(`${srv.url}/packages/no-such-thing`);
    expect(unknown.status).toBe(404);
    expect(unknown.html).toContain('No package named no-such-thing is published here.');
  });

  test('a package whose every field tries to inject renders inert text', async () => {
    const { html } = await page(`${srv.url}/packages/injection/`);
    expect(activeContent(html)).toEqual([]);
    expect(html).toContain("<h3>Harmless title &lt;script&gt;window.__pwned = 'script'&lt;/script&gt;</h3>");
    expect(html).toContain("[click me](javascript:window.__pwned='link')");
    expect(html).toContain('<dd>&#60;script&#62;window.__pwned=&#39;author&#39;&#60;/script&#62;</dd>');
    expect(html).toContain('<a href="https://example.com/docs" rel="nofollow noopener noreferrer ugc">a fine link</a>');
    for (const path of ['/', '/?q=injection', '/owners/alice/', '/packages/injection/6.6.6/'])
      expect([path, activeContent((await page(`${srv.url}${path}`)).html)]).toEqual([path, []]);
  });

  test('assets: the stylesheet and scripts with their types; nothing else under /assets', async () => {
    const css = await fetch(`${srv.url}/assets/registry.css`);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(await css.text()).toContain('prefers-color-scheme:dark');
    const js = await fetch(`${srv.url}/assets/copy.js`);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await fetch(`${srv.url}/assets/..%2Fregistry.db`)).status).toBe(404);
    expect((await fetch(`${srv.url}/assets/nope.js`)).status).toBe(404);
  });

  test('versions published before facts were recorded get them from the archive on first view', async () => {
    const db = new SQL(`sqlite://${join(data, 'registry.db')}`);
    try {
      await db`UPDATE versions SET facts = NULL WHERE name = 'secret-scan' AND version = '1.0.0'`;
      const { html } = await page(`${srv.url}/packages/secret-scan/1.0.0/`);
      expect(html).toContain('<dt>Trigger</dt><dd><code>PreToolUse</code></dd>');
      expect(html).toContain('<code>references/rules.md</code>');
      const [row] = await db`SELECT facts FROM versions WHERE name = 'secret-scan' AND version = '1.0.0'`;
      expect(JSON.parse(row.facts).trigger).toBe('PreToolUse');
    } finally {
      await db.close();
    }
  });
});

describe('links in package markdown', () => {
  const refused = [
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    'java\nscript:alert(1)',
    '\u0001javascript:alert(1)',
    'javascript&#58;alert(1)',
    'javascript&colon;alert(1)',
    'jav&#x09;ascript:alert(1)',
    'javascript%3aalert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    '//evil.example/x',
    '\\\\evil.example/x',
    '/\\evil.example/x',
    'mailto:someone@example.com',
  ];
  const kept = [
    'https://example.com/a?b#c',
    'http://example.com',
    '#usage',
    '/packages/x/',
    './references/x.md',
    'x/y.md',
  ];

  test('only http(s), same-page and relative URLs become links', () => {
    for (const url of refused) expect([url, safeHref(url)]).toEqual([url, false]);
    for (const url of kept) expect([url, safeHref(url)]).toEqual([url, true]);
  });

  test('refused URLs never become a link that leaves for another scheme or origin', () => {
    for (const url of refused) {
      const html = renderMarkdown(`[x](${url}) <${url}> ![y](${url})`);
      // markdown-it percent-encodes what it keeps (a backslash becomes %5C: a path segment, not a slash)
      for (const [, href] of html.matchAll(/href="([^"]*)"/g))
        expect([url, href, safeHref(href!) && !/^[a-z][a-z0-9+.-]*:/i.test(href!)]).toEqual([url, href, true]);
    }
  });
});

describe('registry web pages (static export)', () => {
  let srv: ServerProcess;
  let stat: { url: string; stop(): Promise<void> };
  const data = tempDir('avp-web-export-data-');
  const out = join(tempDir('avp-web-export-'), 'site');

  beforeAll(async () => {
    srv = await startServerProcess({ data });
    await publishWebFixtures(srv, data);
    const r = await runAvp(['registry', 'export', out, '--data', data, '--base-url', 'https://cdn.example.test/avp']);
    if (r.code !== 0) throw new Error(r.stderr);
    stat = serveStaticExport(out);
  });
  afterAll(async () => {
    await srv?.stop();
    await stat?.stop();
  });

  test('export writes the pages beside the API, with links under the base URL path', async () => {
    for (const f of [
      'index.html',
      '404.html',
      'packages/secret-scan/index.html',
      'packages/secret-scan/1.1.0/index.html',
      'packages/injection/6.6.6/index.html',
      'owners/alice/index.html',
      'assets/registry.css',
      'assets/copy.js',
      'assets/search.js',
      'api/packages/index.json',
    ])
      expect([f, existsSync(join(out, f))]).toEqual([f, true]);
    const home = readFileSync(join(out, 'index.html'), 'utf8');
    expect(home).toContain('href="/avp/packages/secret-scan/"');
    expect(home).toMatch(/<script src="\/avp\/assets\/search\.js\?v=[0-9a-f]+" defer>/);
    expect(home).toContain('data-search="secret-scan blocks commits');
    // a static host cannot set headers for us: the policy travels in the page
    expect(home).toContain('<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;');
    const pkg = readFileSync(join(out, 'packages/secret-scan/index.html'), 'utf8');
    expect(pkg).toContain('avp add secret-scan --registry https://cdn.example.test/avp');
  });

  test('a static file server answers the pages; the hostile package is inert there too', async () => {
    const home = await page(`${stat.url}/`);
    expect(home.status).toBe(200);
    expect(home.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const pkg = await page(`${stat.url}/packages/secret-scan/`);
    expect(pkg.html).toContain('<dt>Trigger</dt><dd><code>PreToolUse</code></dd>');
    const css = await fetch(`${stat.url}/assets/registry.css`);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    for (const f of ['index.html', 'packages/injection/index.html', 'packages/injection/6.6.6/index.html'])
      expect([f, activeContent(readFileSync(join(out, f), 'utf8'))]).toEqual([f, []]);
    // the API still answers from the same export
    expect((await api(stat.url, '/api/packages/secret-scan')).body.latest).toBe('1.2.0');
  });
});
