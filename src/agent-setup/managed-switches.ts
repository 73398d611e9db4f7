/**
 * The keys `avp init --managed` sets in an agent's system settings so the user's own settings cannot switch hooks
 * off (Gemini CLI's `hooksConfig.enabled`, Qwen Code's `disableAllHooks`, Copilot CLI's `allowManagedHooksOnly`),
 * each recorded the way it was found, so `deinit --managed` gives back every byte: a member avp added is removed, a
 * value it replaced is put back.
 */
import { applyEdits, findNodeAtLocation, modify, parse, parseTree } from 'jsonc-parser';
import { appendMember, formatting, removeAt } from './hook-settings.ts';

/** One key and the value that keeps hooks on. */
export interface Switch {
  key: string[];
  value: unknown;
  /**
   * A list `value` is added to rather than put in place of: what is there (or, when the key is absent, the agent's
   * default, which setting the key would otherwise drop) keeps its entries.
   */
  addTo?: readonly string[];
}

/** The value `s` wants where `at` is the current value (`present`: the key is there). */
function wanted(s: Switch, at: unknown, present: boolean): unknown {
  if (!s.addTo || !Array.isArray(s.value)) return s.value;
  const base = present && Array.isArray(at) ? (at as unknown[]) : s.addTo;
  return [...new Set([...base, ...(s.value as unknown[])])];
}

/**
 * How a switch was found: the member avp added (absent before), or the value it replaced (with its text as it was
 * written, which is put back as is: re-serialising it would re-format an admin's one-line list).
 */
export type SwitchRecord = { added: string[] } | { key: string[]; before: unknown; beforeText?: string };

/**
 * `text` with every switch at its value. Each change is pushed to `record` when one is given (only on the first
 * install: a second one must not take avp's own value for the one it replaced).
 */
export function setSwitches(text: string, switches: readonly Switch[], record?: SwitchRecord[]): string {
  const fmt = formatting(text);
  for (const s of switches) {
    let at: unknown = parse(text, [], { allowTrailingComma: true }) as Record<string, unknown>;
    let present = 0;
    for (const k of s.key) {
      if (!at || typeof at !== 'object' || !(k in (at as object))) break;
      at = (at as Record<string, unknown>)[k];
      present++;
    }
    const value = wanted(s, at, present === s.key.length);
    if (present === s.key.length && JSON.stringify(at) === JSON.stringify(value)) continue;
    record?.push(
      present === s.key.length
        ? { key: s.key, before: at, beforeText: nodeText(text, s.key) }
        : { added: s.key.slice(0, present + 1) },
    );
    if (present === s.key.length) {
      text = applyEdits(text, modify(text, s.key, value, { formattingOptions: fmt }));
    } else {
      // A new member the way avp adds hook entries, so removing it later gives back every other byte.
      const nested = s.key.slice(present + 1).reduceRight<unknown>((v, k) => ({ [k]: v }), value);
      text = appendMember(text, s.key.slice(0, present), nested, fmt, s.key[present]);
    }
  }
  return text;
}

function findNode(text: string, path: string[]) {
  const tree = parseTree(text, [], { allowTrailingComma: true });
  return tree ? findNodeAtLocation(tree, path) : undefined;
}

/** The text of the value at `path`, as written. */
function nodeText(text: string, path: string[]): string | undefined {
  const node = findNode(text, path);
  return node ? text.slice(node.offset, node.offset + node.length) : undefined;
}

/** `text` with every recorded switch as it was before avp set it. */
export function restoreSwitches(text: string, record: readonly SwitchRecord[]): string {
  for (const s of [...record].reverse()) {
    if ('added' in s) {
      // Already gone (the admin took it out by hand): nothing to remove, and every other byte stays.
      if (findNode(text, s.added)) text = removeAt(text, s.added);
    } else {
      const node = findNode(text, s.key);
      if (node && s.beforeText !== undefined)
        text = `${text.slice(0, node.offset)}${s.beforeText}${text.slice(node.offset + node.length)}`;
      else text = applyEdits(text, modify(text, s.key, s.before, { formattingOptions: formatting(text) }));
    }
  }
  return text;
}
