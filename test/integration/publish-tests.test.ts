/**
 * `avp publish` runs the package's script cases: failing cases refuse the upload, `--allow-failing-tests` publishes
 * and the registry records it; the registry stores the publisher's report per version (checked against the case
 * files in the archive, never run), and the package page, `avp info` and `avp add` show it.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startPostgres, type TestPostgres } from '../support/postgres.ts';
import { runAvp, tempDir } from '../support/run-avp.ts';
import { api, createToken, startServerProcess, zipOf, type ServerProcess } from './registry-server-support.ts';

setDefaultTimeout(60_000);

const CHECK =
  "import { readFileSync } from 'node:fs';\nconst e = JSON.parse(readFileSync(0, 'utf8'));\nconst v: object[] = [];\n" +
  "for (const f of e.files ?? []) if (/TODO/.test(String(f.after ?? ''))) v.push({ rule: 'todo', file: f.relPath });\n" +
  "console.log(JSON.stringify({ passed: !v.length, violations: v, summary: 'x' }));\n";

function md(name: string, version: string): string {
  return (
    `---\nname: ${name}\ndescription: Flags TODO markers in written files.\nseverity: error\ntrigger: PostToolUse\n` +
    `match:\n  tools: [Write]\nscript: scripts/check.ts\nmetadata:\n  version: "${version}"\n---\n\n# ${name}\n`
  );
}

// SQLite, then PostgreSQL (the report lives in the version's facts; the same schema on both).
let pg: TestPostgres | undefined;
afterAll(async () => {
  await pg?.stop();
});

for (const engine of ['sqlite', 'postgres'] as const)
  describe(`publish with tests (${engine})`, () => {
    let srv: ServerProcess;
    let token: string;
    const data = tempDir('avp-pt-data-');
    const home = tempDir('avp-pt-home-');
    const project = tempDir('avp-pt-project-');
    const author = tempDir('avp-pt-author-');
    const avp = (args: string[]) =>
      runAvp(args, { cwd: project, env: { HOME: home, AVP_HOME: join(home, '.avp'), AVP_REGISTRY_URL: srv.url } });
    const pkg = (name: string, version: string, cases: Record<string, string>) => {
      const dir = join(author, name);
      mkdirSync(join(dir, 'scripts'), { recursive: true });
      writeFileSync(join(dir, 'VALIDATOR.md'), md(name, version));
      writeFileSync(join(dir, 'scripts/check.ts'), CHECK);
      for (const [rel, text] of Object.entries(cases)) {
        mkdirSync(join(dir, 'tests', rel, '..'), { recursive: true });
        writeFileSync(join(dir, 'tests', rel), text);
      }
      return dir;
    };

    beforeAll(async () => {
      mkdirSync(join(project, '.git'));
      let db: string | undefined;
      if (engine === 'postgres') {
        pg = await startPostgres();
        db = await pg.database('publish_tests');
      }
      srv = await startServerProcess({ data, ...(db ? { db } : {}) });
      token = (await createToken(data, 'alice', { email: 'alice@example.test', ...(db ? { db } : {}) })).token;
      expect((await avp(['login', '--token', token, '--registry', srv.url])).code).toBe(0);
    }, 120_000);
    afterAll(async () => {
      await srv?.stop();
    });

    test('passing cases: published, and info, the page and add say "2 cases, all pass"', async () => {
      const dir = pkg('todo-check', '1.0.0', { 'a.ts': 'x // TODO avp:expect todo\n', 'b.ts': 'ok\n' });
      const pub = await avp(['publish', dir]);
      expect(pub.code).toBe(0);
      expect(pub.stderr).toContain('tests: 2 cases, all pass');
      const v = await api(srv.url, '/api/packages/todo-check/1.0.0');
      expect(v.body.tests).toEqual({ caseFiles: 2, cases: 2, failed: 0, reportedBy: 'publisher' });
      expect((await avp(['info', 'todo-check'])).stdout).toContain(
        "tests:     2 cases, all pass (the publisher's report)",
      );
      const page = await fetch(`${srv.url}/packages/todo-check`, { headers: { accept: 'text/html' } }).then((r) =>
        r.text(),
      );
      expect(page).toContain('2 cases, all pass');
      expect(page).toContain('not run by this registry');
      const add = await avp(['add', 'todo-check']);
      expect(add.code).toBe(0);
      expect(add.stderr).toContain('todo-check@1.0.0 tests: 2 cases, all pass');
    });

    test('failing cases refuse the publish; --allow-failing-tests publishes and the registry records it', async () => {
      const dir = pkg('todo-flaky', '1.0.0', { 'a.ts': 'nothing here // avp:expect todo\n' });
      const refused = await avp(['publish', dir]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('1 of 1 cases');
      expect((await api(srv.url, '/api/packages/todo-flaky')).status).toBe(404);
      const allowed = await avp(['publish', dir, '--allow-failing-tests']);
      expect(allowed.code).toBe(0);
      expect((await avp(['info', 'todo-flaky'])).stdout).toContain('published with failing tests (1 of 1 cases fail');
    });

    test('no tests says so; a report that does not fit the archive is refused by the server', async () => {
      const dir = pkg('todo-bare', '1.0.0', {});
      expect((await avp(['publish', dir])).code).toBe(0);
      expect((await avp(['info', 'todo-bare'])).stdout).toContain('tests:     no tests');
      // A client claiming cases the archive does not hold, or hiding failures, is refused.
      const zip = zipOf('todo-forged', { 'VALIDATOR.md': md('todo-forged', '1.0.0'), 'scripts/check.ts': CHECK });
      for (const claim of [
        { cases: 34, failed: 0, publishedWithFailing: false },
        { cases: 0, failed: 1, publishedWithFailing: false },
      ]) {
        const form = new FormData();
        form.append('package', new File([zip], 'package.zip', { type: 'application/zip' }));
        form.append('tests', JSON.stringify(claim));
        const res = await fetch(`${srv.url}/api/packages`, {
          method: 'POST',
          body: form,
          headers: { authorization: `Bearer ${token}` },
        });
        expect(res.status).toBe(400);
      }
    });
  });
