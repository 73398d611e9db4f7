import type { CommandDef } from 'citty';

type Loader = () => Promise<CommandDef<any>>;
const load = (p: Promise<{ default: CommandDef<any> }>) => p.then((m) => m.default);

/**
 * Every command, loaded on demand: `avp hook` must not pay for registry, server or phase code.
 * The command table test (test/unit/commands-table.test.ts) fails when a command here has no test.
 */
export const commands: Record<string, Loader> = {
  // hook mode and the engine outside an agent
  hook: () => load(import('./hook.ts')),
  check: () => load(import('./check.ts')),
  init: () => load(import('./init.ts')),
  deinit: () => load(import('./deinit.ts')),
  accept: () => load(import('./accept.ts')),
  // what avp costs and does
  stats: () => load(import('./stats.ts')),
  report: () => load(import('./report.ts')),
  // authoring
  list: () => load(import('./list.ts')),
  lint: () => load(import('./lint.ts')),
  new: () => load(import('./new.ts')),
  test: () => load(import('./test.ts')),
  doctor: () => load(import('./doctor.ts')),
  // registry client
  add: () => load(import('./add.ts')),
  remove: () => load(import('./remove.ts')),
  update: () => load(import('./update.ts')),
  outdated: () => load(import('./outdated.ts')),
  install: () => load(import('./install.ts')),
  search: () => load(import('./search.ts')),
  info: () => load(import('./info.ts')),
  publish: () => load(import('./publish.ts')),
  yank: () => load(import('./yank.ts')),
  login: () => load(import('./login.ts')),
  logout: () => load(import('./logout.ts')),
  whoami: () => load(import('./whoami.ts')),
  registry: () => load(import('./registry/index.ts')),
  // phase validation
  phase: () => load(import('./phase.ts')),
  // about avp itself
  help: () => load(import('./help.ts')),
  version: () => load(import('./version.ts')),
  upgrade: () => load(import('./upgrade.ts')),
};
