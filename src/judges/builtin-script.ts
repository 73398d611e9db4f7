/**
 * Catalog script judges compiled into avp. A catalog validator's script runs as its own process by default like any
 * script (the protocol of script.ts), which costs a second runtime start (~33 ms of latency, bench/hook.ts) on every
 * matching hook call.
 * When the installed `scripts/` folder is byte-identical to the catalog's — checked by a content hash taken when the
 * validator is loaded, which the parse cache and the hook memo keep only while no file of the validator changed
 * (validator/scripts-hash.ts), so an edited copy always runs from disk — avp calls the same code's `validate(event)`
 * from its own bundle instead: no process, no transpiling. These scripts are avp's own, tested code (linear-time
 * rules, fuzzed in test/catalog), which is what makes running them in the hook process acceptable; every other script
 * stays a process.
 */
import { join } from 'node:path';
import { lazyProperty } from '../file-changes/lazy.ts';
import { scriptsDirHash } from '../validator/scripts-hash.ts';

type Validate = (event: unknown) => unknown;

/**
 * The built-in `validate` for a script, or undefined when the installed folder differs from every catalog version.
 * `script` is the frontmatter value (`scripts/check.ts`), `validatorDir` the installed validator's folder, `known`
 * its `scripts/` hash as loaded (`Validator.scripts`); without one it is computed here.
 */
export async function builtinValidate(
  validatorDir: string,
  script: string,
  known?: string,
): Promise<Validate | undefined> {
  const hash = known ?? scriptsDirHash(join(validatorDir, 'scripts'));
  if (!hash) return undefined;
  const { BUILTIN_SCRIPTS } = await import('../catalog/builtin-scripts.generated.ts');
  const load = BUILTIN_SCRIPTS[`${script.replace(/^\.\//, '')}:${hash}`];
  if (!load) return undefined;
  const mod = await load();
  return typeof mod.validate === 'function' ? (mod.validate as Validate) : undefined;
}

/**
 * Calls a built-in `validate` with the script environment of the protocol (AVP_VALIDATOR_DIR…) set for the duration
 * of the call. The catalog's validate functions are synchronous, so no other judge can observe the swapped values.
 */
export function callWithEnv(validate: Validate, event: unknown, env: Record<string, string>): unknown {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    return validate(event);
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/**
 * `value` as `JSON.parse(JSON.stringify(value))` would give it — what a script process reads from stdin: `toJSON`
 * applied, `undefined`, functions and symbols dropped from objects (`null` in arrays), non-finite numbers `null` —
 * but with its strings shared instead of serialized and parsed again. Strings cannot be changed, so the script still
 * gets objects of its own; a 1 MB Write's text (in the tool input, the file's new contents, its diff, the raw input)
 * is no longer copied four times over for each in-process script.
 */
export function jsonCopy(value: unknown): unknown {
  const v =
    value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function'
      ? (value as { toJSON: () => unknown }).toJSON()
      : value;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'bigint') throw new TypeError('JSON cannot represent a BigInt');
  if (v === null || typeof v !== 'object') return typeof v === 'function' || typeof v === 'symbol' ? undefined : v;
  if (Array.isArray(v)) return v.map((x) => jsonCopy(x) ?? null);
  if (v instanceof Number || v instanceof String || v instanceof Boolean) return jsonCopy(v.valueOf());
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) {
    const get = Object.getOwnPropertyDescriptor(v, k)!.get;
    // A property built when first read (a created file's diff, file-changes/diff.ts `setCreateDiff`) stays so in the
    // copy: a script that never reads it never builds it.
    if (get) lazyProperty(out, k, () => jsonCopy(get.call(v)));
    else {
      const c = jsonCopy((v as Record<string, unknown>)[k]);
      if (c !== undefined) out[k] = c;
    }
  }
  return out;
}
