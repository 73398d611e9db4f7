/**
 * no-secrets in detail: the project's .gitleaks.toml (rules, allowlists, stopwords, bad files), what a shell command
 * writes, what a git commit would commit, the narrow placeholder rule, and the copy that judges before a tool runs.
 */
import { describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseGitleaks } from '../../validators/no-secrets/scripts/gitleaks.ts';
import { base62, checksumOk, crc32 } from '../../validators/no-secrets/scripts/providers.ts';
import { isFakeToken } from '../../validators/no-secrets/scripts/rules.ts';
import { commandWrites, gitCommit } from '../../validators/no-secrets/scripts/shell.ts';
import { validate } from '../../validators/no-secrets/scripts/check.ts';
import { tempDir } from '../support/run-avp.ts';

const GH = 'ghp_KLzdocJ2isAjIhKtJ0RlgLKOmxgJTeKdNnFR';
const write = (root: string, file: string, after: string, event = 'PostToolUse') =>
  validate({
    event,
    tool: 'Write',
    projectRoot: root,
    cwd: root,
    files: [{ path: join(root, file), relPath: file, kind: 'create', before: null, after }],
  });

describe('.gitleaks.toml', () => {
  const toml = `title = "team rules"
[extend]
useDefault = true

[allowlist]
description = "global"
paths = ['''^docs/legacy/''']
regexes = ['''AKIA[A-Z0-9]{12}TEAM''']
stopwords = ["sandbox"]

[[rules]]
id = "acme-internal-token"
description = "Acme internal service token"
regex = '''(?i)\\b(acme_[a-z0-9]{32})\\b'''
secretGroup = 1
entropy = 3.0
keywords = ["acme_"]
  [[rules.allowlists]]
  regexes = ['''acme_0{32}''']
`;
  const project = () => {
    const root = tempDir('avp-gitleaks-');
    writeFileSync(join(root, '.gitleaks.toml'), toml);
    return root;
  };

  test('its rules run beside the built-in ones, with their secretGroup, entropy, keywords and own allowlist', () => {
    const root = project();
    const hit = write(root, 'src/a.ts', 'const t = "acme_k2j4h5g6f7d8s9a0q1w2e3r4t5y6u7i8";\n');
    expect(hit.violations).toMatchObject([{ rule: 'gitleaks:acme-internal-token', file: 'src/a.ts', line: 1 }]);
    expect(JSON.stringify(hit)).not.toContain('k2j4h5g6f7d8s9a0q1w2e3r4t5y6u7i8');
    expect(write(root, 'src/a.ts', 'const t = "acme_00000000000000000000000000000000";\n').passed).toBe(true);
    expect(write(root, 'src/a.ts', 'const t = "acme_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab";\n').passed).toBe(true); // entropy
  });

  test('global allowlist: paths skip files, regexes and stopwords skip built-in findings too; gitleaks:allow', () => {
    const root = project();
    expect(write(root, 'docs/legacy/setup.ts', `const t = "${GH}";\n`).passed).toBe(true);
    expect(write(root, 'src/aws.ts', 'const id = "AKIAQ3ZP7XK2M4N5TEAM";\n').passed).toBe(true);
    expect(write(root, 'src/aws.ts', 'const id = "AKIAQ3ZP7XK2M4N5B6C7";\n').passed).toBe(false);
    expect(write(root, 'src/k.ts', 'const dsn = "postgres://app:sandboxPw8xQ2@db.acme.io/app";\n').passed).toBe(true);
    expect(write(root, 'src/gh.ts', `const t = "${GH}"; // gitleaks:allow\n`).passed).toBe(true);
  });

  test('a bad file is an error naming the file and the line (the validator fails closed, never passes)', () => {
    const root = tempDir('avp-gitleaks-bad-');
    writeFileSync(join(root, '.gitleaks.toml'), 'title = "x"\n\n[[rules]\nid = "y"\n');
    expect(() => write(root, 'src/a.ts', 'x\n')).toThrow('.gitleaks.toml:3: not valid TOML');
    expect(() => parseGitleaks("[[rules]]\nid = \"r\"\nregex = '''(unclosed'''\n", '.gitleaks.toml')).toThrow(
      '.gitleaks.toml: rule r: the regex `(unclosed` does not compile',
    );
  });
});

describe('shell commands', () => {
  test('what a command writes: redirects, appends, tee, heredocs, printf; the target is project-relative', () => {
    const w = commandWrites(
      `echo 'A="${GH}"' > src/a.py && printf '%s\\n' x >> /p/log.txt\necho y | tee -a out.txt\ncat <<EOF > .env\nK=v\nEOF\nls -la`,
      '/p',
      '/p',
    );
    expect(w.map((x) => x.file)).toEqual(['.env', 'src/a.py', 'log.txt', 'out.txt']);
    expect(w[0]!.added.map((a) => a.text)).toEqual(['K=v']);
    expect(w[1]!.added.map((a) => a.text)).toEqual([`A="${GH}"`]);
    expect(commandWrites('npm test 2>&1 >/dev/null; grep -r token src', '/p', '/p')).toEqual([]);
  });

  test('git commit is recognised with its flags; -a, -am, --all and a git add in the same command include the tree', () => {
    expect(gitCommit('git commit -m "x"')).toEqual({ all: false, adds: false });
    expect(gitCommit('git -C . commit -am wip')).toEqual({ all: true, adds: false });
    expect(gitCommit('git commit --all -m x')).toEqual({ all: true, adds: false });
    expect(gitCommit('git add . && git commit -m x')).toEqual({ all: true, adds: true });
    expect(gitCommit('echo "git commit"')).toBeUndefined();
    expect(gitCommit('git log --oneline')).toBeUndefined();
  });

  test('a command that writes no file passes even with a token in it (its output is judged after it ran)', () => {
    const v = validate({
      event: 'PreToolUse',
      tool: 'Bash',
      toolInput: { command: `gh auth status -t ${GH}` },
      cwd: '/p',
      projectRoot: '/p',
      files: [],
    });
    expect(v.passed).toBe(true);
  });
});

describe('placeholders are skipped only when provably made up', () => {
  test('real-format keys that merely contain test/demo/example-like fragments are flagged', () => {
    for (const [t, body] of <Array<[string, string]>>[
      ['sk_live_51TestQ8mX3vT9bR2wN7pY4cK6dF1gJ', '51TestQ8mX3vT9bR2wN7pY4cK6dF1gJ'],
      ['ghp_demoJ2isAjIhKtJ0RlgLKOmxgJTeKdNnFR', 'demoJ2isAjIhKtJ0RlgLKOmxgJTeKdNnFR'],
      [
        'xoxb-561899477998-3305685310900-d6Vw5DQLfakeA064GiIjHGb3C',
        '561899477998-3305685310900-d6Vw5DQLfakeA064GiIjHGb3C',
      ],
    ])
      expect({ t, fake: isFakeToken(t, body) }).toEqual({ t, fake: false });
  });
  test('documented examples, template markers, runs and placeholder words are skipped', () => {
    for (const [t, body] of <Array<[string, string]>>[
      ['AKIAIOSFODNN7EXAMPLE', 'IOSFODNN7EXAMPLE'],
      ['ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'],
      ['sk_live_{{ stripe_key }}', '{{ stripe_key }}'],
      ['ghp_abcdefghijklmnopqrstuvwxyz0123456789', 'abcdefghijklmnopqrstuvwxyz0123456789'],
      ['glpat-your_token_goes_here', 'your_token_goes_here'],
      ['xoxp-123456789012-123456789012-####', '####'],
    ])
      expect({ t, fake: isFakeToken(t, body) }).toEqual({ t, fake: true });
  });
});

test("GitHub's and npm's checksum: the last six characters are the base62 CRC32 of the thirty before", () => {
  expect(crc32('123456789')).toBe(0xcbf43926); // the CRC-32/ISO-HDLC check value
  expect(base62(61, 2)).toBe('0z');
  const body = 'Zq8Lm3Xv9Tb2Rw7Np4Yc6Hd1Kf5Gj0';
  expect(checksumOk(body + base62(crc32(body), 6))).toBe(true);
  expect(checksumOk(`${body}AAAAAA`)).toBe(false);
});

test('a Write judged at PreToolUse by the before-copy is left to no-secrets where the adapter judges it there too', () => {
  const root = tempDir('avp-before-');
  mkdirSync(join(root, 'src'));
  const event = {
    event: 'PreToolUse',
    alsoTrigger: 'PostToolUse',
    tool: 'Write',
    projectRoot: root,
    cwd: root,
    files: [
      {
        path: join(root, 'src/a.ts'),
        relPath: 'src/a.ts',
        kind: 'create' as const,
        before: null,
        after: `x = "${GH}"\n`,
      },
    ],
  };
  expect(validate(event).passed).toBe(false);
  process.env.AVP_VALIDATOR_NAME = 'no-secrets-before';
  try {
    expect(validate(event).passed).toBe(true);
    const { alsoTrigger: _, ...plain } = event;
    expect(validate(plain).passed).toBe(false);
  } finally {
    delete process.env.AVP_VALIDATOR_NAME;
  }
});
