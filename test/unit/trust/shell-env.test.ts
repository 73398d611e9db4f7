/**
 * The guard against `.env` lines that switch Qwen Code's and Gemini CLI's hooks (or avp) off for the next session:
 * a shell command that writes such a line into a `.env` file is refused, by what it writes — the same command with
 * an ordinary line passes — and a file-tool change is judged on the file it leaves.
 */
import { describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { controlTable, folding } from '../../../src/trust/control-paths.ts';
import { addedEnvSwitch, AVP_NAMES, envSwitchLines, mentionedEnvSwitch } from '../../../src/trust/env-switches.ts';
import { shellDenial } from '../../../src/trust/shell-writes.ts';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'avp-env-')));
const root = join(base, 'project');
const home = join(base, 'home');
for (const d of [join(root, '.qwen'), join(root, 'src'), join(home, '.qwen')]) mkdirSync(d, { recursive: true });
writeFileSync(join(root, '.env.example'), 'DATABASE_URL=postgres://localhost/app\n');
writeFileSync(join(base, 'planted'), 'PORT=1\nQWEN_CODE_SAFE_MODE=true\n');
const envPatch = (line: string) => `--- a/.env\n+++ b/.env\n@@ -1 +1,2 @@\n PORT=1\n+${line}\n`;
writeFileSync(join(base, 'off.patch'), envPatch('QWEN_CODE_SAFE_MODE=1'));
writeFileSync(join(base, 'port.patch'), envPatch('HOST=localhost'));
const env = { HOME: home, AVP_HOME: join(home, '.avp'), PATH: '/usr/bin:/bin' };

function denial(command: string): { why: string; env: boolean } | undefined {
  return shellDenial(command, root, env, controlTable(root, env), folding());
}

describe('refused: shell commands that put a hook-switching line into a .env file', () => {
  const cases = [
    'echo QWEN_CODE_SAFE_MODE=1 >> .qwen/.env',
    'echo QWEN_CODE_SIMPLE=true >> .env',
    "printf 'QWEN_CODE_SAFE_MODE=%s\\n' 1 >> .env",
    "printf '%s=1\\n' QWEN_CODE_SAFE_MODE >> ~/.qwen/.env",
    'echo "QWEN_CODE_SAFE_"MODE=1 >> .env',
    'echo "QWEN_CODE_SAFE_MODE="1 >> ~/.env',
    'echo QWEN_CODE_SYSTEM_SETTINGS_PATH=/tmp/s.json | tee -a ~/.qwen/.env',
    "cat >> .gemini/.env <<'EOF'\nGEMINI_CLI_SYSTEM_DEFAULTS_PATH=/tmp/d.json\nEOF",
    'echo GEMINI_CLI_TRUST_WORKSPACE=false >> .gemini/.env',
    'echo AVP_DISABLE=1 >> .env',
    'echo AVP_SUBAGENT=1 >> ~/.env',
    'echo AVP_DISABLED_VALIDATORS=no-secrets >> .env',
    "sed -i 's/^PORT=.*/QWEN_CODE_SAFE_MODE=1/' .env",
    `cp ${join(base, 'planted')} .qwen/.env`,
    `cat ${join(base, 'planted')} >> .env`,
    `mv ${join(base, 'planted')} ~/.env`,
    "python3 -c \"open('.env','a').write('QWEN_CODE_SAFE_MODE=1')\"",
    'cd .qwen && echo QWEN_CODE_SAFE_MODE=1 > .env',
    'bash -c "echo QWEN_CODE_SAFE_MODE=1 >> .env"',
    'X=.env; echo QWEN_CODE_SAFE_MODE=1 >> $X',
    'echo QWEN_CODE_SAFE_MODE=1 >> src/.env',
    `patch -p1 <<'EOF'\n${envPatch('QWEN_CODE_SIMPLE=1')}EOF`,
    `git apply ${join(base, 'off.patch')}`,
    `patch -p1 < ${join(base, 'off.patch')}`,
  ];
  for (const c of cases)
    test(c.replaceAll('\n', '⏎'), () => {
      const d = denial(c);
      expect(d?.env).toBe(true);
      expect(d?.why).toMatch(/^it writes /);
    });
});

describe('passes: the same commands with ordinary lines, and switches set off', () => {
  const cases = [
    'echo PORT=3000 >> .qwen/.env',
    'echo QWEN_CODE_SAFE_MODE=1',
    'echo QWEN_CODE_SAFE_MODE=0 >> .qwen/.env',
    'echo OPENAI_API_KEY=sk-test >> ~/.env',
    'cp .env.example .env',
    `cp ${join(base, 'planted')} notes.txt`,
    'QWEN_CODE_SAFE_MODE=1 npm test',
    `git apply ${join(base, 'port.patch')}`,
    `patch -p1 <<'EOF'\n${envPatch('HOST=localhost')}EOF`,
  ];
  for (const c of cases) test(c, () => expect(denial(c)).toBeUndefined());
});

describe('.env contents', () => {
  test('switching lines are read as dotenv reads them: quotes, export, comments', () => {
    const text = 'export QWEN_CODE_SAFE_MODE="1"\n# AVP_DISABLE=1\nAVP_DISABLE=0\nQWEN_CODE_SIMPLE=yes # on\nX=1\n';
    expect(envSwitchLines(text)).toEqual(['QWEN_CODE_SAFE_MODE=1', 'QWEN_CODE_SIMPLE=yes']);
  });
  test('a change is judged by what it adds: a switch already there (the user set it) is not added', () => {
    expect(addedEnvSwitch('QWEN_CODE_SAFE_MODE=1\n', 'QWEN_CODE_SAFE_MODE=1\nPORT=2\n')).toBeUndefined();
    expect(addedEnvSwitch('PORT=1\n', 'PORT=1\nQWEN_CODE_SYSTEM_SETTINGS_PATH=/x\n')).toBe(
      'QWEN_CODE_SYSTEM_SETTINGS_PATH=/x',
    );
  });
});

describe('the AVP_* names a .env line may not set', () => {
  test("every AVP_* name avp's code mentions is listed; other AVP_* names are ordinary lines", async () => {
    const { Glob } = await import('bun');
    const root = join(import.meta.dir, '../../../src');
    const seen = new Set<string>();
    for await (const f of new Glob('**/*.ts').scan(root)) {
      if (f.endsWith('env-switches.ts')) continue; // the list itself, and its example of another AVP_ name
      for (const m of (await Bun.file(join(root, f)).text()).matchAll(/\bAVP_[A-Z0-9_]*[A-Z0-9]\b/g)) seen.add(m[0]);
    }
    expect([...seen].filter((n) => !AVP_NAMES.includes(n)).sort()).toEqual([]);
    expect(envSwitchLines('AVP_POLICY_STORE_ID=ps-1\nAVP_HOME=/tmp/x\n')).toEqual(['AVP_HOME=/tmp/x']);
  });
});

describe('which .env lines switch something off, as dotenv reads them', () => {
  test('values: empty sets nothing, off flags are off, trust is distrust unless "true", anything else switches', () => {
    expect(envSwitchLines('QWEN_CODE_SAFE_MODE=\nAVP_DISABLE=0\nAVP_SUBAGENT=off\nGEMINI_RESTRICTED_MODE=no')).toEqual(
      [],
    );
    expect(envSwitchLines('GEMINI_CLI_TRUST_WORKSPACE=true\nGEMINI_CLI_TRUST_WORKSPACE=TRUE')).toEqual([]);
    expect(envSwitchLines('GEMINI_CLI_TRUST_WORKSPACE=false')).toEqual(['GEMINI_CLI_TRUST_WORKSPACE=false']);
    expect(envSwitchLines('GEMINI_CLI_TRUST_WORKSPACE=0')).toEqual(['GEMINI_CLI_TRUST_WORKSPACE=0']);
    expect(envSwitchLines('AVP_DISABLE=yes')).toEqual(['AVP_DISABLE=yes']);
    expect(envSwitchLines('QWEN_CODE_SYSTEM_SETTINGS_PATH=/tmp/x.json')).toEqual([
      'QWEN_CODE_SYSTEM_SETTINGS_PATH=/tmp/x.json',
    ]);
    expect(envSwitchLines('DATABASE_URL=postgres://x')).toEqual([]);
  });

  test('quotes, comments and blanks are taken off the value, as dotenv does', () => {
    expect(envSwitchLines('  export AVP_DISABLE =  1   # off for now')).toEqual(['AVP_DISABLE=1']);
    expect(envSwitchLines('AVP_DISABLE="0"  # still on')).toEqual([]);
    expect(envSwitchLines("AVP_DISABLE='1 # not a comment'")).toEqual(['AVP_DISABLE=1 # not a comment']);
    expect(envSwitchLines('AVP_DISABLE=   0   ')).toEqual([]);
    expect(envSwitchLines('AVP_DISABLE=0   # on')).toEqual([]);
  });

  test('a command naming a switch: with a value that switches, an empty one (the value may follow), or bare', () => {
    expect(mentionedEnvSwitch('echo AVP_DISABLE=1 >> .env')).toBe('AVP_DISABLE=1');
    expect(mentionedEnvSwitch('echo "AVP_DISABLE="1 >> .env')).toBe('AVP_DISABLE=1');
    expect(mentionedEnvSwitch("printf 'AVP_DISABLE=' >> .env")).toBe('AVP_DISABLE=');
    expect(mentionedEnvSwitch("printf '%s=1' QWEN_CODE_SAFE_MODE >> .env")).toBe('QWEN_CODE_SAFE_MODE');
    expect(mentionedEnvSwitch('echo AVP_DISABLE=0 >> .env')).toBeUndefined();
    expect(mentionedEnvSwitch('echo DATABASE_URL=x >> .env')).toBeUndefined();
  });
});
