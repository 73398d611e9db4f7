/**
 * The built-in guard in-process, entry by entry of its documented lists (docs/hook-mode.md: `$AVP_HOME` but its
 * `validators/` and `config.json`, `.avp/cache|logs|trust`; docs/accepted-state.md: every agent's project hook
 * settings file and the hook files avp writes whole). The lists come from the docs, never from the guard's tables.
 * The same guarantees through the binary: test/integration/documented-lists.test.ts and trust.test.ts.
 */
import { describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { HookEvent } from '../../../src/protocol/event.ts';
import { OWNED_MARKER } from '../../../src/trust/control-files.ts';
import { controlPlaneDenial } from '../../../src/trust/guard.ts';
import { tempDir } from '../../support/run-avp.ts';

const docs = (name: string) => readFileSync(join(import.meta.dir, '../../../docs', name), 'utf8').replace(/\s+/g, ' ');
/** The backticked entries of the docs passage that follows `start`, up to the closing parenthesis. */
function listAfter(text: string, start: string): string[] {
  const from = text.indexOf(start);
  expect({ start, found: from >= 0 }).toEqual({ start, found: true });
  const passage = text.slice(from + start.length, text.indexOf(')', from + start.length));
  return [...passage.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
}

const PROTECTED_DIRS = (docs('hook-mode.md').match(/`\.avp\/((?:[a-z]+\|)+[a-z]+)`/)?.[1] ?? '').split('|');
const SETTINGS = listAfter(docs('accepted-state.md'), "every agent's project hook settings (");
const OWNED = listAfter(docs('accepted-state.md'), 'the hook files avp writes whole (');
const AVP_HOOK = JSON.stringify({
  hooks: { PreToolUse: [{ matcher: '', hooks: [{ type: 'command', command: 'avp hook --agent claude' }] }] },
});

function setup() {
  const root = tempDir('avp-guard-root-');
  const home = tempDir('avp-guard-home-');
  const env = { HOME: home, AVP_HOME: join(home, '.avp'), XDG_CONFIG_HOME: join(home, '.config') };
  /** A file tool's write of `path` (absolute) at `event`, with the content it leaves. */
  const write = (path: string, after = '{}', event = 'PreToolUse'): HookEvent =>
    ({
      agent: 'claude',
      event,
      tool: 'Write',
      toolInput: { file_path: path, content: after },
      cwd: root,
      projectRoot: root,
      files: [
        {
          path,
          relPath: relative(root, path),
          inProject: !relative(root, path).startsWith('..'),
          kind: 'update',
          after,
        },
      ],
      raw: {},
    }) as HookEvent;
  const deny = (path: string, after?: string, event?: string) => controlPlaneDenial(write(path, after, event), env);
  const put = (path: string, text: string) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  };
  return { root, home, env, write, deny, put };
}

describe("avp's own state", () => {
  test('the docs name the three project folders', () => {
    expect(PROTECTED_DIRS).toEqual(['cache', 'logs', 'trust']);
  });

  test.each(['cache', 'logs', 'trust'])(
    '.avp/%s/ of the project is denied at PreToolUse and PermissionRequest',
    (dir) => {
      const g = setup();
      for (const event of ['PreToolUse', 'PermissionRequest'])
        expect(g.deny(join(g.root, '.avp', dir, 'deep', 'x.json'), '{}', event)).toContain("avp's own state");
      expect(g.deny(join(g.root, '.avp', dir), '{}')).toContain("avp's own state");
      // After the fact there is nothing to deny: PostToolUse is judged by the validators.
      expect(g.deny(join(g.root, '.avp', dir, 'x.json'), '{}', 'PostToolUse')).toBeUndefined();
    },
  );

  test('neighbours of those folders are not avp state: .avp/validators, .avp/config.json, .avp/statefile, src/', () => {
    const g = setup();
    for (const rel of [
      '.avp/validators/mine/VALIDATOR.md',
      '.avp/config.json',
      '.avp/statefile',
      '.avp/logsx/a',
      'src/a.ts',
    ])
      expect({ rel, denial: g.deny(join(g.root, rel)) }).toEqual({ rel, denial: undefined });
  });

  test('everything in $AVP_HOME but validators/ and config.json is denied', () => {
    const g = setup();
    const home = join(g.home, '.avp');
    for (const rel of [
      'trust/p/accepted.json',
      'cache/v.json',
      'avp-lock.json',
      'credentials.json',
      'validators.json',
      'config.json/x',
    ])
      expect({ rel, denied: g.deny(join(home, rel))?.includes("avp's own state") }).toEqual({ rel, denied: true });
    expect(g.deny(home)).toContain("avp's own state");
    for (const rel of ['validators/mine/VALIDATOR.md', 'config.json'])
      expect({ rel, denial: g.deny(join(home, rel)) }).toEqual({ rel, denial: undefined });
  });

  test('a path that leads there through a symlink is judged where it leads', () => {
    const g = setup();
    mkdirSync(join(g.root, '.avp', 'logs'), { recursive: true });
    symlinkSync(join(g.root, '.avp', 'logs'), join(g.root, 'innocent'));
    expect(g.deny(join(g.root, 'innocent', 'hook.jsonl'))).toContain("avp's own state");
  });

  test('the reason names the file and tells the agent to leave it alone', () => {
    const g = setup();
    const reason = g.deny(join(g.root, '.avp', 'trust', 'x'))!;
    expect(reason).toContain('.avp/trust/x');
    expect(reason).toContain('avp refuses this Write change');
    expect(reason).toContain('Leave it alone');
  });
});

describe("avp's hook entries in every agent's project hook settings file (docs/accepted-state.md)", () => {
  test('the docs list ten settings files and the files avp writes whole', () => {
    expect(SETTINGS).toHaveLength(10);
    expect(OWNED).toEqual(['.opencode/plugins/avp.ts', '.amp/plugins/avp.ts', '.clinerules/hooks/*']);
  });

  test('for each: dropping avp hook is denied, keeping it while changing the rest is not', () => {
    const g = setup();
    for (const rel of SETTINGS) {
      const path = join(g.root, rel);
      g.put(path, AVP_HOOK);
      const dropped = g.deny(path, '{"hooks": {}}');
      expect({ rel, denied: dropped?.includes("avp's hook entries") }).toEqual({ rel, denied: true });
      const kept = JSON.stringify({ ...JSON.parse(AVP_HOOK), theme: 'dark' });
      expect({ rel, denial: g.deny(path, kept) }).toEqual({ rel, denial: undefined });
    }
  });

  test('a settings file without avp hook may be written freely', () => {
    const g = setup();
    g.put(join(g.root, '.claude/settings.json'), '{"theme": "light"}');
    expect(g.deny(join(g.root, '.claude/settings.json'), '{"theme": "dark"}')).toBeUndefined();
  });

  test("each file avp writes whole: any change is denied, the same bytes are not; someone else's file is free", () => {
    const g = setup();
    const files = OWNED.flatMap((rel) =>
      rel.endsWith('/*') ? ['PreToolUse', 'TaskStart'].map((e) => rel.replace('*', e)) : [rel],
    );
    for (const rel of files) {
      const path = join(g.root, rel);
      const text = `// ${OWNED_MARKER}\nexport default {};\n`;
      g.put(path, text);
      expect({ rel, denied: g.deny(path, 'export default {};\n')?.includes("avp's hook") }).toEqual({
        rel,
        denied: true,
      });
      expect({ rel, denial: g.deny(path, text) }).toEqual({ rel, denial: undefined });
      g.put(path, 'my own plugin\n');
      expect({ rel, denial: g.deny(path, 'changed\n') }).toEqual({ rel, denial: undefined });
    }
  });

  test("a plugin's hooks.json under ~/.claude/plugins or ~/.codex/plugins: avp's hooks cannot be changed", () => {
    const g = setup();
    for (const dir of ['.claude/plugins/cache/avp/avp/1.0.0/hooks', '.codex/plugins/avp/hooks']) {
      const path = join(g.home, dir, 'hooks.json');
      g.put(path, AVP_HOOK);
      expect({ dir, denied: !!g.deny(path, '{"hooks": {}}') }).toEqual({ dir, denied: true });
      expect({ dir, denial: g.deny(path, AVP_HOOK) }).toEqual({ dir, denial: undefined });
    }
  });
});

describe('the edges of what the guard looks at', () => {
  test('the .avp folder itself and a sibling file are not avp state (only the four folders are)', () => {
    const g = setup();
    expect(g.deny(join(g.root, '.avp'))).toBeUndefined();
    expect(g.deny(join(g.root, '.avp-notes'))).toBeUndefined();
  });

  test('a tool the event does not name is called "file" in the reason', () => {
    const g = setup();
    const event = { ...g.write(join(g.root, '.avp', 'logs', 'x')), tool: undefined };
    expect(controlPlaneDenial(event, g.env)).toContain('avp refuses this file change: .avp/logs/x is');
  });

  test('the full reasons: a settings file, and a file avp writes whole', () => {
    const g = setup();
    const settings = join(g.root, '.claude/settings.json');
    g.put(settings, AVP_HOOK);
    expect(g.deny(settings, '{}')).toContain('avp refuses this change to .claude/settings.json: ');
    const plugin = join(g.root, '.opencode/plugins/avp.ts');
    g.put(plugin, `// ${OWNED_MARKER}\n`);
    expect(g.deny(plugin, 'x')).toBe(
      "avp refuses this change to .opencode/plugins/avp.ts: it is avp's hook, which only the user changes " +
        '(`avp init` / `avp deinit` in their own terminal).',
    );
  });

  test('a settings file that does not exist yet may be created; one whose result is unknown is refused', () => {
    const g = setup();
    const settings = join(g.root, '.gemini/settings.json');
    expect(g.deny(settings, '{"theme": "x"}')).toBeUndefined();
    const unknown = (path: string) => {
      const event = g.write(path);
      event.files[0]!.after = undefined;
      return controlPlaneDenial(event, g.env);
    };
    g.put(settings, '{"theme": "x"}');
    g.put(settings, AVP_HOOK);
    expect(unknown(settings)).toContain('avp refuses this change to .gemini/settings.json'); // it might drop them
  });

  test('avp hook text in any other file is the project business: not a settings file, not a plugin hooks.json', () => {
    const g = setup();
    for (const path of [
      join(g.root, 'src/hooks.json'),
      join(g.root, 'docs/example-settings.json'),
      join(g.home, '.claude/hooks.json'),
      join(g.home, '.claude/plugins/avp/README.json'),
    ]) {
      g.put(path, AVP_HOOK);
      expect({ path, denial: g.deny(path, '{}') }).toEqual({ path, denial: undefined });
    }
  });

  test('$CLAUDE_CONFIG_DIR and $CODEX_HOME move the plugin folders the guard watches', () => {
    const g = setup();
    const env = { ...g.env, CLAUDE_CONFIG_DIR: join(g.home, 'cc'), CODEX_HOME: join(g.home, 'cx') };
    for (const dir of ['cc/plugins/cache/avp', 'cx/plugins/avp']) {
      const path = join(g.home, dir, 'hooks', 'hooks.json');
      g.put(path, AVP_HOOK);
      expect({ dir, denied: !!controlPlaneDenial(g.write(path, '{}'), env) }).toEqual({ dir, denied: true });
    }
  });
});

describe('a control file reached under a name of its own (the guard resolves only the names that could be it)', () => {
  const dropHooks = '{"hooks": {}}';
  const hooksOff = '{"disableAllHooks": true}';
  test('a settings file that is a symlink to a file of another name: writing that file is judged as the settings', () => {
    const g = setup();
    g.put(join(g.root, 'dotfiles/claude.json'), AVP_HOOK);
    mkdirSync(join(g.root, '.claude'));
    symlinkSync('../dotfiles/claude.json', join(g.root, '.claude/settings.json'));
    expect(g.deny(join(g.root, 'dotfiles/claude.json'), dropHooks)).toContain("avp's hook entries");
    g.put(join(g.home, 'dots/user-claude.json'), AVP_HOOK);
    mkdirSync(join(g.home, '.claude'));
    symlinkSync(join(g.home, 'dots/user-claude.json'), join(g.home, '.claude/settings.json'));
    expect(g.deny(join(g.home, 'dots/user-claude.json'), dropHooks)).toContain("avp's hook entries");
  });
  test('an event naming many files: the one a settings link leads to is found among them, wherever it stands', () => {
    const g = setup();
    g.put(join(g.root, 'dotfiles/claude.json'), AVP_HOOK);
    mkdirSync(join(g.root, '.claude'));
    symlinkSync('../dotfiles/claude.json', join(g.root, '.claude/settings.json'));
    const many = (paths: string[]) => {
      const event = g.write(paths[0]!, '{}');
      event.files = paths.map((path) => ({ ...event.files[0]!, path, relPath: relative(g.root, path), after: '{}' }));
      return controlPlaneDenial(event, g.env);
    };
    const others = Array.from({ length: 20 }, (_, i) => join(g.root, `src/file${i}.ts`));
    const target = join(g.root, 'dotfiles/claude.json');
    expect(many([...others, target])).toContain("avp's hook entries");
    expect(many([target, ...others])).toContain("avp's hook entries");
    expect(many(others)).toBeUndefined();
  });
  test('a dangling symlink in place of a settings file: creating its target is judged as the settings', () => {
    const g = setup();
    mkdirSync(join(g.root, '.claude'));
    symlinkSync('../notes/later.json', join(g.root, '.claude/settings.local.json'));
    expect(g.deny(join(g.root, 'notes/later.json'), hooksOff)).toContain('hook');
    expect(g.deny(join(g.root, 'notes/other.json'), hooksOff)).toBeUndefined();
  });
  test("a settings folder that is a symlink: a file of the settings' name inside its target is the settings", () => {
    const g = setup();
    mkdirSync(join(g.root, 'claude-real'));
    symlinkSync('claude-real', join(g.root, '.claude'));
    expect(g.deny(join(g.root, 'claude-real/settings.local.json'), hooksOff)).toContain('hook');
    expect(g.deny(join(g.root, 'claude-real/notes.json'), hooksOff)).toBeUndefined();
  });
  test('an avp on PATH that is a symlink, present or dangling: writing where it leads is refused', () => {
    const g = setup();
    const env = { ...g.env, PATH: join(g.home, 'bin') };
    mkdirSync(join(g.home, 'bin'));
    g.put(join(g.home, 'tools/avp-1.2'), 'binary');
    symlinkSync('../tools/avp-1.2', join(g.home, 'bin/avp'));
    const deny = (path: string) => controlPlaneDenial(g.write(path, 'x'), env);
    expect(deny(join(g.home, 'tools/avp-1.2'))).toContain('is an avp that agents');
    expect(deny(join(g.home, 'bin/avp'))).toContain('is an avp that agents');
    expect(deny(join(g.home, 'tools/avp-1.3'))).toBeUndefined();
    const next = { ...env, PATH: join(g.home, 'next') };
    mkdirSync(join(g.home, 'next'));
    symlinkSync('../tools/avp-next', join(g.home, 'next/avp'));
    expect(controlPlaneDenial(g.write(join(g.home, 'tools/avp-next'), 'x'), next)).toContain('is an avp that agents');
  });
});
