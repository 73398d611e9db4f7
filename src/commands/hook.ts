// SKELETON: replaced by the hook-mode issue.
export async function runHookCommand(_argv: string[]): Promise<number> {
  process.stdout.write('{}\n');
  return 0;
}
import { defineCommand } from 'citty';
export default defineCommand({ meta: { name: 'hook', description: 'not built yet' } });
