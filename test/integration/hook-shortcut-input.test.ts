/**
 * The hook shortcut reads stdin before the full path does (src/hook/shortcut/answer.ts): its limits must be the full
 * path's (size, time, a terminal, a read that fails), and input the full path refuses — or would answer otherwise —
 * must reach it as it came, a recorded call with a field of another type included. The rest of the shortcut's tests
 * are in hook-shortcut.test.ts and hook-shortcut-attacks.test.ts.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { openSync } from 'node:fs';
import { join } from 'node:path';
import { gatedProject } from './hook-memo-support.ts';
import { BIN, hookFedBy, hookWithOpenStdin, type Project } from './hook-support.ts';
import { readEvent, traced, untilAnswered } from './hook-shortcut-support.ts';

const envOf = (p: Project) => ({
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: p.home,
  AVP_HOME: join(p.home, '.avp'),
  CLAUDE_PROJECT_DIR: p.root,
});

let gated: Project;

beforeAll(async () => {
  gated = await gatedProject();
  // Past the racy window after the session's first call (see hook-shortcut.test.ts).
  await gated.hook(readEvent(gated));
  await Bun.sleep(2100);
}, 60_000);

describe('input the full path refuses is refused the same way after the shortcut read it', () => {
  test('stdin left open: the shortcut gives up after the stdin time limit, as the full path does', async () => {
    const { out, err, code } = await hookWithOpenStdin(gated.root, { ...envOf(gated), AVP_SHORTCUT_TRACE: '1' });
    expect({ code, out }).toEqual({ code: 2, out: '' });
    expect(err).toContain('avp shortcut: full path (no complete hook input on stdin after 0.5 s)');
    expect(err).toContain('avp hook: no complete hook input on stdin after 0.5 s');
  });

  test.skipIf(!Bun.which('script'))(
    'a terminal on stdin: refused at once as bad input, nothing read from it',
    async () => {
      // Read by the shortcut and handed over, and read by the full path itself (the shortcut switched off).
      for (const [env, trace] of [
        [{}, 'avp shortcut: full path (stdin is a terminal)'],
        [{ AVP_SHORTCUT: '0' }, 'avp shortcut: full path (AVP_SHORTCUT=0)'],
      ] as const) {
        const proc = Bun.spawn(['script', '-qec', `${BIN} hook`, '/dev/null'], {
          cwd: gated.root,
          env: { ...envOf(gated), AVP_SHORTCUT_TRACE: '1', ...env },
          stdin: 'pipe',
          stdout: 'pipe',
          stderr: 'pipe',
        });
        const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
        const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
        clearTimeout(timer);
        expect(code).toBe(2);
        expect(out).toContain(trace);
        // The bad-input answer, not avp's own failure (which would say "internal error" and print a refusal).
        expect(out).toContain('avp hook: no hook input: stdin is a terminal');
        expect(out).not.toContain('internal error');
      }
    },
  );

  test('a time limit that is not a positive whole number is not one: input sent late is answered', async () => {
    for (const wait of ['0', '0.5']) {
      // Another environment, so another record first.
      await untilAnswered(gated, readEvent(gated), { AVP_STDIN_TIMEOUT_MS: wait });
      const env = { ...envOf(gated), NO_COLOR: '1', AVP_STDIN_TIMEOUT_MS: wait, AVP_SHORTCUT_TRACE: '1' };
      const { out, err, code } = await hookFedBy(gated.root, env, async (stdin) => {
        await Bun.sleep(300);
        stdin.write(`${JSON.stringify(readEvent(gated))}\n`);
        await stdin.end();
      });
      expect({ wait, code, out, err }).toEqual({ wait, code: 0, out: '{}\n', err: 'avp shortcut: answered\n' });
    }
  });

  test('input of exactly the size limit is read whole, as the full path reads it', async () => {
    await untilAnswered(gated, readEvent(gated));
    const event = readEvent(gated, 'src/a.ts', { pad: '' });
    const pad = 8 * 1024 * 1024 - Buffer.byteLength(`${JSON.stringify(event)}\n`);
    const r = await traced(gated, { ...event, pad: 'a'.repeat(pad) });
    expect([r.answered, r.code, r.stdout]).toEqual([true, 0, '{}\n']);
  });

  test('the limit counts bytes, not characters: 3-byte ones up to it are read whole, a read cut inside one refused', async () => {
    await untilAnswered(gated, readEvent(gated));
    const event = readEvent(gated, 'src/a.ts', { pad: '' });
    const room = 8 * 1024 * 1024 - Buffer.byteLength(`${JSON.stringify(event)}\n`);
    // '€' is one character of 3 bytes: a count of characters would see a third of what was read.
    const euros = (bytes: number) => 'a'.repeat(bytes % 3) + '€'.repeat(Math.floor(bytes / 3));
    const whole = await traced(gated, { ...event, pad: euros(room) });
    expect([whole.answered, whole.code, whole.stdout]).toEqual([true, 0, '{}\n']);
    // Five bytes more: the last '€' spans the limit's last byte and the next one, so the read stops inside it.
    const over = await traced(gated, { ...event, pad: euros(room + 5) });
    expect([over.answered, over.code]).toEqual([false, 2]);
    expect(over.why).toStartWith('the hook input is larger than 8 MiB');
  });

  test('stdin that cannot be read (a folder): refused with what the read said, the error handed over', async () => {
    const said = await Bun.file(openSync(gated.root, 'r'))
      .bytes()
      .then(
        () => 'read',
        (e: Error) => e.message,
      );
    const proc = Bun.spawn([BIN, 'hook'], {
      cwd: gated.root,
      env: { ...envOf(gated), AVP_SHORTCUT_TRACE: '1' },
      stdin: openSync(gated.root, 'r'),
      stdout: 'pipe',
      stderr: 'pipe',
    });
    const [out, err, code] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    expect({ code, out }).toEqual({ code: 2, out: '' });
    expect(err).toContain(`avp shortcut: full path (could not read the hook input: ${said})`);
    expect(err).toContain(`avp hook: could not read the hook input: ${said}`);
  });

  // Each field of the wrong type spells the recorded call when made a string (`${['Read']}` is `Read`), and a path
  // too long for any file system names no file a validator could watch: only the types and bounds tell them apart.
  const misshapen: [string, Record<string, unknown>, string][] = [
    ['an event name in an array', { hook_event_name: ['PostToolUse'] }, 'no event name'],
    ['a session id in an array', { session_id: ['s1'] }, 'no session'],
    ['an empty session id', { session_id: '' }, 'no session'],
    ['a working folder in an array', { cwd: ['<root>'] }, 'no cwd'],
    ['a tool name in an array', { tool_name: ['Read'] }, 'tool_name is not a string'],
    ['tool input that is a list', { tool_input: ['<root>/src/a.ts'] }, 'tool_input is not an object'],
    ['tool input that is a string', { tool_input: '<root>/src/a.ts' }, 'tool_input is not an object'],
    ['tool input that is null', { tool_input: null }, 'tool_input is not an object'],
    ['a file path longer than any', { tool_input: { file_path: `/${'a'.repeat(5000)}` } }, 'a path out of bounds'],
    [
      'a notebook path longer than any',
      { tool_input: { notebook_path: `/${'a/'.repeat(600)}x` } },
      'a path out of bounds',
    ],
  ];
  for (const [name, fields, why] of misshapen) {
    test(`a recorded call but ${name}: the full path's answer, whatever it is`, async () => {
      await untilAnswered(gated, readEvent(gated));
      const event = JSON.parse(JSON.stringify(readEvent(gated, 'src/a.ts', fields)).replaceAll('<root>', gated.root));
      const full = await gated.hook(event, { AVP_SHORTCUT: '0' });
      const r = await traced(gated, event);
      expect([r.answered, r.why]).toEqual([false, why]);
      const said = r.stderr.replace(/^avp shortcut: .*\n/m, '');
      expect({ code: r.code, stdout: r.stdout, said }).toEqual({
        code: full.code,
        stdout: full.stdout,
        said: full.stderr,
      });
    });
  }

  const bad: [string, string, RegExp, string][] = [
    ['not JSON', 'hello\n', /not JSON/, 'not an event'],
    ['JSON that is no object (a list)', '[{"hook_event_name": "Stop"}]', /an array, not a JSON object/, 'not an event'],
    ['JSON null', 'null', /not a JSON object/, 'not an event'],
    [
      'a session id that is not a string',
      JSON.stringify({ hook_event_name: 'Stop', session_id: 5 }),
      /session_id/,
      'no session',
    ],
    [
      '10 MB',
      `{"hook_event_name":"Stop","x":"${'a'.repeat(10 * 1024 * 1024)}"}`,
      /larger than 8 MiB/,
      'the hook input is larger than 8 MiB',
    ],
  ];
  for (const [name, input, said, why] of bad) {
    test(name, async () => {
      const r = await traced(gated, input);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(said);
      expect(r.why).toStartWith(why);
    });
  }
});
