/**
 * The archive checks at their edges: tree integrity as documented (sha512 over path, size and content in path order),
 * the size limits at exactly the limit, every package type by its marker, plugin manifests, tarballs made with
 * `tar -C dir .`, what packing records (folders, modes) and refuses (missing folder, special files), and which
 * extracted files are executable. archive.test.ts covers the hostile archives themselves.
 */
import { describe, expect, test } from 'bun:test';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTar } from 'nanotar';
import { gzipSync } from 'fflate';
import {
  extractArchive,
  inspectArchive,
  packDirectory,
  treeIntegrity,
  type ArchiveInfo,
} from '../../../src/registry-client/archive.ts';
import { readZipEntries } from '../../../src/registry-client/zip-reader.ts';
import { makeZip, VALIDATOR_MD, validatorZip } from './zip-forge.ts';

async function refusal(bytes: Uint8Array, opts?: Parameters<typeof inspectArchive>[1]) {
  try {
    await inspectArchive(bytes, opts);
  } catch (e) {
    const err = e as { code: string; message: string; fix?: string };
    return { code: err.code, message: err.message, fix: err.fix };
  }
  throw new Error('inspectArchive accepted the archive');
}

async function inTemp<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'avp-arch-edge-'));
  try {
    return await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const bytes = (s: string) => new TextEncoder().encode(s);

describe('treeIntegrity', () => {
  const files = [
    { path: 'scripts/check.sh', data: bytes('#!/bin/sh\n') },
    { path: 'VALIDATOR.md', data: bytes('---\nname: x\n---\n') },
    { path: 'rules/a.md', data: bytes('rule') },
  ];
  test('sha512 over each file\'s path, size and content, in path order, as "sha512-<base64>"', () => {
    const hash = createHash('sha512');
    for (const f of [files[1]!, files[2]!, files[0]!]) hash.update(`${f.path}\0${f.data.length}\0`).update(f.data);
    expect(treeIntegrity(files)).toBe(`sha512-${hash.digest('base64')}`);
  });

  test('any change of a path, a content or the set of files changes it; the order given does not', () => {
    const base = treeIntegrity(files);
    expect(treeIntegrity([...files].reverse())).toBe(base);
    expect(treeIntegrity([files[2]!, files[0]!, files[1]!])).toBe(base);
    expect(treeIntegrity(files.slice(1))).not.toBe(base);
    expect(treeIntegrity([{ ...files[0]!, path: 'scripts/other.sh' }, ...files.slice(1)])).not.toBe(base);
    expect(treeIntegrity([{ ...files[0]!, data: bytes('#!/bin/bash\n') }, ...files.slice(1)])).not.toBe(base);
  });
});

describe('size limits', () => {
  test('an archive over the compressed limit: its size and the limit in MiB, and what to remove', async () => {
    const big = new Uint8Array(Math.round(1.6 * 1024 * 1024));
    expect(await refusal(big, { maxCompressedBytes: 1024 * 1024 })).toEqual({
      code: 'archive-too-large',
      message: 'the package archive is 1.6 MiB (limit 1 MiB)',
      fix: 'remove large or generated files from the validator directory',
    });
  });

  test('an archive of exactly the compressed limit, or expanding to exactly the expanded limit, is accepted', async () => {
    const zip = validatorZip('demo');
    const expanded = (await inspectArchive(zip)).files.reduce((n, f) => n + f.data.length, 0);
    const info = await inspectArchive(zip, { maxCompressedBytes: zip.length, maxExpandedBytes: expanded });
    expect(info.manifest.name).toBe('demo');
    expect((await refusal(zip, { maxExpandedBytes: expanded - 1 })).code).toBe('archive-too-large');
  });

  test('bytes that are no archive: what the URL or registry must serve', async () => {
    expect(await refusal(bytes('<html>not found</html>'))).toEqual({
      code: 'archive-corrupt',
      message: 'the package is not a zip archive (nor a tar / tar.gz)',
      fix: 'check the URL or registry: it must serve the package ZIP bytes',
    });
  });
});

describe('package types', () => {
  test('no marker: what a validator package holds', async () => {
    expect(await refusal(makeZip([['demo/README.md', 'x']]))).toEqual({
      code: 'archive-no-validator',
      message: 'the package has no VALIDATOR.md in its top folder "demo/"',
      fix: 'a validator package is a directory holding VALIDATOR.md (plus optional rules/, references/, scripts/)',
    });
  });

  test('an agent package is named, refused, and read when other types are allowed', async () => {
    const zip = makeZip([['demo/AGENT.md', VALIDATOR_MD('an-agent')]]);
    expect((await refusal(zip)).message).toBe(
      'this package is a agent (it has AGENT.md), not a validator; avp installs validators only',
    );
    const info = await inspectArchive(zip, { allowOtherTypes: true });
    expect([info.type, info.manifest.name]).toEqual(['agent', 'an-agent']);
  });

  test("a plugin package: refused, and its manifest read from .claude-plugin/plugin.json's JSON", async () => {
    const manifest = { name: 'a-plugin', version: '2.1.0', description: 'A plugin.', other: 1 };
    const zip = makeZip([['demo/.claude-plugin/plugin.json', JSON.stringify(manifest)]]);
    expect((await refusal(zip)).code).toBe('archive-not-validator');
    const info = await inspectArchive(zip, { allowOtherTypes: true });
    expect(info.type).toBe('plugin');
    expect(info.manifest).toEqual({ name: 'a-plugin', version: '2.1.0', description: 'A plugin.' });
  });

  test('a plugin manifest that is not JSON', async () => {
    const zip = makeZip([['demo/.claude-plugin/plugin.json', '{"name": ']]);
    expect(await refusal(zip, { allowOtherTypes: true })).toEqual({
      code: 'archive-manifest-invalid',
      message: 'demo/.claude-plugin/plugin.json is not valid JSON',
      fix: 'fix the plugin manifest',
    });
  });
});

test('a tarball made with `tar -C dir .` (entries ".", "./" and "./<top>/…") is read without them', async () => {
  const tar = createTar([
    { name: '.' },
    { name: './' },
    { name: './demo/' },
    { name: './demo/VALIDATOR.md', data: VALIDATOR_MD('dotted') },
  ]);
  const info = await inspectArchive(gzipSync(tar));
  expect([info.top, info.manifest.name, info.files.map((f) => f.path)]).toEqual(['demo', 'dotted', ['VALIDATOR.md']]);
});

test('files of a zip without unix modes carry no mode at all', async () => {
  const info = await inspectArchive(validatorZip('demo'));
  for (const f of info.files) expect(Object.keys(f)).toEqual(['path', 'data']);
});

describe('packDirectory', () => {
  test('records every folder as an entry (empty ones too) and keeps files not executable as 0644', async () => {
    await inTemp(async (dir) => {
      mkdirSync(join(dir, 'scripts'));
      mkdirSync(join(dir, 'references', 'empty'), { recursive: true });
      writeFileSync(join(dir, 'VALIDATOR.md'), VALIDATOR_MD('packed'));
      writeFileSync(join(dir, 'scripts', 'data.json'), '{}');
      writeFileSync(join(dir, 'scripts', 'run.sh'), '#!/bin/sh\n');
      chmodSync(join(dir, 'scripts', 'run.sh'), 0o755);
      const packed = await packDirectory(dir);
      const names = (await readZipEntries(packed.bytes, 100)).map((e) => e.name).sort();
      expect(names).toEqual([
        'packed/',
        'packed/VALIDATOR.md',
        'packed/references/',
        'packed/references/empty/',
        'packed/scripts/',
        'packed/scripts/data.json',
        'packed/scripts/run.sh',
      ]);
      const modes = Object.fromEntries((await inspectArchive(packed.bytes)).files.map((f) => [f.path, f.mode]));
      expect(modes).toEqual({ 'VALIDATOR.md': 0o644, 'scripts/data.json': 0o644, 'scripts/run.sh': 0o755 });
    });
  });

  test('a path that is missing or not a folder: what to pass', async () => {
    await inTemp(async (dir) => {
      writeFileSync(join(dir, 'file.md'), 'x');
      for (const p of [join(dir, 'missing'), join(dir, 'file.md')])
        await expect(packDirectory(p)).rejects.toMatchObject({
          code: 'publish-not-a-directory',
          message: `${p} is not a directory`,
          fix: 'pass the validator directory (the one holding VALIDATOR.md)',
        });
    });
  });

  test('a folder without VALIDATOR.md, a link, a special file: each refused with its fix', async () => {
    await inTemp(async (dir) => {
      await expect(packDirectory(dir)).rejects.toMatchObject({
        fix: 'publish a directory validator: `<name>/VALIDATOR.md` (a single-file validator `name.md` goes into `name/VALIDATOR.md`)',
      });
      writeFileSync(join(dir, 'VALIDATOR.md'), VALIDATOR_MD('x'));
      symlinkSync('VALIDATOR.md', join(dir, 'link.md'));
      await expect(packDirectory(dir)).rejects.toMatchObject({
        fix: 'replace the link with a copy of the file, or move it out of the validator directory',
      });
      rmSync(join(dir, 'link.md'));
      expect(Bun.spawnSync(['mkfifo', join(dir, 'pipe')]).exitCode).toBe(0);
      await expect(packDirectory(dir)).rejects.toMatchObject({
        code: 'publish-special-file',
        message: `${join(dir, 'pipe')} is not a regular file`,
        fix: 'remove it from the validator directory',
      });
    });
  });
});

describe('extractArchive', () => {
  const info = (files: ArchiveInfo['files']): ArchiveInfo => ({
    type: 'validator',
    top: 'demo',
    files,
    manifest: { name: 'demo', version: '1.0.0', description: 'd' },
  });
  const modeOf = (p: string) => statSync(p).mode & 0o777;

  test('executable: a recorded x bit; without recorded modes, a "#!" script under scripts/ only', async () => {
    await inTemp(async (dir) => {
      await extractArchive(
        info([
          { path: 'scripts/recorded-x', data: bytes('x'), mode: 0o750 },
          { path: 'scripts/recorded-plain.sh', data: bytes('#!/bin/sh\n'), mode: 0o644 },
          { path: 'scripts/shebang.sh', data: bytes('#!/bin/sh\n') },
          { path: 'scripts/comment.sh', data: bytes('# not a shebang\n') },
          { path: 'scripts/bang.sh', data: bytes('!!/bin/sh\n') },
          { path: 'scripts/text.txt', data: bytes('plain') },
          { path: 'tools/shebang.sh', data: bytes('#!/bin/sh\n') },
          { path: 'VALIDATOR.md', data: bytes('#!') },
        ]),
        dir,
      );
      expect({
        x: modeOf(join(dir, 'scripts/recorded-x')),
        plain: modeOf(join(dir, 'scripts/recorded-plain.sh')),
        shebang: modeOf(join(dir, 'scripts/shebang.sh')),
        comment: modeOf(join(dir, 'scripts/comment.sh')),
        bang: modeOf(join(dir, 'scripts/bang.sh')),
        text: modeOf(join(dir, 'scripts/text.txt')),
        tools: modeOf(join(dir, 'tools/shebang.sh')),
        md: modeOf(join(dir, 'VALIDATOR.md')),
      }).toEqual({
        x: 0o755,
        plain: 0o644,
        shebang: 0o755,
        comment: 0o644,
        bang: 0o644,
        text: 0o644,
        tools: 0o644,
        md: 0o644,
      });
    });
  });

  test('every file is created exclusively: a second file of the same path fails instead of overwriting', async () => {
    await inTemp(async (dir) => {
      const twice = info([
        { path: 'VALIDATOR.md', data: bytes('first') },
        { path: 'VALIDATOR.md', data: bytes('second') },
      ]);
      await expect(extractArchive(twice, dir)).rejects.toMatchObject({ code: 'EEXIST' });
      expect(await Bun.file(join(dir, 'VALIDATOR.md')).text()).toBe('first');
    });
  });

  test('a destination that is not empty: extract into a fresh one', async () => {
    await inTemp(async (dir) => {
      writeFileSync(join(dir, 'x'), '');
      await expect(extractArchive(info([]), dir)).rejects.toMatchObject({
        code: 'extract-not-empty',
        fix: 'extract into a fresh directory',
      });
    });
  });
});
