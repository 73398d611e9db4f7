import MarkdownItCallable, { type MarkdownIt } from 'markdown-it';

/**
 * Markdown from a published VALIDATOR.md is untrusted. markdown-it with `html: false` escapes every raw HTML tag
 * and attribute (so no `<script>`, no `onerror=`), and links pass `safeHref`: only http(s), same-page and relative
 * URLs survive; `javascript:`, `data:`, `vbscript:`, `file:` and anything else are rendered as plain text. Images
 * become links to the image: a page never loads a third party's pixel (the CSP forbids it too).
 */
let md: MarkdownIt | undefined;

/** True for `http(s)://…`, `#frag`, `/path`, `./x`, `x/y` — and false for any other scheme, however disguised. */
export function safeHref(url: string): boolean {
  // Browsers ignore ASCII whitespace and control characters inside a scheme ("java\tscript:"): judge without them.
  // They also read a backslash as a slash in http(s) URLs (`\\\\evil.example` is `//evil.example`).
  // Character references are decoded first, as a browser reading an attribute would ("javascript&#58;").
  const bare = decodeReferences(url)
    .replace(/[\u0000-\u0020\u007f-\u009f]/g, '')
    .replace(/\\/g, '/');
  if (/^https?:\/\//i.test(bare)) return true;
  if (bare.startsWith('//')) return false; // protocol-relative: another origin, whatever the scheme
  // A relative URL has no scheme: no ":" before the first "/", "?" or "#".
  const head = bare.split(/[/?#]/, 1)[0] ?? '';
  return !head.includes(':') && !/%3a/i.test(head);
}

function decodeReferences(text: string): string {
  return text
    .replace(/&#x([0-9a-f]+);?/gi, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16) % 0x110000))
    .replace(/&#(\d+);?/g, (_, dec: string) => String.fromCodePoint(Number(dec) % 0x110000))
    .replace(/&colon;/gi, ':')
    .replace(/&(tab|newline);/gi, ' ');
}

function renderer(): MarkdownIt {
  if (md) return md;
  md = new MarkdownItCallable({ html: false, linkify: true, typographer: false });
  md.validateLink = safeHref;
  const link =
    md.renderer.rules.link_open ?? ((tokens, i, options, _env, self) => self.renderToken(tokens, i, options));
  md.renderer.rules.link_open = (tokens, i, options, env, self) => {
    tokens[i]!.attrSet('rel', 'nofollow noopener noreferrer ugc');
    return link(tokens, i, options, env, self);
  };
  // The page has its own h1 and h2s: a package's headings start at h3, so the outline stays the page's.
  const shift = (tokens: Array<{ tag: string }>, i: number) => {
    const level = Math.min(6, Number(tokens[i]!.tag.slice(1)) + 2);
    tokens[i]!.tag = `h${level}`;
  };
  md.core.ruler.push('shift_headings', (state) => {
    state.tokens.forEach((t, i) => {
      if (t.type === 'heading_open' || t.type === 'heading_close') shift(state.tokens, i);
    });
  });
  md.renderer.rules.image = (tokens, i) => {
    const token = tokens[i]!;
    const src = String(token.attrGet('src') ?? '');
    const alt = String(token.children?.map((c) => c.content).join('') || src);
    return `<a href="${md!.utils.escapeHtml(src)}" rel="nofollow noopener noreferrer ugc">[image: ${md!.utils.escapeHtml(alt)}]</a>`;
  };
  return md;
}

/** The HTML of a markdown text from a package, safe to embed in a page. */
export function renderMarkdown(text: string): string {
  return renderer().render(text);
}
