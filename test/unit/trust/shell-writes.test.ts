/**
 * The guard's reading of shell commands, tried as an agent that wants avp off would write them: every shape that
 * changes a control path is refused, and the look-alikes that only read (or write elsewhere) pass.
 */
import { describe, expect, test } from 'bun:test';
import { linkSync, mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { powershellWriteDenial } from '../../../src/trust/shell-writes.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { controlTable, folding } from '../../../src/trust/control-paths.ts';
import { shellWriteDenial } from '../../../src/trust/shell-writes.ts';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'avp-shell-')));
const root = join(base, 'project');
const home = join(base, 'home');
const bin = join(base, 'bin');
for (const d of [
  join(root, '.claude'),
  join(root, '.avp', 'validators'),
  join(home, '.claude'),
  bin,
  join(root, 'src'),
])
  mkdirSync(d, { recursive: true });
for (const d of [join(root, '.avp', 'state'), join(home, '.avp', 'trust')]) mkdirSync(d, { recursive: true });
writeFileSync(join(root, '.claude', 'settings.json'), '{"hooks":{}}\n');
writeFileSync(join(home, '.claude', 'settings.json'), '{"hooks":{}}\n');
writeFileSync(join(bin, 'avp'), '#!/bin/sh\n');
symlinkSync(join(root, '.claude'), join(root, 'cc'));
// A hard link made in an earlier call: writing it writes the settings under another name.
linkSync(join(root, '.claude', 'settings.json'), join(root, 'notes.json'));
const env = { HOME: home, AVP_HOME: join(home, '.avp'), PATH: `${bin}:/usr/bin`, CLAUDE_PROJECT_DIR: root };

function denial(command: string, cwd = root): string | undefined {
  const fold = folding();
  return shellWriteDenial(command, cwd, env, controlTable(root, env), fold);
}

describe('refused: commands that change a control path', () => {
  const cases = [
    `printf '{}\\n' > .claude/settings.json`,
    `echo '{"disableAllHooks": true}' > .claude/settings.local.json`,
    `echo {} >| .claude/settings.json`,
    `echo {} >> ./.claude/../.claude/settings.json`,
    `true &> .claude/settings.json`,
    `ls 2> .claude/settings.json`,
    `echo {} > "$HOME/.claude/settings.json"`,
    `echo {} > ~/.claude/settings.json`,
    `echo {} > \${HOME}/.claude/settings.json`,
    `echo {} > cc/settings.json`,
    `echo {} | tee .claude/settings.json`,
    `echo {} | tee -a /dev/null .claude/settings.json >/dev/null`,
    `cp /tmp/x.json .claude/settings.json`,
    `cp /tmp/settings.json .claude/`,
    `cp -t .claude /tmp/settings.json`,
    `mv .claude/settings.json /tmp/`,
    `mv .claude .claude.bak`,
    `rm .claude/settings.json`,
    `rm -rf .claude`,
    `rm -rf ~/.avp`,
    `rm -rf .avp`,
    `rm -rf .avp/state`,
    `unlink .claude/settings.json`,
    `ln -sf /dev/null .claude/settings.json`,
    `ln -s .claude/settings.json s.json`,
    `install -m 644 /tmp/x .claude/settings.json`,
    // `-C` takes no value: the next word is the source, not an option's value.
    `install -C /tmp/x .claude/settings.json`,
    `install -d .claude/settings.local.json`,
    `rsync -a /tmp/evil/ .claude/`,
    `sed -i 's/avp/true/' .claude/settings.json`,
    `sed -i.bak -e 's/avp/true/' .claude/settings.json`,
    `perl -pi -e 's/avp/true/' .claude/settings.json`,
    `truncate -s 0 .claude/settings.json`,
    `dd if=/dev/null of=.claude/settings.json`,
    `chmod 000 .claude/settings.json`,
    `chmod -R a-r .claude`,
    `chown nobody ~/.claude/settings.json`,
    `git checkout HEAD~3 -- .claude/settings.json`,
    `git restore --source=HEAD~1 .claude/settings.json`,
    `git clean -fdx`,
    `cd .claude && printf '{}' > settings.json`,
    `cd .claude; cd ..; cd .claude; rm settings.json`,
    `(cd ~ && rm -rf .claude)`,
    `bash -c 'printf {} > .claude/settings.json'`,
    `sh -c "sh -c 'rm .claude/settings.json'"`,
    `eval "rm .claude/settings.json"`,
    `eval 'echo {} > ' .claude/settings.json`,
    `F=.claude/settings.json; echo {} > $F`,
    `export F=~/.claude/settings.json && rm "$F"`,
    `echo $(rm .claude/settings.json)`,
    'echo `rm .claude/settings.json`',
    `cat <(rm .claude/settings.json)`,
    `sudo rm .claude/settings.json`,
    `env -i FOO=1 rm .claude/settings.json`,
    `nohup timeout 5 rm .claude/settings.json`,
    `ls .claude/* | xargs -n1 rm`,
    `echo .claude/settings.json | xargs rm`,
    `find . -name settings.json -delete`,
    `find . -iname 'SETTINGS*' -delete`,
    `find ~ -path '*claude*' -delete`,
    `find .claude -exec rm {} \\;`,
    `python3 -c "open('.claude/settings.json','w').write('{}')"`,
    `node -e "require('fs').writeFileSync(process.env.HOME+'/.claude/settings.json','{}')"`,
    `python3 - <<'EOF'\nopen('.claude/settings.json','w').write('{}')\nEOF`,
    `bash <<'EOF'\nprintf {} > .claude/settings.json\nEOF`,
    `echo 'rm .claude/settings.json' | bash`,
    `$CMD .claude/settings.json`,
    `echo {} > $(echo .claude)/settings.json`,
    `echo {} > .cl*/settings.json`,
    `echo {} > $'\\x2eclaude/settings.json'`,
    `echo {} > .clau""de/settings.json`,
    `echo {} > .cl\\aude/settings.json`,
    `cp /tmp/avp ${bin}/avp`,
    `echo 'exit 0' > ${bin}/avp`,
    `ln -sf /bin/true ${bin}/avp`,
    `chmod -x ${bin}/avp`,
    `echo {} > .codex/hooks.json`,
    `echo {} > .gemini/settings.json`,
    `echo '[features]' > ~/.codex/config.toml`,
    `echo x > ~/.avp/trust/projects/x/accepted.json`,
    `rm -rf .avp/trust`,
    `avp deinit`,
    `vim -c ':wq' .claude/settings.json`,
    `some-tool --out=.claude/settings.json`,
    `rm .claude/settings.{json,bak}`,
    `rm ~/.clau{de,x}/settings.json`,
    `rm -rf .cla?de`,
    `rm -rf ./.c*e`,
    `echo {} > .claude/setting[s].json`,
    `mv ~/.c[l]aude ~/x`,
    `echo {} > notes.json`,
    `patch -p1 <<'EOF'\n--- a/.claude/settings.json\n+++ b/.claude/settings.json\n@@ -1 +1 @@\n-x\n+{}\nEOF`,
    `cd .claude && python3 -c "open('settings.json','w').write('{}')"`,
    `python3 -c "open('/usr/local/bin/avp','w')"`,
    `{ echo {}; } > .claude/settings.json`,
    `(echo {}) >.claude/settings.json`,
    `exec 3>.claude/settings.json`,
    `x=.cla; y=ude; rm $x$y/settings.json`,
    `set -- .claude/settings.json; rm "$1"`,
    `rename 's/json/off/' .claude/settings.json`,
    `sed -n 's/x/y/w .claude/settings.json' README.md`,
    `sed -n '1w ~/.claude/settings.json' README.md`,
    `chmod -R u-w .avp`,
    `chmod 600 ${bin}/avp`,
    `chmod -R a-w ~/.avp`,
    `git clean -fdx`,
    `find . -type f -delete`,
  ];
  for (const c of cases) {
    test(c.replaceAll('\n', '⏎'), () => {
      const why = denial(c);
      expect(why).toBeString();
    });
  }
  test('a command run from inside .claude writes by its relative name', () => {
    expect(denial(`printf '{}' > settings.json`, join(root, '.claude'))).toBeString();
  });
});

describe('allowed: reads and writes elsewhere', () => {
  const cases = [
    `cat .claude/settings.json`,
    `grep avp ~/.claude/settings.json`,
    `jq .hooks .claude/settings.json`,
    `echo "> .claude/settings.json"`,
    `echo '> .claude/settings.json' > notes.txt`,
    `cat .claude/settings.json > /tmp/backup.json`,
    `cp .claude/settings.json /tmp/backup.json`,
    // Copied out, not moved: only --remove-source-files changes the source.
    `rsync -a .claude/ /tmp/claude-backup/`,
    `rsync -av --progress ~/.avp /tmp/avp-backup`,
    `ls -la .claude ~/.avp`,
    `diff .claude/settings.json /tmp/x`,
    `printf 'shell-ran' > from-shell.txt`,
    `echo hi > src/a.ts && cat src/a.ts`,
    `rm -rf node_modules dist`,
    `cp /tmp/foo.txt .`,
    `mkdir -p .avp/validators/x && cat > .avp/validators/x/VALIDATOR.md <<'EOF'\n---\nname: x\n---\nEOF`,
    `git status && git diff .claude/settings.json`,
    `git checkout -b feature`,
    `git add .claude/settings.json && git commit -m settings`,
    `find . -name '*.tmp' -delete`,
    `find . -name '*.ts' -exec grep -l avp {} +`,
    `find . -name '*.pyc' -o -name __pycache__ -exec rm -rf {} +`,
    `sed -n 1p .claude/settings.json`,
    `sed -i 's/.claude/.config/' README.md`,
    `npx prettier --write .`,
    `chmod -R 777 . && chmod +x ${bin}/avp && chmod u+w .claude/settings.json`,
    `ls 2>/dev/null; echo done 2>&1`,
    `avp check src/a.ts`,
    `cd /tmp && echo {} > settings.json`,
    `echo {} > /tmp/hooks.json`,
    `python3 -c "import json; print(json.load(open('.vscode/settings.json')))"`,
    `python3 -c "import tomllib; tomllib.load(open('config.toml','rb'))"`,
    `node -e "console.log(require('/work/avp/package.json').version)"`,
    `cat notes.json`,
    `echo {a,b}.txt > out-{1..2}.log`,
    `ls src/*.ts > files.txt`,
    `cp src/*.ts /tmp/`,
    // Routine project maintenance that cannot lock avp out: group/other bits, owners, dry runs, empty folders.
    `chmod -R go-w .`,
    `chmod -R o= ~/.avp`,
    `chown -R $USER:$USER .`,
    `chgrp -R staff .`,
    `git clean --dry-run -fdx`,
    `git clean -ndx`,
    `find . -empty -type d -delete`,
  ];
  for (const c of cases) {
    test(c.replaceAll('\n', '⏎'), () => {
      expect(denial(c)).toBeUndefined();
    });
  }
});

describe('PowerShell (Copilot): a command naming a control path must only read it', () => {
  test('writes refused, reads pass', () => {
    expect(powershellWriteDenial("Set-Content -Path .claude\\settings.json -Value '{}'")).toBeString();
    expect(powershellWriteDenial("'{}' | Out-File .github/hooks/avp.json")).toBeString();
    expect(powershellWriteDenial('Remove-Item -Recurse $HOME\\.avp')).toBeString();
    expect(powershellWriteDenial('Get-Content .claude\\settings.json | ConvertFrom-Json')).toBeUndefined();
    expect(powershellWriteDenial("Set-Content notes.txt 'hi'")).toBeUndefined();
  });
  test('every statement must read: one writer among readers is refused; empty statements and blanks are none', () => {
    expect(powershellWriteDenial('Get-Content .claude/settings.json; Remove-Item .claude/settings.json')).toBeString();
    expect(powershellWriteDenial('Get-Content .claude/settings.json > copy.json')).toBeString();
    expect(powershellWriteDenial('Get-Content .claude/settings.json;')).toBeUndefined();
    expect(
      powershellWriteDenial('Test-Path .claude/settings.json &&  Get-Content .claude/settings.json'),
    ).toBeUndefined();
  });
});

describe('git index flags that would hide edits from the change tracking', () => {
  const refused = [
    'git update-index --assume-unchanged src/a.ts',
    'git update-index --skip-worktree src/a.ts',
    'git -C src update-index --assume-unchanged a.ts && echo x >> src/a.ts',
    'true; git update-index --really-refresh --skip-worktree -- src/a.ts',
  ];
  for (const c of refused) {
    test(`refused: ${c}`, () => {
      expect(denial(c)).toContain('report files unchanged whatever is written to them');
    });
  }
  const allowed = [
    'git update-index --refresh',
    'git update-index --no-assume-unchanged src/a.ts',
    'git update-index --no-skip-worktree src/a.ts',
    'git update-index --chmod=+x scripts/run.sh',
    'git log --grep=--assume-unchanged',
  ];
  for (const c of allowed) {
    test(`allowed: ${c}`, () => {
      expect(denial(c)).toBeUndefined();
    });
  }
});
