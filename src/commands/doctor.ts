/**
 * `avp doctor [--json] [--no-probe] [--timeout s]`: which judge backends avp would use and why (the default and every
 * one per-validator routing adds), whether each can work and answers, the config files, the agents whose hooks call
 * avp, and validators that fail to load. Exit 1 when something is broken.
 */
import { defineCommand } from 'citty';
import { relative } from 'node:path';
import type { DoctorReport } from '../agent-setup/doctor-report.ts';
import { runCommand } from './run-command.ts';

function rel(root: string, p: string): string {
  const r = relative(root, p);
  return r && !r.startsWith('..') ? r : p;
}

/** The human form of the report (stdout: it is what the command was asked for). */
export function formatDoctor(r: DoctorReport): string {
  const out: string[] = [`avp doctor — ${r.projectRoot}`, ''];
  const row = (label: string, text: string) => out.push(`${label.padEnd(11)} ${text}`);
  const more = (text: string) => out.push(`${''.padEnd(11)} ${text}`);
  row(
    'config',
    r.config.error
      ? `INVALID: ${r.config.error}`
      : r.config.files.length
        ? r.config.files.map((f) => rel(r.projectRoot, f)).join(', ')
        : 'no config file (defaults)',
  );
  const j = r.judge;
  // The default judge on the `judge` row, every other judge routing adds below it, each with its state.
  for (const [i, x] of r.judges.entries()) {
    const what = x.backend ? `${x.backend}${x.model ? ` (model ${x.model})` : ''} — ${x.reason}` : 'none';
    if (i === 0) row('judge', x.backend ? what : `none — ${x.problem?.message}`);
    else more(`for ${x.validators.join(', ')}: ${what}`);
    if (x.problem && (x.backend || i > 0)) more(`BROKEN: ${x.problem.message}`);
    if (x.problem) more(`fix: ${x.problem.fix}`);
    else if (x.probe) more(`${x.probe.ok ? 'answers' : 'DOES NOT ANSWER'} (${x.probe.ms} ms): ${x.probe.detail}`);
    else if (x.backend === 'command') more('exists; not run (running it may cost anything): try `avp check`');
    else more('not probed (--no-probe)');
  }
  const routed = j.validators.filter(
    (v) => v.backend !== 'none' && (v.backend !== j.backend || (v.model && v.model !== j.model)),
  );
  for (const v of routed) more(`${v.id} → ${v.backend}${v.model ? ` (model ${v.model})` : ''}`);
  if (r.hooks.length)
    for (const [i, h] of r.hooks.entries())
      (i ? more : (t: string) => row('hooks', t))(`${h.agent}: ${rel(r.projectRoot, h.file)} (${h.events.join(', ')})`);
  else row('hooks', 'none call avp');
  const installed = r.agents.filter((a) => a.files.length || a.lastFired);
  for (const [i, a] of installed.entries()) {
    const where = a.files.length ? 'hook installed' : 'NO HOOK installed (it ran before)';
    const fired = a.lastFired
      ? `last ran validators ${a.lastFired.ts} (${a.lastFired.event})`
      : 'no validator run logged yet';
    (i ? more : (t: string) => row('agents', t))(`${a.name}: ${where}; ${fired}`);
    if (a.missing.length)
      more(`  ${a.name} misses avp on ${a.missing.join(', ')}: run \`avp init --agent ${a.agent}\``);
  }
  const absent = r.agents.filter((a) => !a.files.length && !a.lastFired).map((a) => a.name);
  if (absent.length) (installed.length ? more : (t: string) => row('agents', t))(`not installed: ${absent.join(', ')}`);
  const v = r.validators;
  row(
    'validators',
    `${v.loaded} loaded (${v.llm} LLM, ${v.script} script)${v.disabled ? `, ${v.disabled} disabled by config` : ''}${v.errors.length ? `, ${v.errors.length} failing to load` : ''}${v.warnings ? `, ${v.warnings} lint warning(s)` : ''}`,
  );
  for (const e of v.errors)
    more(`${rel(r.projectRoot, e.path)}${e.line ? `:${e.line}` : ''}: ${e.message} (fix: ${e.fix})`);
  out.push('');
  for (const n of r.notes) out.push(`note: ${n}`);
  if (r.problems.length) for (const p of r.problems) out.push(`problem: ${p}`);
  else out.push('ok: nothing is broken');
  return out.join('\n');
}

export default defineCommand({
  meta: {
    name: 'doctor',
    description: 'Check the judge backend (and whether it answers), config files, installed hooks and validators',
  },
  args: {
    json: { type: 'boolean', description: 'Print the report as JSON on stdout' },
    probe: {
      type: 'boolean',
      description: 'Send one cheap request to the judge backend (--no-probe skips it)',
      default: true,
    },
    timeout: { type: 'string', description: 'Seconds to wait for the backend to answer the probe', default: '20' },
  },
  run: ({ args }) =>
    runCommand(async () => {
      const seconds = Number(args.timeout);
      if (!Number.isFinite(seconds) || seconds <= 0) {
        const { AvpError } = await import('../errors.ts');
        throw new AvpError('usage', `--timeout ${JSON.stringify(args.timeout)} is not a positive number of seconds`, {
          fix: 'e.g. --timeout 10',
        });
      }
      const { doctorReport } = await import('../agent-setup/doctor-report.ts');
      const report = await doctorReport({
        cwd: process.cwd(),
        env: process.env,
        probe: args.probe !== false,
        timeoutMs: seconds * 1000,
      });
      process.stdout.write(args.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatDoctor(report)}\n`);
      return report.problems.length ? 1 : 0;
    }),
});
