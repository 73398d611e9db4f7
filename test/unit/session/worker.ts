/** A separate process for the concurrency tests: `bun worker.ts <mode> <root> [arg]`. Prints JSON on stdout. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultConfig } from '../../../src/config/config.ts';
import { onceState, prepareEvent, stopGuard } from '../../../src/session/session.ts';
import type { HookEvent } from '../../../src/protocol/event.ts';

const [mode, root, arg] = process.argv.slice(2) as [string, string, string];
const base: HookEvent = {
  agent: 'claude',
  event: 'PostToolUse',
  sessionId: 's1',
  cwd: root,
  projectRoot: root,
  files: [],
  raw: {},
};
const cfg = defaultConfig();

if (mode === 'write') {
  // 50 Write events, each on its own file.
  for (let i = 0; i < 50; i++) {
    const rel = `w${arg}-${i}.txt`;
    writeFileSync(join(root, rel), `${arg}/${i}\n`);
    await prepareEvent(
      {
        ...base,
        tool: 'Write',
        files: [
          {
            path: join(root, rel),
            relPath: rel,
            inProject: true,
            kind: 'create',
            before: null,
            after: `${arg}/${i}\n`,
          },
        ],
      },
      cfg,
    );
  }
  console.log('{}');
} else if (mode === 'stop') {
  // One Stop decision in its own process (the concurrency test starts several at once).
  const d = await stopGuard(
    {
      ...base,
      event: 'Stop',
      stopHookActive: arg === 'active',
      raw: { hook_event_name: 'Stop', stop_hook_active: arg === 'active' },
    },
    true,
    cfg,
  );
  console.log(JSON.stringify(d));
} else if (mode === 'once') {
  const st = await onceState(root, 's1');
  console.log(JSON.stringify(await st.claim(['v1'])));
}
