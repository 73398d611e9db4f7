/**
 * The pages' one stylesheet and two small scripts, served from `/assets/` (the CSP allows scripts and styles from
 * the registry's own origin only, never inline). Everything works without them: the copy button stays hidden, and
 * the static export's home lists every package instead of filtering as you type.
 */
export const STYLE_CSS = `:root{color-scheme:light dark;--bg:#fff;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--panel:#f6f8fa;
--link:#0550ae;--accent:#0a6b36;--warn:#9a3412;--warnbg:#fff1e6;--focus:#0969da}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9da7b3;--line:#30363d;--panel:#161b22;
--link:#79c0ff;--accent:#56d364;--warn:#ffa657;--warnbg:#2d1a0b;--focus:#58a6ff}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.55 system-ui,-apple-system,"Segoe UI",sans-serif}
a{color:var(--link)}a:focus-visible,button:focus-visible,input:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
header.site,main,footer{max-width:64rem;margin:0 auto;padding:0 1rem}
header.site{display:flex;gap:1rem;align-items:center;justify-content:space-between;flex-wrap:wrap;padding-top:1rem;padding-bottom:1rem;border-bottom:1px solid var(--line)}
header.site .brand{font-weight:700;font-size:1.15rem;text-decoration:none;color:var(--fg)}
form.search{display:flex;gap:.5rem;flex:1;max-width:32rem}
form.search input{flex:1;min-width:0;padding:.45rem .6rem;font:inherit;color:var(--fg);background:var(--bg);border:1px solid var(--muted);border-radius:6px}
button{font:inherit;padding:.45rem .9rem;border-radius:6px;border:1px solid var(--muted);background:var(--panel);color:var(--fg);cursor:pointer}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
h1{font-size:1.8rem;margin:1.5rem 0 .25rem}h2{font-size:1.25rem;margin:2rem 0 .6rem;padding-bottom:.3rem;border-bottom:1px solid var(--line)}
.muted{color:var(--muted)}.badge{display:inline-block;font-size:.8rem;padding:.05rem .5rem;border:1px solid var(--line);border-radius:99px;background:var(--panel);color:var(--fg)}
.badge.yanked{color:var(--warn);border-color:var(--warn);background:var(--warnbg)}
.notice{padding:.6rem .8rem;border:1px solid var(--warn);background:var(--warnbg);border-radius:6px}
ul.packages{list-style:none;padding:0;margin:0}ul.packages li{padding:.9rem 0;border-bottom:1px solid var(--line)}
ul.packages li a.name{font-weight:600;font-size:1.05rem}ul.packages p{margin:.2rem 0}
.tags a{margin-right:.35rem;font-size:.85rem}
.grid{display:grid;grid-template-columns:minmax(0,1fr) 18rem;gap:2rem}@media (max-width:50rem){.grid{grid-template-columns:1fr}}
dl.facts{display:grid;grid-template-columns:auto 1fr;gap:.3rem 1rem;margin:0}dl.facts dt{color:var(--muted)}dl.facts dd{margin:0;overflow-wrap:anywhere}
aside dl.facts{grid-template-columns:1fr}aside dl.facts dd{margin-bottom:.5rem}
.install{display:flex;gap:.5rem;align-items:stretch;margin:1rem 0}
pre,code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
pre{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:.6rem .8rem;overflow:auto;margin:0}
.install pre{flex:1}code{background:var(--panel);padding:.1rem .3rem;border-radius:4px}pre code{background:none;padding:0}
.markdown{overflow-wrap:anywhere}.markdown h3{font-size:1.15rem}.markdown h4,.markdown h5,.markdown h6{font-size:1rem}.markdown table{border-collapse:collapse}.markdown td,.markdown th{border:1px solid var(--line);padding:.3rem .5rem}
table.versions{border-collapse:collapse;width:100%}table.versions th,table.versions td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid var(--line)}
footer{margin-top:3rem;padding-top:1rem;padding-bottom:2rem;border-top:1px solid var(--line);color:var(--muted);font-size:.9rem}
[hidden]{display:none!important}`;

/** Wires every `button[data-copy]` to copy the text of the element it names, and says so to screen readers. */
export const COPY_JS = `'use strict';
for (const button of document.querySelectorAll('button[data-copy]')) {
  const source = document.getElementById(button.dataset.copy);
  const status = document.getElementById(button.dataset.status || '');
  if (!source) continue;
  button.hidden = false;
  button.addEventListener('click', async () => {
    const text = source.textContent.trim();
    let said = 'Copied';
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      const range = document.createRange();
      range.selectNodeContents(source);
      const selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      said = 'Selected: press Ctrl+C';
    }
    button.textContent = said;
    if (status) status.textContent = said === 'Copied' ? 'Install command copied to the clipboard' : said;
    setTimeout(() => { button.textContent = 'Copy'; }, 2000);
  });
}
`;

/** The static export's search: filters the listed packages by the words typed (or the ?q= the form submitted). */
export const SEARCH_JS = `'use strict';
const input = document.getElementById('q');
const items = [...document.querySelectorAll('li[data-search]')];
const count = document.getElementById('count');
function apply() {
  const words = input.value.toLowerCase().split(/\\s+/).filter(Boolean);
  let shown = 0;
  for (const li of items) {
    const hit = words.every((w) => li.dataset.search.includes(w));
    li.hidden = !hit;
    if (hit) shown++;
  }
  if (count) count.textContent = shown + (shown === 1 ? ' package' : ' packages');
}
if (input) {
  input.value = new URLSearchParams(location.search).get('q') || input.value;
  input.addEventListener('input', apply);
  apply();
}
`;

/** name → [content type, body]; URLs carry a digest of the body so a changed asset is never served stale. */
export const ASSETS: Record<string, { type: string; body: string }> = {
  'registry.css': { type: 'text/css; charset=utf-8', body: STYLE_CSS },
  'copy.js': { type: 'text/javascript; charset=utf-8', body: COPY_JS },
  'search.js': { type: 'text/javascript; charset=utf-8', body: SEARCH_JS },
};

const digests = new Map<string, string>();

/** `assets/<name>?v=<digest>` (relative to the site root). */
export function assetPath(name: string): string {
  let d = digests.get(name);
  if (!d) {
    d = new Bun.CryptoHasher('sha256').update(ASSETS[name]!.body).digest('hex').slice(0, 12);
    digests.set(name, d);
  }
  return `assets/${name}?v=${d}`;
}
