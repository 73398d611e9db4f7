import { DEFAULT_REGISTRY_URL } from '../../src/config/config.ts';
import { formatBytes } from '../body.ts';
import type { Facts } from '../facts.ts';
import { testsLine } from '../../src/registry-client/version-tests.ts';
import type { PackageRow, VersionRow } from '../store.ts';
import { date, esc, href, layout, type Site } from './html.ts';
import { renderMarkdown } from './markdown.ts';

/** Everything the package and version pages show. */
export interface PackageView {
  pkg: PackageRow;
  /** Newest first, yanked ones included (marked). */
  versions: VersionRow[];
  owners: string[];
  /** The version the page is about: the latest, a requested one, or the newest when every version is yanked. */
  shown: VersionRow;
  facts: Facts;
}

/** `avp add name[@version]`, with `--registry` unless this is the public registry (the client's default). */
export function installCommand(site: Site, name: string, version?: string): string {
  const spec = version ? `${name}@${version}` : name;
  return site.base.replace(/\/+$/, '') === DEFAULT_REGISTRY_URL
    ? `avp add ${spec}`
    : `avp add ${spec} --registry ${site.base}`;
}

function list(values: string[] | undefined, none: string): string {
  return values?.length ? values.map((v) => `<code>${esc(v)}</code>`).join(' ') : `<span class="muted">${none}</span>`;
}

/** The version's cases: the publisher's report (the registry runs no uploaded code), said so next to it. */
function testsCell(f: Facts): string {
  const line = esc(testsLine(f.tests));
  const reported = f.tests?.cases !== undefined;
  return reported
    ? `${line} <span class="muted">— reported by the publisher's avp publish, not run by this registry</span>`
    : line;
}

function glance(f: Facts): string {
  const rows: Array<[string, string]> = [
    ['Trigger', f.trigger ? `<code>${esc(f.trigger)}</code>` : '<span class="muted">unknown</span>'],
    ['Severity', f.severity ? `<code>${esc(f.severity)}</code>` : '<span class="muted">unknown</span>'],
    ['Tools', list(f.match.tools, 'any tool')],
    ['Files', list(f.match.files, 'any file')],
  ];
  if (f.triggerMatcher) rows.push(['Trigger matcher', `<code>${esc(f.triggerMatcher)}</code>`]);
  if (f.once) rows.push(['Once', 'runs once per session']);
  if (f.timeout) rows.push(['Timeout', `${esc(f.timeout)} s`]);
  rows.push(['Tests', testsCell(f)]);
  return `<dl class="facts">${rows.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('')}</dl>`;
}

function install(site: Site, name: string, version?: string): string {
  return `<div class="install"><pre aria-labelledby="install-label"><code id="install-cmd">${esc(installCommand(site, name, version))}</code></pre>
<button type="button" data-copy="install-cmd" data-status="copy-status" hidden>Copy</button></div>
<p id="copy-status" class="sr-only" role="status" aria-live="polite"></p>`;
}

function sidebar(site: Site, v: PackageView): string {
  const s = v.shown;
  const owners = v.owners.map((o) => `<a href="${esc(href(site, 'owners', o))}">${esc(o)}</a>`).join(', ');
  const tags = s.tags.map((t) => `<a href="${esc(`${site.root}/?q=${encodeURIComponent(t)}`)}">#${esc(t)}</a>`);
  const rows: Array<[string, string]> = [
    ['Version', `${esc(s.version)}${s.yanked ? ' <span class="badge yanked">yanked</span>' : ''}`],
    ['Published', `${date(s.published_at)} by ${esc(s.published_by)}`],
    ['Author', esc(s.author)],
    ['License', s.license ? esc(s.license) : '<span class="muted">not stated</span>'],
    ['Size', `${esc(formatBytes(s.size))} (${esc(s.size)} bytes)`],
    ['Integrity', `<code>${esc(s.integrity)}</code>`],
    ['Owners', owners || '<span class="muted">none</span>'],
    ['Downloads', esc(v.pkg.downloads)],
  ];
  if (tags.length) rows.push(['Tags', `<span class="tags">${tags.join(' ')}</span>`]);
  return `<aside aria-label="Package facts"><dl class="facts">${rows.map(([k, x]) => `<dt>${k}</dt><dd>${x}</dd>`).join('')}</dl></aside>`;
}

function versionsTable(site: Site, v: PackageView): string {
  const rows = v.versions.map(
    (x) =>
      `<tr><td><a href="${esc(href(site, 'packages', x.name, x.version))}">${esc(x.version)}</a>${x.version === v.pkg.latest ? ' <span class="badge">latest</span>' : ''}</td>` +
      `<td>${date(x.published_at)}</td><td>${x.yanked ? `<span class="badge yanked">yanked</span> ${date(x.yanked_at)}` : ''}</td></tr>`,
  );
  return `<table class="versions"><thead><tr><th scope="col">Version</th><th scope="col">Published</th><th scope="col">Status</th></tr></thead>
<tbody>${rows.join('')}</tbody></table>`;
}

function filesList(f: Facts): string {
  if (!f.files.length) return '<p class="muted">The file list is not available.</p>';
  return `<ul>${f.files.map((x) => `<li><code>${esc(x.path)}</code> <span class="muted">${esc(formatBytes(x.size))}</span></li>`).join('')}</ul>`;
}

/** The package page (`versionPage` false) or the page of one version. */
export function packagePage(site: Site, v: PackageView, versionPage: boolean): string {
  const { pkg, shown } = v;
  const title = versionPage ? `${pkg.name}@${shown.version}` : pkg.name;
  const notices: string[] = [];
  if (!pkg.latest)
    notices.push('Every version of this package is yanked: exact versions still install for existing lockfiles.');
  else if (shown.yanked)
    notices.push(
      `This version is yanked: new installs get ${esc(pkg.latest)}; an exact pin (<code>@${esc(shown.version)}</code>) still installs.`,
    );
  const body = `<h1>${esc(pkg.name)} <span class="badge">${esc(shown.version)}</span></h1>
${versionPage ? `<p><a href="${esc(href(site, 'packages', pkg.name))}">All about ${esc(pkg.name)}</a></p>` : ''}
<p>${esc(shown.description)}</p>
${notices.map((n) => `<p class="notice" role="note">${n}</p>`).join('\n')}
<h2 id="install-label">Install</h2>
${install(site, pkg.name, versionPage ? shown.version : undefined)}
<div class="grid"><div>
<h2>At a glance</h2>
${glance(v.facts)}
<h2>VALIDATOR.md</h2>
<div class="markdown">${v.facts.body ? renderMarkdown(v.facts.body) : '<p class="muted">No prompt text.</p>'}</div>
<h2>Versions</h2>
${versionsTable(site, v)}
<h2>Files</h2>
${filesList(v.facts)}
</div>
${sidebar(site, v)}
</div>`;
  return layout(site, { title: `${title} · avp registry`, body, scripts: ['copy.js'] });
}
