/**
 * Where each agent's hook file goes and which folders say the agent is there, exactly: `avp init`, `avp deinit`,
 * `avp doctor` and the accepted state all find avp's hook through these paths, so a wrong one installs where the
 * agent never looks.
 */
import { describe, expect, test } from 'bun:test';
import { loadAllAgents } from '../../../src/agents/index.ts';

const ROOT = '/r';
const HOME = { HOME: '/home/u' };
/** Every variable an agent lets the user move its folder with. */
const MOVED = {
  HOME: '/home/u',
  XDG_CONFIG_HOME: '/x',
  CODEX_HOME: '/c',
  COPILOT_HOME: '/cp',
  CLAUDE_CONFIG_DIR: '/cl',
};

/** agent → [project file, user file, project markers, user markers] under HOME, then under MOVED. */
const EXPECTED: Record<string, Array<[string, string, string[], string[]]>> = {
  claude: [
    ['/r/.claude/settings.json', '/home/u/.claude/settings.json', ['/r/.claude'], ['/home/u/.claude']],
    ['/r/.claude/settings.json', '/cl/settings.json', ['/r/.claude'], ['/cl']],
  ],
  codex: [
    ['/r/.codex/hooks.json', '/home/u/.codex/hooks.json', ['/r/.codex'], ['/home/u/.codex']],
    ['/r/.codex/hooks.json', '/c/hooks.json', ['/r/.codex'], ['/c']],
  ],
  gemini: [
    ['/r/.gemini/settings.json', '/home/u/.gemini/settings.json', ['/r/.gemini'], ['/home/u/.gemini']],
    ['/r/.gemini/settings.json', '/home/u/.gemini/settings.json', ['/r/.gemini'], ['/home/u/.gemini']],
  ],
  qwen: [
    ['/r/.qwen/settings.json', '/home/u/.qwen/settings.json', ['/r/.qwen'], ['/home/u/.qwen']],
    ['/r/.qwen/settings.json', '/home/u/.qwen/settings.json', ['/r/.qwen'], ['/home/u/.qwen']],
  ],
  droid: [
    ['/r/.factory/hooks.json', '/home/u/.factory/hooks.json', ['/r/.factory'], ['/home/u/.factory']],
    ['/r/.factory/hooks.json', '/home/u/.factory/hooks.json', ['/r/.factory'], ['/home/u/.factory']],
  ],
  copilot: [
    ['/r/.github/hooks/avp.json', '/home/u/.copilot/hooks/avp.json', ['/r/.github/hooks'], ['/home/u/.copilot']],
    ['/r/.github/hooks/avp.json', '/cp/hooks/avp.json', ['/r/.github/hooks'], ['/cp']],
  ],
  cursor: [
    ['/r/.cursor/hooks.json', '/home/u/.cursor/hooks.json', ['/r/.cursor'], ['/home/u/.cursor']],
    ['/r/.cursor/hooks.json', '/home/u/.cursor/hooks.json', ['/r/.cursor'], ['/home/u/.cursor']],
  ],
  windsurf: [
    [
      '/r/.windsurf/hooks.json',
      '/home/u/.codeium/windsurf/hooks.json',
      ['/r/.windsurf'],
      ['/home/u/.codeium/windsurf'],
    ],
    [
      '/r/.windsurf/hooks.json',
      '/home/u/.codeium/windsurf/hooks.json',
      ['/r/.windsurf'],
      ['/home/u/.codeium/windsurf'],
    ],
  ],
  cline: [
    ['/r/.clinerules/hooks', '/home/u/Documents/Cline/Hooks', ['/r/.clinerules'], ['/home/u/Documents/Cline']],
    ['/r/.clinerules/hooks', '/home/u/Documents/Cline/Hooks', ['/r/.clinerules'], ['/home/u/Documents/Cline']],
  ],
  kiro: [
    ['/r/.kiro/agents/avp.json', '/home/u/.kiro/agents/avp.json', ['/r/.kiro'], ['/home/u/.kiro']],
    ['/r/.kiro/agents/avp.json', '/home/u/.kiro/agents/avp.json', ['/r/.kiro'], ['/home/u/.kiro']],
  ],
  opencode: [
    [
      '/r/.opencode/plugins/avp.ts',
      '/home/u/.config/opencode/plugins/avp.ts',
      ['/r/.opencode', '/r/opencode.json'],
      ['/home/u/.config/opencode'],
    ],
    [
      '/r/.opencode/plugins/avp.ts',
      '/x/opencode/plugins/avp.ts',
      ['/r/.opencode', '/r/opencode.json'],
      ['/x/opencode'],
    ],
  ],
  amp: [
    ['/r/.amp/plugins/avp.ts', '/home/u/.config/amp/plugins/avp.ts', ['/r/.amp'], ['/home/u/.config/amp']],
    ['/r/.amp/plugins/avp.ts', '/x/amp/plugins/avp.ts', ['/r/.amp'], ['/x/amp']],
  ],
};

describe('install paths', async () => {
  const agents = await loadAllAgents();

  test('every agent has its row', () => {
    expect(agents.map((a): string => a.name).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const agent of agents)
    test(agent.name, () => {
      for (const [i, env] of [HOME, MOVED].entries()) {
        const [project, user, projectMarkers, userMarkers] = EXPECTED[agent.name]![i]!;
        expect(agent.install.path('project', ROOT, env)).toBe(project);
        expect(agent.install.path('user', ROOT, env)).toBe(user);
        expect(agent.install.markers(ROOT, env)).toEqual({ project: projectMarkers, user: userMarkers });
      }
      if (agent.name === 'claude') {
        expect(agent.install.scopes).toEqual(['project', 'local', 'user']);
        expect(agent.install.path('local', ROOT, HOME)).toBe('/r/.claude/settings.local.json');
      } else expect(agent.install.scopes).toEqual(['project', 'user']);
    });
});
