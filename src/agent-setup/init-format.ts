/** The human summaries of `avp init` and `avp deinit` (stdout), and the steps that follow an init. */
import { relative } from 'node:path';
import type { DeinitResult, InitResult } from './init.ts';

/** Human summary of an init, for stdout. */
export function formatInit(r: InitResult): string {
  const lines: string[] = [];
  const would = r.dryRun ? 'would ' : '';
  // Paths in the project are shown from its root (what the user types and commits); others in full.
  const show = (p: string) => {
    const rel = relative(r.projectRoot, p);
    return rel && !rel.startsWith('..') && !rel.startsWith('/') ? rel : p;
  };
  if (r.chosenBy === 'detected' && r.agents.length > 1)
    lines.push(`agents found: ${r.agents.map((a) => a.name).join(', ')} (choose with --agent, or --all)`);
  for (const { name, settings: s, notes, timeoutUnit } of r.agents) {
    const unit = timeoutUnit === 'ms' ? `${s.timeout} ms` : `${s.timeout}s`;
    if (!s.changed) lines.push(`${show(s.path)}: avp's hook is already installed for ${name} (nothing to change)`);
    else {
      lines.push(
        `${show(s.path)}: ${would}${s.created ? 'create the file and ' : ''}add avp's hook for ${s.added.length} ${name} event${s.added.length === 1 ? '' : 's'}${s.updated.length ? `, update it for ${s.updated.length}` : ''}`,
      );
      lines.push(`  command: ${s.command}   timeout: ${unit}`);
    }
    for (const n of notes) lines.push(`  note: ${n}`);
  }
  for (const m of r.layout) lines.push(`${would}create ${show(m)}`);
  for (const v of r.installed) lines.push(`${would}install validator ${v.name}@${v.version} → ${show(v.dir)}`);
  if (r.skipped.length) lines.push(`already installed: ${r.skipped.join(', ')}`);
  if (r.llm.length) {
    lines.push('', 'LLM-judged validators in the catalog (not installed: they need a model):');
    for (const v of r.llm) {
      // The first sentence (a dash is not a sentence end: "TEMPLATE - checks …" keeps what it checks).
      const first = v.description.split(/(?<=\.)\s/)[0]!.replace(/\.$/, '');
      lines.push(`  ${v.name} — ${first.length > 100 ? `${first.slice(0, 99)}…` : first}`);
    }
    lines.push(
      "  add one with `avp add <name>`; avp judges with `claude` or your agent's CLI (codex, gemini, qwen, droid) on " +
        'PATH, ANTHROPIC_API_KEY, or OPENAI_BASE_URL/OPENAI_API_KEY (`avp doctor` says which).',
    );
  }
  if (r.cleaned?.changed) {
    lines.push(
      `${show(r.cleaned.path)}: ${would}remove avp's older entry (${r.cleaned.removed.length} event${r.cleaned.removed.length === 1 ? '' : 's'}): the shared one runs avp; both would run it twice per event`,
    );
  }
  for (const n of r.notes) lines.push('', `note: ${n}`);
  if (r.dryRun) lines.push('', 'dry run: nothing was written.');
  else lines.push('', ...whatNext(r));
  return `${lines.join('\n')}\n`;
}

/** The steps after `avp init`: restart the agent, see a block, commit the shared files. */
function whatNext(r: InitResult): string[] {
  const names = r.agents.map((a) => a.name);
  const steps = [
    names.length === 1
      ? `restart ${names[0]}: it reads hooks when it starts (a running session keeps its old hooks)`
      : `restart ${names.join(', ')}: each reads hooks when it starts (a running session keeps its old hooks)`,
  ];
  const secrets = [...r.installed.map((v) => v.name), ...r.skipped].includes('no-secrets');
  steps.push(
    secrets
      ? 'try it: ask the agent to add `const API_KEY = "sk-live-1234567890abcdef1234"` to a file; no-secrets blocks it'
      : 'try it: `avp check` runs the validators on your uncommitted changes, as the hook would',
  );
  if (r.commit.length) {
    steps.push(`commit what your team shares: git add ${r.commit.join(' ')} && git commit -m "Set up avp validators"`);
    if (!r.commit.some((c) => !c.startsWith('.avp')))
      steps.push('teammates: each runs `avp init` (the hook is in a settings file that stays on this machine)');
  }
  if (r.gitHook === 'missing')
    steps.push('stop commits made from a shell or an editor too: `avp init --git-hook` (runs `avp check --staged`)');
  return ['next:', ...steps.map((s, i) => `  ${i + 1}. ${s}`)];
}

export function formatDeinit(r: DeinitResult): string {
  const lines = r.files.map((f) =>
    f.removed.length
      ? `${f.path}: ${r.dryRun ? 'would remove' : 'removed'} avp's hook from ${f.removed.length} event${f.removed.length === 1 ? '' : 's'}`
      : `${f.path}: no avp hook found`,
  );
  for (const e of r.elsewhere) {
    const where = e.scope === 'user' ? 'your user settings: every project' : `the ${e.scope} settings`;
    lines.push(`${e.path}: still runs avp (${where}); \`avp deinit --${e.scope}\` removes it`);
  }
  lines.push('.avp/ (validators, state) is left in place; delete it yourself if you no longer want it.');
  return `${lines.join('\n')}\n`;
}
