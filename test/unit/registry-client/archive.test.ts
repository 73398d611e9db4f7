import { describe, expect, test } from 'bun:test';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTar } from 'nanotar';
import { gzipSync } from 'fflate';
import {
  extractArchive,
  inspectArchive,
  integrityOf,
  packDirectory,
  treeIntegrity,
} from '../../../src/registry-client/archive.ts';
import { lieAboutSize, makeZip, renameEntry, smuggleEntries, VALIDATOR_MD, validatorZip } from './zip-forge.ts';

/** python3's zipfile writes the foreign zips compared with: without it that one test is skipped, saying so. */
const PYTHON = Bun.which('python3');
const NO_PYTHON = PYTHON ? '' : ' [skipped: python3 is not on PATH]';

async function refusal(
  bytes: Uint8Array,
  opts?: Parameters<typeof inspectArchive>[1],
): Promise<{ code: string; message: string; fix?: string }> {
  try {
    await inspectArchive(bytes, opts);
  } catch (e) {
    const err = e as { code: string; message: string; fix?: string };
    return { code: err.code, message: err.message, fix: err.fix };
  }
  throw new Error('inspectArchive accepted a hostile archive');
}

describe('inspectArchive accepts a real validator package', () => {
  test('strips the top folder, reads the manifest, keeps modes', async () => {
    const bytes = makeZip([
      ['pkg-folder/', ''],
      ['pkg-folder/VALIDATOR.md', VALIDATOR_MD('no-secrets')],
      ['pkg-folder/scripts/check.sh', '#!/bin/sh\necho ok\n', { os: 3, attrs: (0o100755 << 16) >>> 0 }],
    ]);
    const info = await inspectArchive(bytes);
    expect(info.type).toBe('validator');
    expect(info.top).toBe('pkg-folder');
    expect(info.manifest).toEqual({ name: 'no-secrets', version: '1.0.0', description: 'A demo validator.' });
    expect(info.files.map((f) => f.path).sort()).toEqual(['VALIDATOR.md', 'scripts/check.sh']);
    expect(info.files.find((f) => f.path === 'scripts/check.sh')!.mode).toBe(0o755);
  });

  test('integrity is SRI sha512 of the bytes', () => {
    expect(integrityOf(new TextEncoder().encode('abc'))).toBe(
      'sha512-3a81oZNherrMQXNJriBBMRLm+k6JqX6iCp7u5ktV05ohkpkqJ0/BqDa6PCOj/uu9RU1EI2Q86A4qmslPpUyknw==',
    );
  });

  test('version falls back to a top-level version', async () => {
    const md = '---\nname: old-style\ndescription: x\nversion: "2.1.0"\ntags: [a, b]\n---\nbody\n';
    const info = await inspectArchive(makeZip([['old-style/VALIDATOR.md', md]]));
    expect(info.manifest.version).toBe('2.1.0');
    expect(info.manifest.tags).toEqual(['a', 'b']);
  });
});

describe('inspectArchive refuses hostile archives', () => {
  test('zip-slip (".." segment)', async () => {
    const r = await refusal(validatorZip('demo', [['demo/../../../evil.sh', 'rm -rf ~']]));
    expect(r.code).toBe('archive-unsafe-path');
    // The reason, not the entry's name (which holds ".." whatever rule refused it).
    expect(r.message).toContain('"demo/../../../evil.sh": ".." segment (zip-slip');
    // One ".." anywhere is enough, also where it would stay inside the package folder.
    const inside = await refusal(validatorZip('demo', [['demo/rules/../a.md', 'x']]));
    expect(inside.message).toContain('".." segment');
  });

  test('absolute path', async () => {
    expect(
      (
        await refusal(
          makeZip([
            ['/etc/passwd', 'x'],
            ['demo/VALIDATOR.md', VALIDATOR_MD()],
          ]),
        )
      ).message,
    ).toContain('absolute path');
  });

  test('backslash and drive letter', async () => {
    expect((await refusal(validatorZip('demo', [['demo\\..\\evil', 'x']]))).message).toContain('backslash');
    expect((await refusal(makeZip([['C:/evil/VALIDATOR.md', VALIDATOR_MD()]]))).message).toContain('drive letter');
  });

  test('entries hidden from the central directory (a streaming unzipper would extract them)', async () => {
    const r = await refusal(smuggleEntries(validatorZip('demo'), makeZip([['demo/../../evil.sh', 'rm -rf ~']])));
    expect(r.code).toBe('archive-corrupt');
    expect(r.message).toContain('hidden entry');
  });

  test.skipIf(!PYTHON)(
    `zips written by other tools (python zipfile, streaming with data descriptors) are accepted${NO_PYTHON}`,
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'avp-pyzip-'));
      try {
        const seekable = `import zipfile,sys\nz=zipfile.ZipFile(sys.argv[1],'w',zipfile.ZIP_DEFLATED)\nz.writestr('demo/VALIDATOR.md',sys.argv[2])\nz.writestr('demo/rules/a.md','rule')\nz.close()\n`;
        // Written to a pipe (not seekable), zipfile puts sizes in data descriptors after each entry's data.
        const streamed = `import zipfile,sys\nz=zipfile.ZipFile(sys.stdout.buffer,'w',zipfile.ZIP_DEFLATED)\nz.writestr('demo/VALIDATOR.md',sys.argv[1])\nz.writestr('demo/rules/a.md','rule')\nz.close()\n`;
        const a = Bun.spawnSync(['python3', '-c', seekable, join(dir, 'a.zip'), VALIDATOR_MD()]);
        expect({ exit: a.exitCode, stderr: a.stderr.toString() }).toEqual({ exit: 0, stderr: '' });
        expect((await inspectArchive(new Uint8Array(readFileSync(join(dir, 'a.zip'))))).files.length).toBe(2);
        const b = Bun.spawnSync(['python3', '-c', streamed, VALIDATOR_MD()], { stdout: 'pipe' });
        expect({ exit: b.exitCode, stderr: b.stderr.toString() }).toEqual({ exit: 0, stderr: '' });
        const bytes = new Uint8Array(b.stdout);
        expect(new DataView(bytes.buffer).getUint16(6, true) & 8).toBe(8); // really uses data descriptors
        expect((await inspectArchive(bytes)).files.map((f) => f.path).sort()).toEqual(['VALIDATOR.md', 'rules/a.md']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  test('names that extract differently on Windows', async () => {
    expect((await refusal(validatorZip('demo', [['demo/aux.md', 'x']]))).message).toContain('reserved device name');
    expect((await refusal(validatorZip('demo', [['demo/a:stream', 'x']]))).message).toContain('Windows does not allow');
    expect((await refusal(validatorZip('demo', [['demo/trailing. ', 'x']]))).message).toContain(
      'ending with a dot or a space',
    );
  });

  test('symlink entry (unix mode in the external attributes)', async () => {
    const r = await refusal(
      validatorZip('demo', [['demo/link', '/etc/passwd', { os: 3, attrs: (0o120777 << 16) >>> 0 }]]),
    );
    expect(r.code).toBe('archive-unsafe-entry');
    expect(r.message).toContain('symlink');
  });

  test('device and fifo entries', async () => {
    expect(
      (await refusal(validatorZip('demo', [['demo/dev', '', { os: 3, attrs: (0o020644 << 16) >>> 0 }]]))).message,
    ).toContain('device');
    expect(
      (await refusal(validatorZip('demo', [['demo/fifo', '', { os: 3, attrs: (0o010644 << 16) >>> 0 }]]))).message,
    ).toContain('fifo');
  });

  test('duplicate entries, exact and by case', async () => {
    const withA = renameEntry(
      makeZip([
        ['demo/VALIDATOR.md', VALIDATOR_MD()],
        ['demo/a.md', 'one'],
        ['demo/b.md', 'two'],
      ]),
      'demo/b.md',
      'demo/a.md',
    );
    const dup = await refusal(withA);
    expect(dup.code).toBe('archive-duplicate-entry');
    expect(dup.message).toContain('appears twice');
    const cased = await refusal(
      makeZip([
        ['demo/VALIDATOR.md', VALIDATOR_MD()],
        ['demo/Readme.md', '1'],
        ['demo/README.md', '2'],
      ]),
    );
    expect(cased.message).toContain('differs only by case');
  });

  test('zip bomb with honest sizes is refused before inflating', async () => {
    const zeros = new Uint8Array(60 * 1024 * 1024);
    const r = await refusal(validatorZip('demo', [['demo/bomb.bin', zeros]]));
    expect(r.code).toBe('archive-too-large');
    expect(r.message).toContain('50 MiB');
  }, 30_000);

  test('zip bomb lying about its size stops inflating at the declared size', async () => {
    const zeros = new Uint8Array(60 * 1024 * 1024);
    const lying = lieAboutSize(validatorZip('demo', [['demo/bomb.bin', zeros]]), 'demo/bomb.bin', 100);
    const r = await refusal(lying);
    expect(r.code).toBe('archive-size-mismatch');
    expect(r.message).toContain('zip bomb');
  }, 30_000);

  test('many lying entries are stopped by the total cap', async () => {
    const chunk = new Uint8Array(3 * 1024 * 1024);
    const entries: Array<[string, Uint8Array]> = Array.from({ length: 4 }, (_, i) => [`demo/b${i}.bin`, chunk]);
    const r = await refusal(validatorZip('demo', entries), { maxExpandedBytes: 8 * 1024 * 1024 });
    expect(r.code).toBe('archive-too-large');
  }, 30_000);

  test('wrong top folder: two tops, or a file at the root', async () => {
    expect(
      (
        await refusal(
          makeZip([
            ['a/VALIDATOR.md', VALIDATOR_MD()],
            ['b/x.md', 'x'],
          ]),
        )
      ).code,
    ).toBe('archive-wrong-top');
    expect((await refusal(makeZip([['VALIDATOR.md', VALIDATOR_MD()]]))).code).toBe('archive-wrong-top');
  });

  test('other package types are named', async () => {
    const skill = await refusal(makeZip([['s/SKILL.md', '---\nname: s\n---\n']]));
    expect(skill.code).toBe('archive-not-validator');
    expect(skill.message).toContain('skill');
    const plugin = await refusal(makeZip([['p/.claude-plugin/plugin.json', '{"name":"p","version":"1.0.0"}']]));
    expect(plugin.message).toContain('plugin');
    const tool = await inspectArchive(makeZip([['t/TOOL.md', '---\nname: t\nversion: "1.0.0"\n---\n']]), {
      allowOtherTypes: true,
    });
    expect(tool.type).toBe('tool');
  });

  test('missing VALIDATOR.md', async () => {
    expect((await refusal(makeZip([['demo/README.md', 'hi']]))).code).toBe('archive-no-validator');
  });

  test('a number version is rejected with a clear message', async () => {
    const r = await refusal(makeZip([['demo/VALIDATOR.md', VALIDATOR_MD('demo', '1.0')]]));
    expect(r.code).toBe('package-version-not-string');
    expect(r.message).toContain('YAML number');
    expect(r.fix).toContain('"1.0.0"');
  });

  test('bad names and non-semver versions', async () => {
    expect((await refusal(makeZip([['d/VALIDATOR.md', VALIDATOR_MD('Bad--Name')]]))).code).toBe('package-name-invalid');
    expect((await refusal(makeZip([['d/VALIDATOR.md', VALIDATOR_MD('demo', '"1.0"')]]))).code).toBe(
      'package-version-invalid',
    );
  });

  test('compressed size over the limit, too many entries, garbage', async () => {
    expect((await refusal(new Uint8Array(11 * 1024 * 1024))).code).toBe('archive-too-large');
    const many: Array<[string, string]> = Array.from({ length: 30 }, (_, i) => [`demo/f${i}.md`, 'x']);
    expect((await refusal(validatorZip('demo', many), { maxEntries: 10 })).code).toBe('archive-too-many-entries');
    expect((await refusal(new TextEncoder().encode('<html>not found</html>'))).code).toBe('archive-corrupt');
  });

  test('a broken deflate stream is a corrupt archive, not a crash', async () => {
    const bytes = makeZip([['demo/VALIDATOR.md', VALIDATOR_MD()]]);
    // The entry's data follows its local header (30 bytes + name); 0xff starts a block of the reserved type 3.
    const dataStart =
      30 + 'demo/VALIDATOR.md'.length + new DataView(bytes.buffer, bytes.byteOffset).getUint16(28, true);
    bytes.fill(0xff, dataStart, dataStart + 8);
    const r = await refusal(bytes);
    expect(r.code).toBe('archive-corrupt');
    expect(r.message).toContain('invalid deflate data');
  });

  test('tarballs get the same rules', async () => {
    const good = gzipSync(createTar([{ name: 'demo/VALIDATOR.md', data: VALIDATOR_MD() }]));
    expect((await inspectArchive(good)).manifest.name).toBe('demo');
    const slip = gzipSync(
      createTar([
        { name: 'demo/VALIDATOR.md', data: VALIDATOR_MD() },
        { name: 'demo/../../x', data: 'x' },
      ]),
    );
    expect(await refusal(slip)).toMatchObject({
      code: 'archive-unsafe-path',
      message: expect.stringContaining('"demo/../../x": ".." segment'),
    });
    const bomb = gzipSync(
      createTar([
        { name: 'demo/VALIDATOR.md', data: VALIDATOR_MD() },
        { name: 'demo/big', data: new Uint8Array(9 * 1024 * 1024) },
      ]),
    );
    expect((await refusal(bomb, { maxExpandedBytes: 4 * 1024 * 1024 })).code).toBe('archive-too-large');
    const broken = good.slice();
    broken.fill(0xff, 10, 18); // the deflate stream after the 10-byte gzip header: a reserved block type
    expect(await refusal(broken)).toMatchObject({
      code: 'archive-corrupt',
      message: expect.stringContaining('the tarball is not readable: invalid gzip data'),
    });
  });
});

describe('tarballs made by the system tar', () => {
  test('"./" prefixes are accepted; symlinks and hard links are refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'avp-tar-'));
    try {
      const src = join(dir, 'pkg');
      mkdirSync(src);
      writeFileSync(join(src, 'VALIDATOR.md'), VALIDATOR_MD('tarred'));
      const tar = (...args: string[]) => {
        const r = Bun.spawnSync(['tar', ...args], { cwd: dir });
        if (r.exitCode !== 0) throw new Error(r.stderr.toString());
        return new Uint8Array(readFileSync(join(dir, args[1]!)));
      };
      expect((await inspectArchive(tar('czf', 'plain.tgz', 'pkg'))).manifest.name).toBe('tarred');
      const dotted = Bun.spawnSync(['tar', 'czf', join(dir, 'dotted.tgz'), '-C', dir, './pkg']);
      expect(dotted.exitCode).toBe(0);
      expect((await inspectArchive(new Uint8Array(readFileSync(join(dir, 'dotted.tgz'))))).top).toBe('pkg');
      symlinkSync('/etc/passwd', join(src, 'passwd'));
      expect((await refusal(tar('czf', 'link.tgz', 'pkg'))).message).toContain('symlink');
      rmSync(join(src, 'passwd'));
      Bun.spawnSync(['ln', join(src, 'VALIDATOR.md'), join(src, 'hard.md')]);
      expect((await refusal(tar('cf', 'hard.tar', 'pkg'))).message).toContain('hardlink');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('packDirectory and extractArchive', () => {
  test('pack excludes dot files, target and node_modules; round-trips through extract with modes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'avp-pack-'));
    try {
      const src = join(dir, 'my-folder');
      mkdirSync(join(src, 'rules'), { recursive: true });
      mkdirSync(join(src, 'scripts'));
      mkdirSync(join(src, 'node_modules', 'x'), { recursive: true });
      mkdirSync(join(src, 'sub', 'target'), { recursive: true });
      writeFileSync(join(src, 'VALIDATOR.md'), VALIDATOR_MD('packed'));
      writeFileSync(join(src, 'rules', 'a.md'), 'rule');
      writeFileSync(join(src, 'scripts', 'run.sh'), '#!/bin/sh\n');
      chmodSync(join(src, 'scripts', 'run.sh'), 0o755);
      writeFileSync(join(src, '.env'), 'SECRET=1');
      writeFileSync(join(src, 'node_modules', 'x', 'i.js'), '');
      writeFileSync(join(src, 'sub', 'target', 'out'), '');
      const packed = await packDirectory(src);
      expect(packed.files).toEqual(['VALIDATOR.md', 'rules/a.md', 'scripts/run.sh']);
      expect(packed.manifest.name).toBe('packed');
      const info = await inspectArchive(packed.bytes);
      expect(info.top).toBe('packed');
      const out = join(dir, 'out');
      await extractArchive(info, out);
      expect(readFileSync(join(out, 'rules', 'a.md'), 'utf8')).toBe('rule');
      expect(statSync(join(out, 'scripts', 'run.sh')).mode & 0o777).toBe(0o755);
      expect(readdirSync(out).sort()).toEqual(['VALIDATOR.md', 'rules', 'scripts']);
      expect(treeIntegrity(info.files)).toBe(treeIntegrity([...info.files].reverse()));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a zip without unix modes (made on Windows) still gets executable shebang scripts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'avp-extract-'));
    try {
      const info = await inspectArchive(
        validatorZip('demo', [
          ['demo/scripts/run.sh', '#!/bin/sh\n'],
          ['demo/scripts/data.txt', 'x'],
        ]),
      );
      await extractArchive(info, join(dir, 'out'));
      expect(statSync(join(dir, 'out', 'scripts', 'run.sh')).mode & 0o777).toBe(0o755);
      expect(statSync(join(dir, 'out', 'scripts', 'data.txt')).mode & 0o777).toBe(0o644);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('pack refuses symlinks and a directory without VALIDATOR.md', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'avp-pack-'));
    try {
      await expect(packDirectory(dir)).rejects.toMatchObject({ code: 'publish-no-validator' });
      writeFileSync(join(dir, 'VALIDATOR.md'), VALIDATOR_MD('linked'));
      symlinkSync('/etc/passwd', join(dir, 'passwd'));
      await expect(packDirectory(dir)).rejects.toMatchObject({ code: 'publish-symlink' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('extract refuses a non-empty destination and never follows what is there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'avp-extract-'));
    try {
      writeFileSync(join(dir, 'VALIDATOR.md'), 'existing');
      const info = await inspectArchive(validatorZip('demo'));
      await expect(extractArchive(info, dir)).rejects.toMatchObject({ code: 'extract-not-empty' });
      expect(readFileSync(join(dir, 'VALIDATOR.md'), 'utf8')).toBe('existing');
      const forged = { ...info, files: [{ path: '../escape.md', data: new Uint8Array(1) }] };
      await expect(extractArchive(forged, join(dir, 'fresh'))).rejects.toMatchObject({ code: 'archive-unsafe-path' });
      expect(existsSync(join(dir, 'escape.md'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
