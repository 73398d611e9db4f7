/**
 * A validator that takes a second to pass a Write or Edit, for the twin-hook tests (the plugin's hook and the
 * settings' hook of one event): the call that claims the event stays alive while its twin starts. A claim binds only
 * to a live twin (src/hook/duplicate-call.ts), so twins that never overlap are both judged by design; on a loaded
 * machine an agent may start the second hook after a fast first one has answered, which is not what a
 * once-per-event test is about.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function slowPassValidator(root: string, trigger: 'PreToolUse' | 'PostToolUse'): void {
  const dir = join(root, '.avp', 'validators', 'slow-pass');
  mkdirSync(join(dir, 'scripts'), { recursive: true });
  writeFileSync(
    join(dir, 'VALIDATOR.md'),
    `---\nname: slow-pass\ndescription: Passes every Write or Edit after a second.\nseverity: error\n` +
      `trigger: ${trigger}\nmatch:\n  tools: [Write, Edit]\nscript: scripts/check.sh\n---\nPasses.\n`,
  );
  const script = join(dir, 'scripts', 'check.sh');
  writeFileSync(script, `#!/bin/sh\ncat >/dev/null\nsleep 1\necho '{"passed":true,"violations":[],"summary":"ok"}'\n`);
  chmodSync(script, 0o755);
}
