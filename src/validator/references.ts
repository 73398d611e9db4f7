/**
 * Finds the files a validator's prompt names — `references/patterns.md` mentions and relative markdown links — so
 * that a missing one is a load error at the body line that names it (AVP: "missing references" fail closed).
 */

/** A file named in a prompt. */
export interface Mention {
  /** As written, without `#anchor` / `?query`. */
  target: string;
  /** 1-based file line and column. */
  line: number;
  column: number;
  /** `references/...` mentions resolve against the validator root; links against the file's own folder. */
  kind: 'references' | 'link';
}

// `references/x.md`, `./references/x.md`, also inside inline code; the path ends at the last word character.
const REFERENCES = /(?<![\w./-])(?:\.\/)?references\/[\w./-]*[\w-]/g;
// `[text](target "title")` and `![alt](target)`.
const LINK = /!?\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+["'(][^)]*)?\)/g;
const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|#|\/|~)/i;

/**
 * Mentions of local files in `body`, whose first line is file line `bodyLine`. Fenced code blocks are skipped
 * (examples there are code, not references); inline code is not (that is how prompts usually name files).
 */
export function findMentions(body: string, bodyLine: number): Mention[] {
  const out: Mention[] = [];
  const lines = body.split(/\r?\n/);
  let fence: string | undefined;
  lines.forEach((text, i) => {
    const f = /^\s{0,3}(`{3,}|~{3,})/.exec(text);
    if (f) {
      if (!fence) fence = f[1]![0]!.repeat(f[1]!.length);
      else if (f[1]!.startsWith(fence)) fence = undefined;
      return;
    }
    if (fence) return;
    const line = bodyLine + i;
    const seen = new Set<string>();
    for (const m of text.matchAll(LINK)) {
      let target = m[1]!.replace(/[#?].*$/, '');
      if (!target || EXTERNAL.test(m[1]!)) continue;
      try {
        target = decodeURIComponent(target);
      } catch {
        // keep it as written
      }
      seen.add(target.replace(/^\.\//, ''));
      out.push({ target, line, column: m.index! + m[0].indexOf(m[1]!) + 1, kind: 'link' });
    }
    for (const m of text.matchAll(REFERENCES)) {
      const target = m[0];
      if (seen.has(target.replace(/^\.\//, ''))) continue; // already checked as a link
      out.push({ target, line, column: m.index! + 1, kind: 'references' });
    }
  });
  return out;
}
