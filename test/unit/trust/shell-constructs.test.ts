/**
 * The shell guard construct by construct, each as a pair: the command that reaches a control path through it
 * (refused) and its twin that does not (passes). A guard that stops reading a construct lets the first through; one
 * that reads it too eagerly refuses the second — a false alarm on an everyday command.
 */
import { describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { controlTable, folding } from '../../../src/trust/control-paths.ts';
import { shellWriteDenial } from '../../../src/trust/shell-writes.ts';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'avp-constructs-')));
const root = join(base, 'project');
const home = join(base, 'home');
for (const d of [join(root, '.claude'), join(root, '.avp/validators'), join(root, 'src'), join(home, '.claude')])
  mkdirSync(d, { recursive: true });
writeFileSync(join(root, '.claude/settings.json'), '{"hooks":{}}\n');
writeFileSync(join(home, '.claude/settings.json'), '{"hooks":{}}\n');
writeFileSync(join(root, 'src/a.ts'), 'x\n');
// Folders named after who runs the command, leading into the project's .claude: `$(whoami)` and `$(id -u)` decide.
const me = userInfo();
symlinkSync(join(root, '.claude'), join(base, `user-${me.username}`));
symlinkSync(join(root, '.claude'), join(base, `uid-${me.uid}`));
// Numbered folders leading into .claude, reached by brace ranges.
for (const n of ['n2', 'n10']) symlinkSync(join(root, '.claude'), join(base, n));
// A template holding a .claude folder of its own, copied in by its trailing-slash name.
mkdirSync(join(base, 'tpl/.claude'), { recursive: true });
writeFileSync(join(base, 'tpl/.claude/settings.json'), '{}\n');
const env = { HOME: home, AVP_HOME: join(home, '.avp'), PATH: '/usr/bin:/bin', CLAUDE_PROJECT_DIR: root };

function denial(command: string, cwd = root, given: Record<string, string> = env): string | undefined {
  return shellWriteDenial(command, cwd, given, controlTable(root, given), folding());
}

/** [refused, passes]: the same construct, once reaching a control path and once not. */
function pairs(title: string, cases: [string, string][]) {
  describe(title, () => {
    for (const [refused, passes] of cases) {
      test(`refused: ${refused.replaceAll('\n', '⏎')}`, () => expect(denial(refused)).toBeString());
      test(`passes: ${passes.replaceAll('\n', '⏎')}`, () => expect(denial(passes)).toBeUndefined());
    }
  });
}

pairs('shells: each one reads its -c script again', [
  ...['zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish'].map((sh): [string, string] => [
    `${sh} -c 'echo {} > .claude/settings.json'`,
    `${sh} -c 'echo {} > src/out.json'`,
  ]),
  [`busybox sh -c 'rm .claude/settings.json'`, `busybox sh -c 'rm src/a.ts'`],
  [`bash -ec 'rm .claude/settings.json'`, `bash -ec 'rm src/a.ts'`],
  [`bash <<< 'rm .claude/settings.json'`, `bash <<< 'rm src/a.ts'`],
  [`bash ./install.sh .claude/settings.json`, `bash ./install.sh src/a.ts`],
  [`sh ./x.sh # .claude`, `sh ./x.sh`],
]);

pairs('interpreters: code that names a control path', [
  [`perl -e 'unlink ".claude/settings.json"'`, `perl -e 'print 1'`],
  [`ruby <<'EOF'\nFile.delete('.claude/settings.json')\nEOF`, `ruby <<'EOF'\nputs 1\nEOF`],
  [`awk 'BEGIN { print "{}" > ".claude/settings.json" }'`, `awk '{ print $1 }' src/a.ts`],
]);

pairs('bare names count where control files are, or where the guard lost track', [
  [`cd .claude && python3 -c "open('settings.json','w')"`, `cd src && python3 -c "open('settings.json','w')"`],
  [`cd "$NOWHERE" && python3 -c "open('settings.json','w')"`, `cd /tmp && python3 -c "open('settings.json','w')"`],
  [`cd .claude && sed -n 'w settings.json' /dev/null`, `cd src && sed -n 'w settings.json' /dev/null`],
]);

pairs('who runs the command: $(whoami), $(id -u) expand to them', [
  [`echo {} > ${base}/user-$(whoami)/settings.json`, `echo {} > ${base}/uid-$(whoami)/settings.json`],
  [`echo {} > ${base}/user-$( whoami )/settings.json`, `echo .claude/settings.json > /tmp/list-$( whoami ).txt`],
  [`echo {} > ${base}/user-$(id -un)/settings.json`, `echo {} > ${base}/uid-$(id -un)/settings.json`],
  [`echo {} > ${base}/uid-$(id -u)/settings.json`, `echo {} > ${base}/user-$(id -u)/settings.json`],
  [`echo {} > ${base}/uid-$(id  -u)/settings.json`, `echo .claude/settings.json > /tmp/list-$(id -g).txt`],
  [`echo {} > ${base}/uid-$(id -g)/settings.json`, `echo {} > ${base}/user-$(id -g)/settings.json`],
  // Anything else a substitution prints is unknown: refused only in a command naming a control path.
  [`echo {} > $(hostname)/.claude/settings.json`, `echo {} > /tmp/list-$(hostname).txt`],
]);

pairs('variables: set, exported, read, looped over', [
  [`D=.claude; rm "$D/settings.json"`, `D=src; rm "$D/a.ts"`],
  ...['export', 'declare', 'typeset', 'local', 'readonly'].map((set): [string, string] => [
    `${set} D=${base}/uid-${me.uid}; rm "$D/settings.json"`,
    `${set} D=.claude; cat "$D/settings.json"`,
  ]),
  [`D=src; D=.claude; rm "$D/settings.json"`, `D=.claude; D=src; rm "$D/a.ts"`],
  [`read D; rm "$D/settings.json" # .claude`, `read D; rm "$D/a.ts"`],
  [`mapfile D; rm -rf "$D" .claude`, `mapfile D; rm -rf "$D"`],
  [`readarray D; rm -rf "$D" .claude`, `readarray D; rm -rf "$D"`],
  [`for d in src .claude; do rm -rf "$d"; done`, `for d in src dist; do rm -rf "$d"; done`],
  [`select d in src .claude; do rm -rf "$d"; done`, `select d in .claude/settings.json; do cat "$d"; done`],
  [`for d in src .claude; do rm -rf "$d"; done`, `for d in .claude/settings.json; do cat "$d"; done`],
  [`for d; do rm -rf "$d"; done # .claude`, `for d in src; do rm -rf "$d"; done # .claude`],
  [`for d in src $X; do rm -rf "$d/settings.json"; done # .claude`, `for d in src $X; do rm -rf "$d/a.ts"; done`],
  [`echo {} > "$PWD/.claude/settings.json"`, `echo {} > "$PWD/src/out.json"`],
  [`echo {} > "\${UNSET_DIR:-.claude}/settings.json"`, `echo {} > "\${UNSET_DIR:-src}/settings.json"`],
  [`echo {} > "\${UNSET_DIR:-$HOME/.claude}/settings.json"`, `echo {} > "\${UNSET_DIR:-$HOME/src}/settings.json"`],
  [`rm -rf "$UNSET_DIR"/.claude`, `rm -rf "$UNSET_DIR"/tmp/build`],
  [`rm -rf ~nobody/x .claude`, `rm -rf ~nobody/x src`],
]);

pairs('cd, pushd and subshells: the folder each command runs in', [
  [`cd .claude; rm settings.json`, `cd src; rm settings.json`],
  [`pushd .claude; rm settings.json`, `pushd .claude && cat settings.json`],
  [`cd src; cd; rm .claude/settings.json`, `cd; cd src; rm .claude/settings.json`],
  [`cd -P .claude && rm settings.json`, `cd -P src && rm settings.json`],
  [`cd .claude; cd -; rm settings.json`, `cd src && rm settings.json`],
  [`(cd src); rm .claude/settings.json`, `(cd src; rm .claude/settings.json)`],
]);

pairs('keywords and compound commands: the command after them is read', [
  ...['{', '!', 'if', 'then', 'elif', 'else', 'do', 'while', 'until'].map((kw): [string, string] => [
    `${kw} rm .claude/settings.json`,
    `${kw} cat .claude/settings.json`,
  ]),
  [`case x in x) rm .claude/settings.json;; esac`, `case .claude in *) true;; esac`],
  [`f() { rm .claude/settings.json; }`, `f() { rm src/a.ts; }`],
  [`function f { rm .claude/settings.json; }; f`, `function f { cat .claude/settings.json; }; f`],
  [`function f() { rm .claude/settings.json; }`, `function f() { rm src/a.ts; }`],
]);

pairs('redirections: what writes and what only reads', [
  [`echo {} > .claude/settings.json`, `echo {} < .claude/settings.json`],
  [`echo {} >> .claude/settings.json`, `cat < .claude/settings.json > /tmp/copy.json`],
  [`echo {} &>> .claude/settings.json`, `echo {} 2>&1`],
  [`echo {} <> .claude/settings.json`, `echo {} >&2`],
  [`echo {} >& .claude/settings.json`, `echo {} >&-`],
  [`cat <<.claude/settings.json\nx\n.claude/settings.json\n > .claude/settings.json`, `cat <<EOF > src/x\n{}\nEOF`],
  [`cat <<-X > .claude/settings.json\n\tx\nX`, `cat <<-.claude/settings.json\n\tx\n.claude/settings.json`],
  [`echo {} > /dev/null > .claude/settings.json`, `echo {} > /dev/null 2>/dev/stderr >/dev/tty >/dev/fd/3`],
]);

pairs('eval, patches and sed scripts: the text they act on', [
  [`eval rm .claude/settings.json`, `eval cat .claude/settings.json`],
  [`eval 'cd .claude' '&&' 'rm settings.json'`, `eval 'cd src' '&&' 'rm settings.json'`],
  [`patch -p1 <<< '+++ b/.claude/settings.json'`, `patch -p1 <<< '+++ b/src/a.ts'`],
  [`git apply <<'EOF'\n+++ b/.claude/settings.json\nEOF`, `git apply <<'EOF'\n+++ b/src/a.ts\nEOF`],
  [`git am <<'EOF'\n+++ b/.claude/settings.json\nEOF`, `git log <<'EOF'\n+++ b/.claude/settings.json\nEOF`],
  [`patch <<< '+++ b/.claude/settings.json'`, `cat apply <<< '+++ b/.claude/settings.json'`],
  [`sed 'w .claude/settings.json' /dev/null`, `echo 'w .claude/settings.json'`],
  [`gsed -n 'w .claude/settings.json' src/a.ts`, `gsed -n 's/.claude/x/p' src/a.ts`],
  [`sed -e 'w .claude/settings.json' src/a.ts`, `sed -e 's/.claude/x/' src/a.ts`],
  [`sed --expression 'w .claude/settings.json' src/a.ts`, `sed --expression 's/.claude/x/' src/a.ts`],
  [`sed --expression='w .claude/settings.json' src/a.ts`, `sed --expression='s/.claude/x/' src/a.ts`],
  [`sed -e p -e 'w .claude/settings.json' src/a.ts`, `sed -e p -e 's/.claude/x/' src/a.ts`],
  [`sed -n 'W .claude/settings.json' src/a.ts`, `sed -n 's/x/.claude/p' src/a.ts`],
  // With -e the operands are files read, whatever their names; without, the first is the script.
  [`sed 'w .claude/settings.json' src/a.ts`, `sed -e 1p src/a.ts 'w .claude/settings.json'`],
]);

pairs('git: the folder -C names, and what a subcommand changes', [
  [`git -C .claude checkout settings.json`, `git -C src checkout settings.json`],
  [`git -C "$UNSET_DIR/.claude" checkout settings.json`, `git -C src checkout settings.json a.ts`],
  [`git checkout -- .claude/settings.json`, `git checkout -- src/a.ts`],
  [`git update-index --assume-unchanged src/a.ts`, `git update-index --really-refresh`],
]);

pairs('avp itself: its hooks are removed only by the user', [
  [`avp deinit`, `avp init --help`],
  [`avp uninstall`, `avp list`],
  [`/usr/local/bin/avp deinit --all`, `avp check src/a.ts`],
]);

pairs('programs the guard does not know: their arguments, options included', [
  [`some-tool --out=.claude/settings.json`, `some-tool --out=src/out.json`],
  [`some-tool --out= .claude/settings.json`, `some-tool --out= src/a.ts`],
  [`some-tool -o.claude/settings.json`, `some-tool -o src/a.ts`],
  [`some-tool "$UNSET_DIR/.claude"`, `some-tool "$UNSET_DIR/src"`],
  [`some-tool "$(pwd)/.claude/settings.json"`, `some-tool "$(pwd)/src/a.ts"`],
  [`npx rimraf ./.claude`, `npx rimraf ./src .`],
  [`npx rimraf ~/.avp`, `npx prettier --write . src .claude/commands/review.md`],
  [`some-tool ~/.claude/settings.json`, `some-tool ~/src`],
  [`cd .claude && some-tool settings.json`, `cd src && some-tool settings.json`],
  [`$TOOL .claude/settings.json`, `$TOOL src/a.ts`],
  [`$(which rm) .claude/settings.json`, `$(which rm) src/a.ts`],
]);

pairs('wrappers: the command they run', [
  [`env -C .claude rm settings.json`, `env -C src rm settings.json`],
  [`env -S 'rm .claude/settings.json'`, `env -S 'rm src/a.ts'`],
  [`env --split-string='rm .claude/settings.json'`, `env --split-string='rm src/a.ts'`],
  [`env A=1 B=2 rm .claude/settings.json`, `env A=1 B=2 rm src/a.ts`],
  [`env -u HOME rm .claude/settings.json`, `env -u HOME rm src/a.ts`],
  [`env -- rm .claude/settings.json`, `env -- rm src/a.ts`],
  [`timeout 5 rm .claude/settings.json`, `timeout 5 rm src/a.ts`],
  [`timeout -s KILL 5 rm .claude/settings.json`, `timeout -s KILL 5 rm src/a.ts`],
  [`timeout 5s rm .claude/settings.json`, `timeout 5s cat .claude/settings.json`],
  [`sudo -u root rm .claude/settings.json`, `sudo -u root rm src/a.ts`],
  [`nice -n 5 rm .claude/settings.json`, `nice -n 5 rm src/a.ts`],
  [`xargs -n1 rm < list.txt # .claude`, `xargs -n1 rm < list.txt`],
  [`xargs -I{} cp {} .claude/`, `xargs -I{} cp {} src/`],
  [`watch -n 1 rm .claude/settings.json`, `watch -n 1 rm src/a.ts`],
  [`watch 'rm .claude/settings.json'`, `watch 'cat .claude/settings.json'`],
  [`command rm .claude/settings.json`, `command -v rm`],
  [`exec -a x rm .claude/settings.json`, `exec -a x rm src/a.ts`],
]);

pairs('find: only a branch that writes, limited by name or not', [
  [`find . -name '*.json' -delete`, `find . -name '*.tmp' -delete`],
  [`find . -user root -delete`, `find . -user root -print`],
  [`find . -size +1k -delete`, `find . -size +1k -name '*.log' -delete`],
  [`find . -mtime +1 -exec rm {} +`, `find . -mtime +1 -exec cat {} +`],
  [`find . -newer src/a.ts -delete`, `find . -newer src/a.ts -name '*.o' -delete`],
  [`find . -newermt 2020-01-01 -delete`, `find . -newermt 2020-01-01 -name '*.o' -delete`],
  [`find . -regex '.*' -delete`, `find . -regex '.*' -name '*.o' -delete`],
  [`find . -printf '%p' -delete`, `find . -printf '%p' -name '*.o' -delete`],
  [`find . -fprint .claude/settings.json`, `find . -fprint /tmp/list.txt -name x`],
  [`find . -fprintf /tmp/x '%p' -o -delete`, `find . -fprintf /tmp/x '%p' -name '*.o'`],
  [`find . -name '*.o' , -delete`, `find . -name '*.o' , -name '*.a' -delete`],
  [`find . -not -name '*.o' -delete`, `find . -empty -delete`],
  [`find . ! -name '*.o' -delete`, `find . \\( -name '*.o' -o -name '*.a' \\) -delete`],
  [`find . \\( -name '*.o' -o -type f \\) -delete`, `find . -iname '*.O' -delete`],
  [`find . -iname 'SETTINGS.JSON' -delete`, `find . -name 'SETTINGS.JSON' -delete`],
  [`find . -name 'settings.?son' -delete`, `find . -name 'settings.?' -delete`],
  [`find . -execdir rm {} \\;`, `find . -execdir cat {} \\;`],
  [`find . -ok rm {} \\;`, `find . -okdir cat {} \\;`],
  [`find . -path ./src -prune -o -delete`, `find . -path ./src -prune -o -name '*.o' -delete`],
  [`find .claude -delete`, `find src -delete`],
]);

pairs('readers: every one passes on a control file, as its writing twin does not', [
  [`shred .claude/settings.json`, `sha256sum .claude/settings.json && b2sum .claude/settings.json`],
  [`truncate -s0 .claude/settings.json`, `xxd .claude/settings.json | hexdump -C && strings .claude/settings.json`],
  [
    `sponge .claude/settings.json`,
    `tac .claude/settings.json; rev .claude/settings.json; comm a .claude/settings.json`,
  ],
]);

pairs('a folder copied in by its trailing-slash name lands under that name', [
  [`cp -r ${base}/tpl/.claude/ ./`, `cp -r ${base}/tpl/.claude/ ./backup/`],
]);

pairs("$'…' escapes spell what they stand for: a separator, or a character of another file's name", [
  [`bash -c $'rm .claude/settings.json\\nls'`, `rm $'.claude/settings.json\\r'`],
  [`bash -c $'rm\\t.claude/settings.json'`, `rm $'.claude/settings.json\\a' $'.claude/settings.json\\b'`],
  [`rm $'.claude\\x2fsettings.json'`, `rm $'.claude/settings.json\\e' $'.claude/settings.json\\E'`],
  [`rm $'\\056claude/settings.json'`, `rm $'\\056claude/settings.jso'`],
  [`rm $'\\u002eclaude/settings.json'`, `rm $'\\u002eclaude/settings.jsonx'`],
  [`rm $'\\U0000002eclaude/settings.json'`, `rm $'\\U0000002eclaude/settings.jsonx'`],
]);

pairs('separators: tabs and parentheses end a word', [
  [`rm\t.claude/settings.json`, `rm\tsrc/a.ts`],
  [`(rm .claude/settings.json)`, `(rm src/a.ts)`],
  [`true&&rm .claude/settings.json`, `true&&rm src/a.ts`],
  [`true;rm .claude/settings.json`, `true;rm src/a.ts`],
  [`true|rm .claude/settings.json`, `true|rm src/a.ts`],
]);

pairs('quotes, ~user, $PWD and loops: what the guard can know of a word', [
  [`rm .claude/settings.js*`, `rm '.claude/settings.js*' ".claude/settings.js?"`],
  [`echo .claude > ~nobody/list.txt`, `echo .claude > ~/list.txt`],
  [`cd .claude && echo {} > "$PWD/settings.json"`, `echo .claude > "$PWD/list.txt"`],
  [
    `for a in 1 2 3 4 5 6 7 8 9; do for b in 1 2 3 4 5 6 7 8 9; do rm "$a$b"; done; done # .claude`,
    `for a in 1 2 3 4 5 6 7 8; do for b in 1 2 3 4 5 6 7 8; do rm "$a$b"; done; done # .claude`,
  ],
  [`for d in a b; do rm "$(hostname)/$d"; done # .claude`, `for d in a b; do rm "$(hostname)/$d"; done`],
]);

test('without HOME, ~ is the home folder the system names', () => {
  const { HOME: _, ...noHome } = env;
  expect(denial(`echo {} > ~/.claude/settings.json`, root, noHome)).toBeString();
  expect(denial(`echo {} > ~/notes.txt`, root, noHome)).toBeUndefined();
});

pairs("an unquoted variable's value is split at blanks and globbed, as sh does; a quoted one is one word", [
  [`F=.cla*; rm -rf $F`, `F=.cla*; rm -rf "$F"`],
  [`F='.claude/settings.js*'; rm $F`, `F='.claude/settings.js*'; rm "$F"`],
  [`F='x .claude'; rm -rf $F`, `F='x .claude'; rm -rf "$F"`],
  [`F='x .claude'; G=$F; rm -rf $G`, `F='x .claude'; G=$F; rm -rf "$G"`],
  [`F=' .claude'; rm -rf $F`, `F=' '; rm -rf $F`],
]);

pairs('${X:-word}: the word, when the guard can read it', [
  [`echo .claude > "\${UNSET:-$(hostname)}/list.txt"`, `echo .claude > "\${UNSET:-/tmp}/list.txt"`],
  [`echo .claude > "\${UNSET:-a b}/list.txt"`, `echo .claude > "\${UNSET:-}/tmp/list.txt"`],
  [`echo .claude > "\${UNSET:-;}/list.txt"`, `echo {} > "/tmp/$(hostname)\${UNSET:-x}"`],
]);

pairs('what an unknown program is given: settings, sources it cannot know, a folder the guard lost', [
  [`make install DEST=.claude/settings.json`, `make install DEST=dist/out.json`],
  [`some-tool -Dout=.claude/settings.json`, `some-tool -Dout=dist/out.json`],
  [`cp "$(hostname)" .claude/`, `cp "$(hostname)" src/`],
  [`cd "$NOWHERE"; some-tool ./.claude`, `cd "$NOWHERE"; some-tool ./src`],
]);

pairs('$(…) ends at its own parenthesis: quoted or escaped ones inside do not close it', [
  [`x=$(echo ')'; rm .claude/settings.json)`, `x=$(echo ')'; rm src/a.ts)`],
  [`x=$(echo ")"; rm .claude/settings.json)`, `x=$(echo ")"; rm src/a.ts)`],
  [`x=$(echo \\); rm .claude/settings.json)`, `x=$(echo \\); rm src/a.ts)`],
  [`x=$(echo "a\\")"; rm .claude/settings.json)`, `x=$(echo "a\\")"; rm src/a.ts)`],
  [`x=$( (true) ; rm .claude/settings.json)`, `x=$( (true) ; rm src/a.ts)`],
]);

pairs('unterminated quotes and expansions: unreadable, refused only when the command names a control path', [
  [`echo 'x > .claude/settings.json`, `echo 'x > src/out.txt`],
  [`echo "x > .claude/settings.json`, `echo "x > src/out.txt`],
  [`echo $'x > .claude/settings.json`, `echo $'x > src/out.txt`],
  [`echo \${X > .claude/settings.json`, `echo \${X > src/out.txt`],
  [`echo $(rm .claude/settings.json`, `echo $(rm src/a.ts`],
]);

pairs('quoting decides what globs, and where a heredoc body is data', [
  [`rm '.claude/settings.js'*`, `rm '.claude/settings.js*'`],
  [`rm .claude/settings.js*`, `rm .claude/settings.js\\*`],
  [`rm .claude/settings\\\n.json`, `rm src/a\\\n.ts`],
  [`bash <<-X\n\trm .claude/settings.json\nX`, `cat <<-X\n\trm .claude/settings.json\nX`],
  [`bash <<X\nrm .claude/settings.json\nX`, `cat <<X\nrm .claude/settings.json\nX`],
]);

pairs('nesting past what the guard reads is refused when it names a control path', [
  [
    `eval eval eval eval eval eval eval eval cat .claude/settings.json`,
    `eval eval eval eval eval cat .claude/settings.json`,
  ],
  [`echo x > .claude/settings.json || true`, `echo x > .claude || true`],
]);

pairs('braces and globs: each word they make is judged, and a glob matches what sh would', [
  [`rm -rf .cl{a..a}ude`, `rm -rf .cl{b..c}ude`],
  [`rm -rf .cl{c..a}ude`, `rm -rf .cl{d..b}ude`],
  [`rm ${base}/n{1..3}/settings.json`, `rm ${base}/n{3..4}/settings.json`],
  [`rm ${base}/n{3..1}/settings.json`, `rm ${base}/n{5..3}/settings.json`],
  [`rm ${base}/n{9..11}/settings.json`, `rm ${base}/n{11..12}/settings.json`],
  [`rm -rf .{x,cl{a,b}ude}`, `rm -rf .{x,cl{b,c}ude}`],
  [`rm -rf .cl[!x]ude`, `rm -rf .cl[!a]ude`],
  [`rm -rf .cl[^x]ude`, `rm -rf .cl[^a]ude`],
  [`rm -rf .cl[a-b]ude`, `rm -rf src/[abc`],
  [`rm -rf .*`, `rm -rf *`],
  [`rm -rf ${root}/.cla*`, `rm -rf ${root}/sr*`],
  [`echo .claude > nomatch*.txt`, `echo .claude > list.txt`],
]);

pairs('$PWD is where the command is; a fallback word the guard cannot read; a source name only sh knows', [
  [`cd .avp && rm -rf "$PWD/logs"`, `cd src && rm -rf "$PWD/logs"`],
  // PWD is never unset: in a folder the guard lost track of, `$PWD/avp` may be avp's binary.
  [`cd "$(dirname "$(command -v avp)")" && rm -f "$PWD/avp"`, `cd /tmp && rm -f "$PWD/avp"`],
  [`cd "$NOWHERE"; echo {} > .claude/settings.json`, `cd "$NOWHERE"; echo .claude > /tmp/list.txt`],
  [`echo .claude > "\${UNSET:- }/list.txt"`, `echo .claude > "\${UNSET:-/tmp}/list.txt"`],
  [`echo .claude > "\${UNSET:-~nobody}/list.txt"`, `echo .claude > "\${UNSET:-~}/list.txt"`],
  [`echo .claude > "\${UNSET:-'x}/list.txt"`, `echo .claude > "\${UNSET:-x}/list.txt"`],
  [`cp "$UNSET_DIR/settings.json" ${base}/uid-${me.uid}/`, `cp "$UNSET_DIR/settings.json" ${base}/`],
]);

test("an environment variable's value splits and globs unquoted, as a set one does", () => {
  const given = { ...env, GLOBBED: '.cla*', SPACED: 'x .claude' };
  expect(denial(`rm -rf $GLOBBED`, root, given)).toBeString();
  expect(denial(`rm -rf "$GLOBBED"`, root, given)).toBeUndefined();
  expect(denial(`rm -rf $SPACED`, root, given)).toBeString();
  expect(denial(`rm -rf "$SPACED"`, root, given)).toBeUndefined();
});

test('an empty variable with a fallback is unknown: ${X-w} and ${X:-w} differ there, and the guard reads both alike', () => {
  const given = { ...env, EMPTY: '' };
  expect(denial(`echo .claude > "\${EMPTY:-/tmp}/list.txt"`, root, given)).toBeString();
  expect(denial(`echo {} > "\${EMPTY:-/tmp}/list.txt"`, root, given)).toBeUndefined();
});

pairs("find: a primary's value is never an operator or a name test, and -exec … + ends its command", [
  [`find . -printf -name x -delete`, `find . -name x -printf -name -delete`],
  [`find . -group -name x -delete`, `find . -name x -group -name -delete`],
  [`find . -name '*.o' -exec rm {} + -o -delete`, `find . -name '*.o' -exec rm {} + -o -name '*.a' -delete`],
  [`find . -name x -o -fprint .claude/settings.json`, `find . -name x -o -print`],
]);

pairs('the lexer: double-quote escapes, backquotes, process substitution, comments, heredocs', [
  [`rm ".claude/settings.json"`, `rm ".claude/settings\\.json"`],
  [`rm ".claude/settings\\\n.json"`, `rm ".claude/settings\\\nx.json"`],
  [`echo "\`rm .claude/settings.json\`"`, `echo "\`cat .claude/settings.json\`"`],
  [`echo \`rm .claude/settings.json\``, `echo "\\$(rm .claude/settings.json)"`],
  [`echo "\\"\`rm .claude/settings.json\`"`, `echo "\\\\\\$HOME" > /tmp/x`],
  [`tee >(rm .claude/settings.json) < /dev/null`, `diff <(cat .claude/settings.json) /tmp/x`],
  [`echo x#; rm .claude/settings.json`, `echo hi # ; rm .claude/settings.json`],
  [`cat <<A\nx\nA\nrm .claude/settings.json`, `cat <<A <<B\nx\nA\nrm .claude/settings.json\nB`],
  [`cat <<-A\n\tx\n\tA\nrm .claude/settings.json`, `cat <<A\n\tx\n\tA\nrm .claude/settings.json\nA`],
  [`X=~/.claude/settings.json; rm "$X"`, `X=~/notes.txt; rm "$X"`],
  [`echo "2"> .claude/settings.json`, `echo 2>/dev/null`],
  [`echo x &> .claude/settings.json`, `echo x & cat .claude/settings.json`],
]);

pairs('how deep the guard reads: six nested evals are read, a seventh is judged by the names it holds', [
  [
    `eval eval eval eval eval eval eval cat .claude/settings.json`,
    `eval eval eval eval eval eval cat .claude/settings.json`,
  ],
  [
    `eval eval eval eval eval eval eval eval rm .claude/settings.json`,
    `eval eval eval eval eval eval eval eval cat src/a.ts`,
  ],
  [`echo x >& .claude/settings.json`, `echo x >& .claude || true`],
]);

test('a refusal says what the command does to which path', () => {
  expect(denial(`echo {} > .claude/settings.json`)).toStartWith('it writes .claude/settings.json: ');
  expect(denial(`echo {} >& .claude/settings.json`)).toStartWith('it writes .claude/settings.json: ');
  expect(denial(`rm .claude/settings.json`)).toStartWith('it changes .claude/settings.json: ');
  expect(denial(`ln -s /dev/null .claude/settings.json`)).toStartWith('it links .claude/settings.json: ');
  expect(denial(`git -C .claude checkout settings.json`)).toStartWith('it lets git change settings.json: ');
  expect(denial(`find .claude -delete`)).toStartWith('it lets find change what it finds under .claude: ');
});

pairs('nested $(…) past what the guard reads is judged by the names it holds', [
  [
    `echo $(echo $(echo $(echo $(echo $(echo $(echo $(cat .claude/settings.json)))))))`,
    `echo $(echo $(echo $(echo $(echo $(echo $(cat .claude/settings.json))))))`,
  ],
]);

// Through a link into .claude whose path names no control folder: the lexer's reading alone decides these.
const L = `${base}/uid-${me.uid}`;
symlinkSync(join(home, '.claude'), join(home, 'hl'));
pairs('the lexer, where no control name in the text would refuse the command anyway', [
  [`x=$(echo ')'; rm ${L}/settings.json)`, `x=$(echo ')'; rm ${L}/other.json)`],
  [`x=$(echo ")"; rm ${L}/settings.json)`, `x=$(echo ")"; rm ${L}/other.json)`],
  [`x=$(echo \\); rm ${L}/settings.json)`, `x=$(echo \\); rm ${L}/other.json)`],
  [`x=$(echo "a\\")"; rm ${L}/settings.json)`, `x=$(echo "a\\")"; rm ${L}/other.json)`],
  [`x=$( (true) ; rm ${L}/settings.json)`, `x=$( (true) ; rm ${L}/other.json)`],
  [`echo \`rm ${L}/settings.json\``, `echo \`rm ${L}/other.json\``],
  [`echo "\`rm ${L}/settings.json\`"`, `echo "\\\`rm ${L}/settings.json\\\`"`],
  [`tee >(rm ${L}/settings.json) < /dev/null`, `tee >(rm ${L}/other.json) < /dev/null`],
  [`cat <(rm ${L}/settings.json)`, `cat <(cat ${L}/settings.json)`],
  [`echo x#; rm ${L}/settings.json`, `echo x # ; rm ${L}/settings.json`],
  [`cat <<A\nx\nA\nrm ${L}/settings.json`, `cat <<A\nrm ${L}/settings.json\nA`],
  [`cat <<-A\n\tx\n\tA\nrm ${L}/settings.json`, `cat <<-A\n\trm ${L}/settings.json\n\tA`],
  [`cat <<A <<B\nx\nA\ny\nB\nrm ${L}/settings.json`, `cat <<A <<B\nx\nA\nrm ${L}/settings.json\nB`],
  [`echo $((1+2)); rm ${L}/settings.json`, `echo $((1+2)) > /tmp/n.txt`],
  [`rm $'${L}/settings.json'`, `rm $'${L}/settings.json\\a'`],
  [`rm "${L}/settings.json"`, `rm "${L}/settings\\.json"`],
  [`X=~/hl/settings.json; rm "$X"`, `X=a~/hl/settings.json; rm "$X"`],
  [`echo x 2>${L}/settings.json`, `echo x 2>/tmp/err.txt`],
  [`echo x &>${L}/settings.json`, `echo x & cat ${L}/settings.json`],
  [`true\nrm ${L}/settings.json`, `true\ncat ${L}/settings.json`],
  [`rm '${L}/settings.json'`, `rm '${L}/settings.json`],
]);

pairs(
  "avp's binary by its bare name, in a folder the guard lost track of: only as a target, never as the command run",
  [
    [`cd "$(dirname "$(command -v avp)")" && rm avp`, `cd "$(mktemp -d)" && avp list > out.txt`],
    [`cd "$(dirname "$(command -v avp)")" && echo 'exit 0' > avp`, `cd "$(mktemp -d)" && rm -rf avp-build`],
    [`cd "$(dirname "$(command -v avp)")" && ln -sf /bin/true avp`, `cd src && rm avp`],
    [`cd "$(dirname "$(command -v avp)")" && some-tool avp.exe`, `cd "$(mktemp -d)" && some-tool avpx`],
  ],
);

pairs('wrappers, shells and sed scripts: what they run is read, so a reader inside them passes', [
  [`sudo -C 3 rm .claude/settings.json`, `env -- cat .claude/settings.json`],
  [`env A=1 rm .claude/settings.json`, `env A=1 cat .claude/settings.json`],
  [`timeout 5 rm .claude/settings.json`, `timeout 5 cat .claude/settings.json`],
  [`timeout -s KILL 5 rm .claude/settings.json`, `timeout -s KILL 5 cat .claude/settings.json`],
  [`env -C .claude rm settings.json`, `env -C .claude cat settings.json`],
  [`env -S 'rm .claude/settings.json'`, `env -S 'cat .claude/settings.json'`],
  [`env --split-string='rm .claude/settings.json'`, `env --split-string='cat .claude/settings.json'`],
  [`watch 'rm .claude/settings.json'`, `watch -n 1 cat .claude/settings.json`],
  [`bash -c 'rm .claude/settings.json'`, `bash -c 'cat .claude/settings.json'`],
  [`bash <<< 'rm .claude/settings.json'`, `bash <<< 'cat .claude/settings.json'`],
  [`bash <<'EOF'\nrm .claude/settings.json\nEOF`, `bash <<'EOF'\ncat .claude/settings.json\nEOF`],
  [`sh -c 'rm "$0"' .claude/settings.json`, `bash -c`],
  [`sed -n -e 'w /tmp/x' -e 'w .claude/settings.json' src/a.ts`, `sed -n -e 'w /tmp/x' -e 'w /tmp/y' src/a.ts`],
  [`$(true)cat .claude/settings.json`, `cat .claude/settings.json`],
]);
