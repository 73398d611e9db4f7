/**
 * protected-files: the files each command writes, case by case (./commands-files.test.ts covers the common ones).
 * A missed write is a protected file changed without a word; an invented one only blocks a harmless command: every
 * case pins the exact list. Directories that must exist on disk (`cp key dir`) are real temporary folders.
 */
import { describe, expect, test } from 'bun:test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { shellWrites } from '../../validators/protected-files/scripts/writes.ts';
import { tempDir } from '../support/run-avp.ts';

const writes = (cmd: string, cwd = '/work/app', home = '/home/dev', root = '/work/app') =>
  shellWrites(cmd, cwd, home, root);
/** Each command with the exact paths it writes (relative ones under /work/app). */
const expectWrites = (cases: Array<[string, string[]]>) => {
  for (const [cmd, paths] of cases)
    expect({ cmd, w: writes(cmd) }).toStrictEqual({
      cmd,
      w: paths.map((p) => (p.startsWith('/') ? p : `/work/app/${p}`)),
    });
};

describe('protected-files: redirections', () => {
  test('every writing operator writes its target; reading, descriptors and devices do not', () => {
    expectWrites([
      ['echo a > a; echo b >> b; echo c >| c', ['a', 'b', 'c']],
      ['make &> d; make &>> e; exec 3<> f', ['d', 'e', 'f']],
      ['make 2> err.log', ['err.log']],
      ['make >& both.log', ['both.log']],
      ['cat < .env; echo x >&2; echo y 2>&1 >&-', []],
      ['echo x > /dev/null; echo x > -', []],
      ['echo a > f; echo b >> f', ['f']],
    ]);
  });
  test('home spellings expand; another variable, a command substitution or an empty word is unknown', () => {
    expectWrites([
      ['echo > ~', ['/home/dev']],
      ['echo > ~/k; echo > $HOME/l; echo > ${HOME}/m', ['/home/dev/k', '/home/dev/l', '/home/dev/m']],
      ['echo > ~other/x', ['~other/x']],
      ['echo > $HOMEDIR/x; echo > a$B; echo > "`pwd`/x"; echo > ""', []],
    ]);
  });
  test('remote and URL destinations are not local writes', () => {
    expectWrites([
      ['cp .env host:/srv/.env; cp .env user@box:.env; rsync .env S3://b/.env; cp .env git+ssh://h/r/.env', []],
    ]);
  });
  test('scratch space outside the project and home is skipped, inside them it is not', () => {
    expectWrites([['echo > /tmp/x; echo > /var/tmp/x; echo > /private/tmp/x; echo > /dev/shm/x; echo > /tmp', []]]);
    expectWrites([['echo > /tmpfiles/x', ['/tmpfiles/x']]]);
    expect(writes('echo > /tmp/h/.netrc; echo > /tmp/x', '/tmp/p', '/tmp/h', '/tmp/p')).toStrictEqual([
      '/tmp/h/.netrc',
    ]);
    expect(writes('echo > /tmp/p/.env; echo > /tmp/x', '/tmp/p', '/tmp/h', '/tmp/p')).toStrictEqual(['/tmp/p/.env']);
  });
});

describe('protected-files: the directory a command runs in', () => {
  test('cd and pushd move the later writes; a cd inside a pipeline moves nothing', () => {
    expectWrites([
      ['cd -P sub && echo > f', ['sub/f']],
      ['pushd /etc; echo > hosts', ['/etc/hosts']],
      ['cd && echo > f', ['/home/dev/f']],
      ['cd /etc | cat > f', ['f']],
    ]);
  });
  test('after a cd to an unknown place nothing is judged, even an absolute path', () => {
    expectWrites([['cd "$D" && echo > f; cd /work/app && echo > /etc/x', []]]);
  });
});

describe('protected-files: copies and moves', () => {
  const home = tempDir('avp-pf-writes-');
  const ssh = join(home, '.ssh');
  mkdirSync(ssh);
  const copied = (cmd: string) => shellWrites(cmd, home, home, '/work/app');
  test('into an existing directory the copy lands under the source name', () => {
    expect(copied('cp id.pub .ssh')).toStrictEqual([ssh, `${ssh}/id.pub`]);
    expect(copied('mv a/b/key c/ .ssh')).toStrictEqual([ssh, `${ssh}/key`, `${ssh}/c`]);
    expect(copied('ln -s ../key .ssh/')).toStrictEqual([`${ssh}/key`]);
    expect(copied('cp x .ssh/missing')).toStrictEqual([`${ssh}/missing`]);
  });
  test('the values of valued options are not sources', () => {
    expect(copied('cp -S .bak key .ssh')).toStrictEqual([ssh, `${ssh}/key`]);
    expect(copied('install -o root --group wheel --mode 600 key .ssh')).toStrictEqual([ssh, `${ssh}/key`]);
    expect(copied('install --owner root --suffix old key .ssh')).toStrictEqual([ssh, `${ssh}/key`]);
    expect(copied('install -m 600 -g staff key .ssh')).toStrictEqual([ssh, `${ssh}/key`]);
    // rsync's -o and -g keep owner and group: flags, so the source after them is still a source.
    expect(copied('rsync -o key .ssh')).toStrictEqual([ssh, `${ssh}/key`]);
  });
  test('-t and --target-directory= name the directory; -- ends the options; a lone - is a file', () => {
    expectWrites([
      ['cp -t ~/.ssh a/id.pub b', ['/home/dev/.ssh/id.pub', '/home/dev/.ssh/b']],
      ['mv -f --target-directory=~/.ssh key', ['/home/dev/.ssh/key']],
      ['cp -- -x -y', ['-y']],
      ['cp - out', ['out']],
      ['mv x; gmv -f a b; gcp a c; rsync -a a d; install a e', ['b', 'c', 'd', 'e']],
    ]);
  });
});

describe('protected-files: commands that write the files they are given', () => {
  test('tee, dd of=, truncate (its size or reference file is no target)', () => {
    expectWrites([
      ['tee -a -- -x y < in', ['-x', 'y']],
      ['dd if=/dev/zero of=disk.img bs=1M', ['disk.img']],
      ['truncate -s 0 .env; truncate -r ref --size 1 a; truncate --reference r b', ['.env', 'a', 'b']],
    ]);
  });
  test('in-place edits: the script is the first operand unless given with -e or a script file', () => {
    expectWrites([
      ['sed -i.bak "s/a/b/g" .env', ['.env']],
      ['sed --in-place=.bak "s/a/b/g" .env', ['.env']],
      ['perl -pi -e "s/a/b/" .env', ['.env']],
      ['ruby -i -e "puts 1" a b', ['a', 'b']],
      ['sed -i --expression=s/a/b/ a', ['a']],
      ['sed -i -f edit.sed .env', ['.env']],
      ['sed -i --file edit.sed .env', ['.env']],
      ['sed -n "s/a/b/p" .env; perl -pe 1 .env; awk 1 .env; grep -i key .env', []],
    ]);
  });
  test('downloads: curl -o / --output, wget -O / --output-document; stdout and remote names are not judged', () => {
    expectWrites([
      [
        'curl -sS --output ~/.netrc https://x; curl --output=a https://y; curl -sSLo b https://z',
        ['/home/dev/.netrc', 'a', 'b'],
      ],
      ['wget -O c https://x; wget --output-document d https://y; wget --output-document=e https://z', ['c', 'd', 'e']],
      ['wget -O - https://x; curl -O https://x/f; curl https://x > /dev/null; wget https://example.com/g.tgz', []],
    ]);
  });
  test('ssh-keygen -f writes a key unless the command only reads one', () => {
    expectWrites([
      ['ssh-keygen -t ed25519 -f ~/.ssh/id', ['/home/dev/.ssh/id']],
      ['ssh-keygen -y -f a; ssh-keygen -l -f b; ssh-keygen -F host -f c; ssh-keygen -R host -f d', []],
      ['ssh-keygen -L -f e; ssh-keygen -B -f f; ssh-keygen -r host -f g; ssh-keygen -E md5 -f h', []],
    ]);
  });
  test('credential stores written by aws configure and npm/pnpm/yarn config set', () => {
    const aws = ['/home/dev/.aws/credentials', '/home/dev/.aws/config'];
    expectWrites([
      ['aws configure', aws],
      ['aws configure set aws_secret_access_key x', aws],
      ['aws configure get region; aws configure list; aws s3 ls; aws help; aws; azure configure set k', []],
      ['npm config set //r/:_authToken x', ['/home/dev/.npmrc']],
      ['pnpm config set _password x; yarn config set npmAuthToken y', ['/home/dev/.npmrc']],
      ['npm config set _auth x --location=project', ['.npmrc']],
      ['npm config set registry https://r; npm config get _authToken; npm set _auth x; npm config', []],
      // Another tool's `config set`, and npm running a script called `set`, write no .npmrc.
      ['git config set github.token x; npm run set token', []],
    ]);
  });
});

describe('protected-files: command lines inside command lines', () => {
  test('sh -c, su -c, eval, a here-document fed to a shell, and command substitutions', () => {
    expectWrites([
      ['bash -lc "echo k >> ~/.ssh/authorized_keys"', ['/home/dev/.ssh/authorized_keys']],
      ["su -c 'echo x > /etc/hosts' root", ['/etc/hosts']],
      ['bash -l -c "echo x > f"; eval tee g', ['f', 'g']],
      ['grep -c "a > b" .env; bash; sh -c', []],
      ['cd sub && eval "echo x > f"', ['sub/f']],
      ['bash <<EOF\necho k > ~/.netrc\nEOF', ['/home/dev/.netrc']],
      ['bash run.sh <<EOF\necho k > ~/.netrc\nEOF', []],
      ['su <<EOF\necho k > ~/.netrc\nEOF', []],
      ['echo "$(tee out < in)"; sh -c', ['out']],
    ]);
  });
  test('nesting is followed four levels deep, then no further, whatever the wrapper', () => {
    const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    const wrappers: Record<string, (cmd: string, level: number) => string> = {
      'sh -c': (cmd) => `sh -c ${quote(cmd)}`,
      eval: (cmd) => `eval ${quote(cmd)}`,
      'a here-document': (cmd, level) => `bash <<E${level}\n${cmd}\nE${level}`,
      'a substitution': (cmd) => `echo $(${cmd})`,
    };
    for (const [wrapper, wrap] of Object.entries(wrappers)) {
      let cmd = 'echo x > deep';
      for (let level = 1; level <= 5; level++) {
        cmd = wrap(cmd, level);
        expect({ wrapper, level, w: writes(cmd) }).toStrictEqual({
          wrapper,
          level,
          w: level <= 4 ? ['/work/app/deep'] : [],
        });
      }
    }
  });
});
