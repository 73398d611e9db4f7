import { createToken, publishZip, zipOf, type ServerProcess } from './registry-server-support.ts';

/**
 * The packages the web page tests publish: a well-described validator with several versions (one yanked), a README,
 * a reference file and tags; and a hostile one whose every field and markdown line tries to get script, event
 * handlers, `javascript:` URLs, raw HTML or a third-party request onto the page. `beacon` is a URL the hostile
 * markdown points at: any request reaching it means something loaded.
 */
export function goodValidator(version: string): Record<string, string> {
  return {
    'VALIDATOR.md': `---
name: secret-scan
description: Blocks commits that add API keys, tokens or private keys
severity: error
trigger: PreToolUse
match:
  tools: [Write, Edit]
  files: ["src/**/*.ts", "*.env"]
tags: [security, secrets]
license: MIT
metadata:
  version: "${version}"
  author: Security Team
---

# Secret scan

Look at the change for **credentials**: API keys, tokens, private keys.

- Report each finding with its line.
- See [the rules](references/rules.md) and [OWASP](https://owasp.org/).

\`\`\`ts
const key = process.env.API_KEY; // fine
\`\`\`
`,
    'README.md': '# secret-scan\n\nA readme.\n',
    'references/rules.md': '# Rules\n',
  };
}

export function hostileValidator(beacon: string): Record<string, string> {
  return {
    'VALIDATOR.md': `---
name: injection
description: "Looks harmless <img src=x onerror=\\"window.__pwned='description'\\"> <script>window.__pwned='desc'</script>"
severity: warn
trigger: PostToolUse
match:
  files: ["<script>window.__pwned='match'</script>"]
tags: [security]
metadata:
  version: "6.6.6"
  author: "<script>window.__pwned='author'</script>"
---

# Harmless title <script>window.__pwned = 'script'</script>

<img src="${beacon}/img" onerror="window.__pwned='onerror'">

<svg onload="window.__pwned='svg'"></svg>

<iframe src="javascript:window.__pwned='iframe'"></iframe>

<style>body{display:none}</style>

<meta http-equiv="refresh" content="0;url=${beacon}/refresh">

<form action="${beacon}/form"><button>go</button></form>

[click me](javascript:window.__pwned='link')
[tabbed](java\tscript:window.__pwned='tab')
[upper](JAVASCRIPT:window.__pwned='upper')
[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)
<a href="&#106;avascript:window.__pwned='entity'">entity</a>
[vb](vbscript:msgbox(1))
[proto-relative](//${beacon.replace(/^https?:\/\//, '')}/proto)
<a href="javascript:window.__pwned='raw'">raw link</a>

![pixel](${beacon}/pixel.gif)

[a fine link](https://example.com/docs)
`,
  };
}

/** Publishes secret-scan 1.0.0, 1.1.0 and 2.0.0-beta.1 then yanks 1.1.0; and injection@6.6.6. */
export async function publishWebFixtures(
  srv: ServerProcess,
  data: string,
  opts: { db?: string; beacon?: string } = {},
): Promise<{ token: string }> {
  const { token } = await createToken(data, 'alice', { db: opts.db });
  for (const v of ['1.0.0', '1.1.0', '2.0.0-beta.1', '1.2.0']) {
    const r = await publishZip(srv.url, zipOf('secret-scan', goodValidator(v)), token);
    if (r.status !== 201) throw new Error(`publish secret-scan@${v}: ${JSON.stringify(r.body)}`);
  }
  const yank = await fetch(`${srv.url}/api/packages/secret-scan/1.1.0`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${token}` },
  });
  if (yank.status !== 200) throw new Error(`yank: ${yank.status}`);
  const bad = await publishZip(
    srv.url,
    zipOf('injection', hostileValidator(opts.beacon ?? 'http://127.0.0.1:9')),
    token,
  );
  if (bad.status !== 201) throw new Error(`publish injection: ${JSON.stringify(bad.body)}`);
  return { token };
}

/** Problems of an HTML page that would let package content act: scripts, handlers, unsafe URLs, raw tags. */
export function activeContent(html: string): string[] {
  const problems: string[] = [];
  for (const m of html.matchAll(/<script\b[^>]*>/gi))
    if (!/^<script src="[^"]*\/assets\/(copy|search)\.js\?v=[0-9a-f]+" defer><\/script>$/.test(`${m[0]}</script>`))
      problems.push(`script tag ${m[0]}`);
  if (/<script\b[^>]*>[^<]+<\/script>/i.test(html)) problems.push('inline script');
  // Attribute names only: a quoted value (escaped text, where `"` is always &#34;) cannot hold an attribute.
  const tags = html.replace(/="[^"]*"/g, '=""');
  for (const m of tags.matchAll(/<[a-z][^>]*\son[a-z]+\s*=/gi)) problems.push(`event handler in ${m[0]}`);
  for (const m of html.matchAll(/\s(?:href|src|action)\s*=\s*"([^"]*)"/gi)) {
    const url = m[1]!.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)));
    if (!/^(https?:\/\/|\/(?!\/)|#|\.{0,2}\/?[a-z0-9])/i.test(url) || /^[a-z]+script:|^data:/i.test(url.trim()))
      problems.push(`unsafe URL ${m[1]}`);
  }
  for (const tag of ['img', 'iframe', 'svg', 'style', 'object', 'embed', 'base'])
    if (new RegExp(`<${tag}\\b`, 'i').test(html)) problems.push(`<${tag}> element`);
  if (/<meta[^>]*http-equiv="refresh"/i.test(html)) problems.push('meta refresh');
  if (/<form\b(?![^>]*class="search")/i.test(html)) problems.push('a form other than the search form');
  return problems;
}
