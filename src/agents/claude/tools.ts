/**
 * Claude Code's tools as avp reads them: the canonical name and what kind of tool it is. A module of its own, with
 * no import but a type, because the hook shortcut (hook/shortcut/) reads it too before anything else is loaded: the
 * kind says whether the guard reads a before-tool call of the tool.
 */
import type { ToolMapping } from '../types.ts';

export const CLAUDE_TOOLS: Readonly<Record<string, ToolMapping>> = {
  Write: { tool: 'Write', kind: 'write' },
  Edit: { tool: 'Edit', kind: 'edit' },
  MultiEdit: { tool: 'MultiEdit', kind: 'edit' },
  NotebookEdit: { tool: 'NotebookEdit', kind: 'edit' },
  Bash: { tool: 'Bash', kind: 'shell' },
  Read: { tool: 'Read', kind: 'read' },
  Grep: { tool: 'Grep', kind: 'read' },
  Glob: { tool: 'Glob', kind: 'read' },
  LS: { tool: 'LS', kind: 'read' },
};
