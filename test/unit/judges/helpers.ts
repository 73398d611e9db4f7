/** Validators and events for judge tests, built the way discovery and the Claude adapter build them. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HookEvent, FileChange } from '../../../src/protocol/event.ts';
import type { Validator } from '../../../src/validator/types.ts';
import { tempDir } from '../../support/run-avp.ts';

export function makeValidator(
  over: Omit<Partial<Validator>, 'references'> & { references?: Record<string, string> } = {},
): Validator {
  const name = over.name ?? 'no-secrets';
  let dir = over.dir;
  let refs: string[] = [];
  if (over.references) {
    dir ??= tempDir('avp-val-');
    mkdirSync(join(dir, 'references'), { recursive: true });
    refs = Object.entries(over.references).map(([f, text]) => {
      const p = join(dir!, 'references', f);
      writeFileSync(p, text);
      return p;
    });
  }
  return {
    id: over.id ?? name,
    name,
    source: 'project',
    form: dir ? 'directory' : 'file',
    path: dir ? join(dir, 'VALIDATOR.md') : `/tmp/${name}.md`,
    ...(dir ? { dir } : {}),
    spec: {
      name,
      description: 'Blocks hardcoded secrets.',
      severity: 'error',
      trigger: 'PostToolUse',
      match: { tools: ['Write', 'Edit'] },
      tags: [],
      once: false,
      timeout: 60,
      ...over.spec,
    },
    body: over.body ?? 'Fail when the change adds a hardcoded API key, password or token.',
    references: refs,
    hash: over.hash ?? `hash-${name}`,
  };
}

export function editEvent(opts: {
  before: string;
  after: string;
  relPath?: string;
  projectRoot?: string;
  diff?: string;
}): HookEvent {
  const projectRoot = opts.projectRoot ?? '/home/dev/project';
  const relPath = opts.relPath ?? 'src/config.ts';
  const file: FileChange = {
    path: join(projectRoot, relPath),
    relPath,
    inProject: true,
    kind: 'update',
    before: opts.before,
    after: opts.after,
  };
  if (opts.diff) file.diff = opts.diff;
  return {
    agent: 'claude',
    event: 'PostToolUse',
    tool: 'Edit',
    toolInput: { file_path: file.path, old_string: 'x', new_string: 'y' },
    cwd: projectRoot,
    projectRoot,
    files: [file],
    raw: { hook_event_name: 'PostToolUse' },
  };
}

export function writeEvent(content: string, opts: { relPath?: string; projectRoot?: string } = {}): HookEvent {
  const projectRoot = opts.projectRoot ?? '/home/dev/project';
  const relPath = opts.relPath ?? 'src/new.ts';
  const path = join(projectRoot, relPath);
  return {
    agent: 'claude',
    event: 'PostToolUse',
    tool: 'Write',
    toolInput: { file_path: path, content },
    cwd: projectRoot,
    projectRoot,
    files: [{ path, relPath, inProject: true, kind: 'create', before: null, after: content }],
    raw: { hook_event_name: 'PostToolUse' },
  };
}
