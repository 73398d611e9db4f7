/**
 * `avp --help` (and bare `avp`, `avp help`): one line per command in groups, the way git and npm print theirs, at
 * most 100 columns wide. A command's own `--help` (citty's screen) carries its flags; this screen only names things.
 * The table must list every command of the command table: test/integration/cli-help.test.ts checks both ways.
 */
import { VERSION } from '../version.ts';

/** Each group's commands, in the order a user meets them, with a summary that fits one line. */
export const HELP_GROUPS: ReadonlyArray<readonly [string, ReadonlyArray<readonly [string, string]>]> = [
  [
    'set up a project',
    [
      ['init', "hook avp into your coding agents and install the catalog's offline validators"],
      ['deinit', "remove avp's hook entries (and nothing else) from the agents' settings"],
      ['doctor', 'check judges, hooks, config and validators; say what to fix'],
      ['accept', "review and accept changes to avp's validators, config and hooks"],
    ],
  ],
  [
    'validate changes',
    [
      ['hook', "one agent hook event on stdin, the agent's answer on stdout (agents run this)"],
      ['check', 'validate the working tree, staged changes, a revision range or files'],
      ['phase', 'Phase Validation: format, lint, build, test and review after a phase of work'],
    ],
  ],
  [
    'write validators',
    [
      ['new', 'create a validator skeleton that passes lint'],
      ['lint', 'check validator files against the format; file:line:col messages'],
      ['list', 'installed validators: version, scope, source, status'],
    ],
  ],
  [
    'share validators',
    [
      ['add', 'install validators from the registry, the catalog, a folder, git or a URL'],
      ['remove', 'uninstall a validator avp installed'],
      ['update', 'update installed validators within their recorded ranges'],
      ['outdated', 'installed validators with newer versions'],
      ['install', 'install exactly what the lockfile says'],
      ['search', 'search the registry (offline: the catalog)'],
      ['info', "a package's description, versions and integrity"],
      ['publish', 'lint, pack and upload a validator'],
      ['yank', 'hide a published version from resolution'],
      ['login', 'log in to the registry'],
      ['logout', 'revoke and delete the stored registry token'],
      ['whoami', 'who the stored registry token belongs to'],
      ['registry', 'run and administer a self-hosted registry (serve, export, tokens, audit)'],
    ],
  ],
  [
    'see what avp does',
    [
      ['stats', 'per validator: runs, blocks, errors, time, tokens, cost'],
      ['report', 'the same as one self-contained HTML page'],
    ],
  ],
  [
    'about avp',
    [
      ['help', "a command's help and flags (the same as avp <command> --help)"],
      ['version', "avp's version"],
      ['upgrade', 'replace this avp with the newest release, checksum-verified'],
    ],
  ],
];

const bold = (s: string) => `\x1b[1m${s}\x1b[22m`;
const cyan = (s: string) => `\x1b[36m${s}\x1b[39m`;

/** The root help screen, with colour codes that writeUsage strips unless the stream is a terminal. */
export function rootHelpText(): string {
  const width = Math.max(...HELP_GROUPS.flatMap(([, cmds]) => cmds.map(([name]) => name.length)));
  const lines = [
    `avp ${VERSION} — checks every change a coding agent makes against your validators (VALIDATOR.md)`,
    '',
    'usage: avp <command> [flags]',
  ];
  for (const [group, cmds] of HELP_GROUPS) {
    lines.push('', bold(`${group}:`));
    for (const [name, summary] of cmds) lines.push(`  ${cyan(name.padEnd(width))}  ${summary}`);
  }
  lines.push('', "`avp help <command>` or `avp <command> --help` shows a command's flags.");
  lines.push('Docs: README.md and docs/ in the repository; AVP_DISABLE=1 turns avp off.');
  return lines.join('\n');
}
