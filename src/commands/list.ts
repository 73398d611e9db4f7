// SKELETON: replaced by the issue that owns this command.
import { defineCommand } from 'citty';
export default defineCommand({ meta: { name: 'list', description: 'not built yet' }, run() { throw new Error('not built yet'); } });
