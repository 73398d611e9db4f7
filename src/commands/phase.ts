import { defineCommand } from 'citty';
import { runCommand } from './run-command.ts';

/** Reads the request: `--input FILE` (`-` = stdin), else stdin. Problems become protocol issues, never exceptions. */
async function readRequest(
  inputArg: string | undefined,
): Promise<{ ok: true; text: string; origin: string } | { ok: false; issue: string }> {
  if (inputArg && inputArg !== '-') {
    const { readFile } = await import('node:fs/promises');
    try {
      return { ok: true, text: await readFile(inputArg, 'utf8'), origin: `input file '${inputArg}'` };
    } catch (e: any) {
      const why =
        e?.code === 'ENOENT' ? 'no such file' : e?.code === 'EISDIR' ? 'it is a directory' : (e?.code ?? String(e));
      return { ok: false, issue: `Validation failed: cannot read input file '${inputArg}': ${why}` };
    }
  }
  if (process.stdin.isTTY)
    return { ok: false, issue: 'Validation failed: no input (pipe the request JSON on stdin or pass --input FILE)' };
  return { ok: true, text: await new Response(Bun.stdin.stream()).text(), origin: 'stdin' };
}

export default defineCommand({
  meta: {
    name: 'phase',
    description:
      'Phase validation (Phase Validation Agent Protocol 1.0): formatter, linter, build, tests, code and security review; request JSON in, result JSON out (exit 0 pass, 1 fail)',
  },
  args: {
    input: {
      type: 'string',
      description: 'Read the request JSON from FILE instead of stdin ("-" = stdin)',
      valueHint: 'FILE',
    },
    timeout: { type: 'string', description: 'Per-command timeout in seconds (default 600)', valueHint: 'SECONDS' },
    quiet: {
      type: 'boolean',
      description: 'Do not print notes (detected language, missing tools, log path) on stderr',
    },
  },
  async run({ args }) {
    await runCommand(async () => {
      const timeout = args.timeout === undefined ? undefined : Number(args.timeout);
      if (timeout !== undefined && (!Number.isFinite(timeout) || timeout <= 0)) {
        const { AvpError } = await import('../errors.ts');
        throw new AvpError(
          'phase-args',
          `--timeout ${JSON.stringify(args.timeout)} is not a positive number of seconds`,
          { fix: 'pass e.g. --timeout 300' },
        );
      }
      const [{ runPhaseDetailed }, { parseInputText }, { invalidInputOutput }] = await Promise.all([
        import('../phase/run.ts'),
        import('../phase/input.ts'),
        import('../phase/output.ts'),
      ]);
      const print = (output: unknown) => process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
      const request = await readRequest(args.input);
      const parsed = request.ok
        ? parseInputText(request.text, request.origin)
        : { ok: false as const, issues: [request.issue] };
      if (!parsed.ok) {
        if (!args.quiet) process.stderr.write(`avp phase: ${parsed.issues.join('; ')}\n`);
        print(invalidInputOutput(parsed.issues));
        return 1;
      }
      const run = await runPhaseDetailed(parsed.data, {
        env: process.env,
        ...(timeout ? { commandTimeoutMs: timeout * 1000 } : {}),
        onNote: args.quiet ? undefined : (n: string) => process.stderr.write(`avp phase: ${n}\n`),
      });
      print(run.output);
      return run.output.status === 'pass' ? 0 : 1;
    });
  },
});
