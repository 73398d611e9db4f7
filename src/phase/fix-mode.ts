/**
 * Check-mode ↔ fix-mode for the formatters and linters avp knows. A check that fails is retried after running its
 * fix counterpart; a command that already fixes (`ruff check --fix`, `eslint --fix`) is its own counterpart.
 */

const has = (cmd: string, re: RegExp) => re.test(cmd);

/** The formatter's fix-mode counterpart of a check-mode command, or undefined when none is known. */
export function formatterFix(cmd: string, scripts?: Record<string, string>): string | undefined {
  const c = cmd.trim();
  const npmScript = /^(npm|pnpm|yarn|bun) run ([\w:.-]+)(.*)$/.exec(c);
  if (npmScript) {
    const [, pm, name, rest = ''] = npmScript;
    const base = name!.replace(/[:-]check$/, '');
    if (base !== name && scripts?.[base]) return `${pm} run ${base}${rest}`;
    const body = scripts?.[name!];
    if (body && /\bprettier\b/.test(body) && /(\s--check|\s-c)\b/.test(body)) return `${pm} run ${name} -- --write`;
    return undefined;
  }
  if (has(c, /\bprettier\b/)) {
    if (has(c, /\s--write\b|\s-w\b/)) return c;
    if (has(c, /\s(--check|-c|--list-different|-l)\b/))
      return c.replace(/\s(--check|-c|--list-different|-l)\b/, ' --write');
    return undefined;
  }
  if (has(c, /\bcargo fmt\b/))
    return has(c, /--check\b/) ? c.replace(/\s*(--\s+)?--check\b/, '').replace(/\s+--\s*$/, '') : c;
  if (has(c, /\bgofmt\b/)) return has(c, /\s-l\b/) ? c.replace(/\s-l\b/, ' -w') : c;
  if (has(c, /\bspotless:check\b/)) return c.replace('spotless:check', 'spotless:apply');
  if (has(c, /\bspotlessCheck\b/)) return c.replace('spotlessCheck', 'spotlessApply');
  if (has(c, /\brubocop\b/)) return has(c, /\s(-a|-A|--autocorrect|--autocorrect-all)\b/) ? c : `${c} -a`;
  // black, ruff format, isort, clang-format --dry-run …: dropping the check flag gives the fix mode.
  if (has(c, /\s--check-only(?=\s|$)/)) return c.replace(/\s--check-only(?=\s|$)/, '').trim();
  if (has(c, /\s--check(?=\s|$)/))
    return c
      .replace(/\s--check(?=\s|$)/, '')
      .replace(/\s+/g, ' ')
      .trim();
  if (has(c, /\s--dry-run\b/)) return c.replace(/\s--dry-run\b/, '').trim();
  return undefined;
}

/** True when the formatter command reports problems on stdout but exits 0 (`gofmt -l`, `prettier -l` style). */
export function failsOnOutput(cmd: string): boolean {
  return /\bgofmt\b.*\s-l\b/.test(cmd);
}

/** The linter's fix-mode counterpart, or undefined when none is known. */
export function linterFix(cmd: string, scripts?: Record<string, string>): string | undefined {
  const c = cmd.trim();
  if (has(c, /\s--fix\b/) || has(c, /\brubocop\b.*\s(-a|-A|--autocorrect)\b/)) return c;
  const npmScript = /^(npm|pnpm|yarn|bun) run ([\w:.-]+)(.*)$/.exec(c);
  if (npmScript) {
    const [, pm, name, rest = ''] = npmScript;
    if (scripts?.[`${name}:fix`]) return `${pm} run ${name}:fix${rest}`;
    const body = scripts?.[name!] ?? '';
    if (/^\s*(npx\s+)?(eslint|ruff check|biome (lint|check))\b/.test(body) && !/[;&|]/.test(body)) {
      return `${pm} run ${name}${rest}${rest.includes(' -- ') ? '' : ' --'} ${/biome/.test(body) ? '--write' : '--fix'}`;
    }
    return undefined;
  }
  if (has(c, /\beslint\b/) || has(c, /\bruff check\b/) || has(c, /\bgolangci-lint run\b/)) return `${c} --fix`;
  if (has(c, /\bruff\b/) && !has(c, /\bruff format\b/)) return `${c} --fix`;
  if (has(c, /\bbiome (lint|check)\b/)) return `${c} --write`;
  if (has(c, /\bcargo clippy\b/)) {
    return c.replace(/\bcargo clippy\b/, 'cargo clippy --fix --allow-dirty --allow-staged --allow-no-vcs');
  }
  if (has(c, /\brubocop\b/)) return `${c} -a`;
  return undefined;
}
