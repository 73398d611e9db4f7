/**
 * The project's .gitleaks.toml as no-secrets reads it (validators/no-secrets/scripts/gitleaks.ts): Go regex syntax
 * translated, each rule's fields and defaults, allowlist targets, conditions and rule limits, bad files named by
 * line, and the cache keyed by the file's size and time.
 */
import { describe, expect, test } from 'bun:test';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadGitleaks, parseGitleaks } from '../../validators/no-secrets/scripts/gitleaks.ts';
import { tempDir } from '../support/run-avp.ts';

const parse = (toml: string) => parseGitleaks(toml, '.gitleaks.toml');
/** `rule:secret@at` of each finding of `line` in `file`. */
const scan = (toml: string, line: string, file = 'src/a.ts') =>
  parse(toml)
    .scan(file, line)
    .map((f) => `${f.rule}:${f.secret}@${f.at}`);

describe('rules', () => {
  test('Go syntax: (?i) becomes a flag (U dropped), (?P<name> a named group, \\A and \\z anchors', () => {
    const toml = `[[rules]]\nid = "a"\nregex = '''(?iU)\\Aacme-(?P<v>[a-z0-9]{8})\\z'''\nsecretGroup = 1\n`;
    expect(scan(toml, 'ACME-K2J4H5G6')).toEqual(['gitleaks:a:K2J4H5G6@5']);
    expect(scan(toml, 'x ACME-K2J4H5G6')).toEqual([]);
    expect(scan(toml, 'ACME-K2J4H5G6Q')).toEqual([]);
  });
  test('defaults: the id from the position, the description from the id, the secret from group 1 or the match', () => {
    const toml = `[[rules]]\nregex = '''tok_([a-z]{6})'''\n[[rules]]\nid = "whole"\nregex = '''pw_[a-z]{6}'''\n`;
    const config = parse(toml);
    expect(config.scan('a.ts', 'x = tok_qzkwvm; y = pw_qzkwvm')).toEqual([
      { rule: 'gitleaks:rule-1', what: 'gitleaks rule rule-1', secret: 'qzkwvm', at: 8 },
      { rule: 'gitleaks:whole', what: 'gitleaks rule whole', secret: 'pw_qzkwvm', at: 20 },
    ]);
  });
  test('secretGroup picks its group; keywords skip lines without one (case-insensitive); entropy is a floor', () => {
    const toml = `[[rules]]\nid = "k"\nregex = '''(id)=([a-z0-9]{10})'''\nsecretGroup = 2\nkeywords = ["ID="]\nentropy = 3.0\n`;
    expect(scan(toml, 'id=q8z3k5m1x7')).toEqual(['gitleaks:k:q8z3k5m1x7@3']);
    expect(scan(toml, 'id=aaaaabbbbb')).toEqual([]);
    expect(parse(toml.replace('["ID="]', '["other"]')).scan('a.ts', 'id=q8z3k5m1x7')).toEqual([]);
  });
  test('a rule with a path runs only on matching files; a path-only rule finds nothing in lines', () => {
    const toml = `[[rules]]\nid = "p"\npath = '''\\.cfg$'''\nregex = '''key=(\\w{8})'''\n[[rules]]\nid = "name-only"\npath = '''\\.pem$'''\n`;
    expect(scan(toml, 'key=q8z3k5m1', 'app.cfg')).toEqual(['gitleaks:p:q8z3k5m1@4']);
    expect(scan(toml, 'key=q8z3k5m1', 'app.ts')).toEqual([]);
    expect(scan(toml, 'key=q8z3k5m1', 'id.pem')).toEqual([]);
  });
});

test('an empty secret is no finding; an entropy floor is met at exactly its value; any keyword will do', () => {
  const toml = `[[rules]]\nid = "e"\nregex = '''key=(\\w*)'''\nentropy = 3.0\nkeywords = ["nope", "key="]\n`;
  expect(scan(toml, 'key=q8z3k5m1')).toEqual(['gitleaks:e:q8z3k5m1@4']);
  expect(scan(toml.replace('entropy = 3.0\n', ''), 'key=')).toEqual([]);
});

describe('allowlists', () => {
  const rule = `[[rules]]\nid = "r"\nregex = '''tok_([a-z0-9]{8})'''\n`;
  test('regexTarget: the secret (default), the whole match, or the line', () => {
    const with_ = (target: string, re: string) =>
      scan(`${rule}[[rules.allowlists]]\n${target}regexes = ['''${re}''']\n`, 'a = tok_q8z3k5m1 # ci');
    expect(with_('', '^q8z3')).toEqual([]);
    expect(with_('', '^tok_')).toHaveLength(1);
    expect(with_('regexTarget = "match"\n', '^tok_q8')).toEqual([]);
    expect(with_('regexTarget = "match"\n', '# ci')).toHaveLength(1);
    expect(with_('regexTarget = "line"\n', '# ci$')).toEqual([]);
  });
  test('AND over the criteria a list has (none listed: it allows nothing); a rule keeps its description', () => {
    const and = (body: string) =>
      scan(`${rule}description = "Acme token"\n[rules.allowlist]\ncondition = "AND"\n${body}`, 'tok_q8z3k5m1');
    expect(and(`stopwords = ["q8z3"]\nregexes = ['''k5m1$''']\n`)).toEqual([]);
    expect(and(`paths = ['''^src/''']\nregexes = ['''k5m1$''']\n`)).toEqual([]);
    expect(and('description = "empty"\n')).toEqual(['gitleaks:r:q8z3k5m1@4']);
    expect(parse(`${rule}description = "Acme token"\n`).scan('a.ts', 'tok_q8z3k5m1')[0]!.what).toBe('Acme token');
  });
  test('condition AND needs every criterion; OR (the default) any', () => {
    const list = (cond: string) =>
      `${rule}[rules.allowlist]\n${cond}paths = ['''^fixtures/''']\nstopwords = ["q8z3"]\n`;
    expect(scan(list('condition = "and"\n'), 'tok_q8z3k5m1', 'src/a.ts')).toHaveLength(1);
    expect(scan(list('condition = "AND"\n'), 'tok_q8z3k5m1', 'fixtures/a.ts')).toEqual([]);
    expect(scan(list(''), 'tok_q8z3k5m1', 'src/a.ts')).toEqual([]);
    expect(scan(`${rule}[rules.allowlist]\ndescription = "empty"\n`, 'tok_q8z3k5m1')).toHaveLength(1);
  });
  test('a global allowlist with targetRules applies to those rules only, and not to paths or built-in findings', () => {
    const toml = `${rule}[[rules]]\nid = "s"\nregex = '''sec_([a-z0-9]{8})'''\n[[allowlists]]\ntargetRules = ["r"]\npaths = ['''^vendor/''']\nstopwords = ["Q8Z3"]\n`;
    const config = parse(toml);
    expect(config.scan('src/a.ts', 'tok_q8z3k5m1 sec_q8z3k5m1').map((f) => f.rule)).toEqual(['gitleaks:s']);
    expect(config.allowsPath('vendor/lib.ts')).toBe(false);
    expect(config.allowsSecret('q8z3k5m1')).toBe(false);
  });
  test('global allowlists: paths skip files; regexes (secret target only) and stopwords skip built-in findings', () => {
    const config = parse(
      `[allowlist]\npaths = ['''^vendor/''']\n[[allowlists]]\nregexTarget = "line"\nregexes = ['''^ok''']\n[[allowlists]]\nregexes = ['''^AKIA.*TEAM$''']\nstopwords = ["Sandbox"]\n`,
    );
    expect(config.allowsPath('vendor/lib.ts')).toBe(true);
    expect(config.allowsPath('src/vendor/lib.ts')).toBe(false);
    expect(config.allowsSecret('AKIAQ3ZP7XK2M4N5TEAM')).toBe(true);
    expect(config.allowsSecret('okAKIAQ3ZP7XK2M4N5B6')).toBe(false);
    expect(config.allowsSecret('pw-SANDBOX-q8z3')).toBe(true);
    expect(config.allowsLine('x = 1 # gitleaks:allow')).toBe(true);
    expect(config.allowsLine('x = 1')).toBe(false);
    expect(parse('title = "none"\n').allowsPath('vendor/lib.ts')).toBe(false);
  });
  test('any allowlist, any path, regex or stopword of one is enough; global ones apply to the rules too', () => {
    const config = parse(
      `${rule}[[allowlists]]\nstopwords = ["zzz"]\n[[allowlists]]\npaths = ['''^a/''', '''^vendor/''']\nregexes = ['''^nomatch''', '''^q8''']\nstopwords = ["nope", "k5m1"]\n`,
    );
    expect(config.allowsPath('vendor/lib.ts')).toBe(true);
    expect(config.allowsSecret('q8xxxxxx')).toBe(true);
    expect(config.allowsSecret('xxk5m1xx')).toBe(true);
    expect(config.scan('src/a.ts', 'tok_zzzq9x7w')).toEqual([]);
    expect(config.scan('src/a.ts', 'tok_k5m1q9x7')).toEqual([]);
    expect(config.scan('src/a.ts', 'tok_r5m1q9x7')).toHaveLength(1);
    expect(config.scan('vendor/x.ts', 'tok_r5m1q9x7')).toEqual([]);
    expect(config.scan('src/a.ts', 'tok_q8x7w2z9')).toEqual([]);
  });
});

describe('bad files and the cache', () => {
  test('bad TOML names the line where parsing stops, even inside a multi-line string', () => {
    expect(() => parse('title = """\nmulti\nline"""\nb = = 2\n')).toThrow(/^\.gitleaks\.toml:4: not valid TOML/);
    expect(() => parse('a = 1\nb = 2\nc = = 3\n')).toThrow(/^\.gitleaks\.toml:3: not valid TOML/);
    expect(() => parse('title = "x"\ndescription = """\nstill open\n')).toThrow(/^\.gitleaks\.toml:2: not valid TOML/);
    expect(() => parse('a = 1\nb = = 2\nc = 3\n')).toThrow(
      /^\.gitleaks\.toml:2: not valid TOML \(Expected a value but found '='\); fix the file or remove it$/,
    );
  });
  test("a bad regex names where it is: a rule's path, an allowlist's paths or regexes", () => {
    expect(() => parse(`[[rules]]\nid = "r"\npath = '''(x'''\n`)).toThrow(
      'rule r path: the regex `(x` does not compile',
    );
    expect(() => parse(`[allowlist]\npaths = ['''ok''', '''[x''']\n`)).toThrow('allowlists[0] paths[1]: the regex');
    expect(() => parse(`[[rules]]\nid = "r"\n[[rules.allowlists]]\nregexes = ['''(x''']\n`)).toThrow(
      'rule r allowlists[0] regexes[0]: the regex',
    );
  });
  test('loaded from the project root, cached until the file changes; none, or a directory, is no config', () => {
    const root = tempDir('avp-gitleaks-load-');
    expect(loadGitleaks(root)).toBeUndefined();
    expect(loadGitleaks(undefined)).toBeUndefined();
    const file = join(root, '.gitleaks.toml');
    writeFileSync(file, `[[rules]]\nid = "one"\nregex = '''one_\\d{4}'''\n`);
    const first = loadGitleaks(root)!;
    expect(loadGitleaks(root)).toBe(first);
    writeFileSync(file, `[[rules]]\nid = "two"\nregex = '''two_\\d{4}'''\n`);
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    expect(
      loadGitleaks(root)!
        .scan('a.ts', 'two_1234')
        .map((f) => f.rule),
    ).toEqual(['gitleaks:two']);
    const other = tempDir('avp-gitleaks-dir-');
    mkdirSync(join(other, '.gitleaks.toml'));
    expect(loadGitleaks(other)).toBeUndefined();
  });
});
