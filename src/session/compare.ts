/**
 * What changed between two snapshots of one project, as FileChanges (before, after, diff). Used for one Bash command
 * (its PreToolUse snapshot against PostToolUse) and for a whole turn (the turn's baseline against Stop).
 *
 * In git mode the dirty-set comparison (`compareSnapshots`) is complete as long as HEAD and the index stay put. When
 * they moved (`git add`, `git commit`, `git reset`, `git checkout <branch>`), every path whose working-tree content
 * differs from the earlier HEAD, and every path staged at either moment, is a candidate too — so a file committed by
 * the same command is still seen. When an ignore file changed, untracked files are judged by the earlier rules. Each
 * candidate is then compared by content with what it held earlier: the earlier index entry or HEAD, or what avp
 * remembered of a dirty file. A file that ends as it was (a `git reset --hard` of an edit made in the same span) is no
 * change.
 */
import { basename, join } from 'node:path';
import type { FileChange } from '../protocol/event.ts';
import { changeBetween, readText, recallBlob } from './content.ts';
import { compareSnapshots, type Entry, type PathChange, type Snapshot } from './fingerprint.ts';
import { changedSinceCommit, excludesChanged, excludesFileOf, gitMoved, gitTexts } from './git-state.ts';
import { ignoredPaths, ignoresMore, underEarlierRules, type StartRules } from './ignore-rules.ts';
import { getBlob } from './store.ts';

/** At most this many files get their earlier content from git per comparison (a branch switch can touch all). */
const GIT_TEXT_MAX_FILES = 200;

const same = (a: Entry | undefined, b: Entry | undefined) => !!a && !!b && a[0] === b[0] && a[1] === b[1];

/**
 * The earlier content of each path (string; null = absent; undefined = unknown). `fromGit` paths were clean in the
 * earlier snapshot (or absent from it): their content is the earlier index entry, else the earlier HEAD's blob.
 */
async function earlierTexts(
  dir: string,
  root: string,
  pre: Snapshot,
  rels: string[],
  fromGit: Set<string>,
): Promise<Map<string, string | null | undefined>> {
  const out = new Map<string, string | null | undefined>();
  const specs = new Map<string, string>();
  for (const rel of rels) {
    const e = pre.files[rel];
    if (!fromGit.has(rel)) {
      if (!e || e[0] < 0) out.set(rel, null);
      else {
        const blob = recallBlob(dir, join(root, rel), { size: e[0], mtime: e[1] });
        out.set(rel, blob ? getBlob(dir, blob) : undefined);
      }
      continue;
    }
    const g = pre.git;
    // Older snapshots carry no git state: the current index is the best there is.
    const spec = !g ? `:./${rel}` : rel in g.staged ? g.staged[rel] : g.head ? `${g.head}:./${rel}` : null;
    if (spec === null || spec === undefined) out.set(rel, null);
    else if (specs.size < GIT_TEXT_MAX_FILES && !rel.includes('\n')) specs.set(rel, spec);
    else out.set(rel, undefined);
  }
  const texts = await gitTexts(root, [...new Set(specs.values())]);
  for (const [rel, spec] of specs) out.set(rel, texts.has(spec) ? texts.get(spec) : undefined);
  return out;
}

/**
 * The changes between `pre` and `post`, at most `maxFiles` of them, never inside `.avp/`. `rules`: the ignore files
 * as they were at `pre` (a turn's baseline keeps them), preferred to what avp can recover of them.
 */
export async function changesBetween(
  dir: string,
  root: string,
  pre: Snapshot,
  post: Snapshot,
  maxFiles: number,
  rules?: StartRules,
): Promise<FileChange[]> {
  const git =
    pre.mode === 'git' && post.mode === 'git' && pre.git && post.git ? { a: pre.git, b: post.git } : undefined;
  // Paths whose index entry or committed content may have moved: judged by content against the earlier HEAD/index.
  const moved = new Set<string>();
  if (git && gitMoved(git.a, git.b)) {
    for (const r of await changedSinceCommit(root, git.a.head, maxFiles)) moved.add(r);
    for (const r of [...Object.keys(git.a.staged), ...Object.keys(git.b.staged)]) moved.add(r);
  }
  let view = post;
  if (git) {
    const ignoreFiles = [...new Set([...Object.keys(pre.files), ...Object.keys(post.files), ...moved])].filter(
      (r) => basename(r) === '.gitignore' && (moved.has(r) || !same(pre.files[r], post.files[r])),
    );
    // With the turn's start rules (a Stop), also what git ignores now: a rule hidden from the dirty set shows there.
    const [ignoredNow, excludesFile] = rules
      ? await Promise.all([ignoredPaths(root, maxFiles), excludesFileOf(root, git.b.top)])
      : [undefined, ''];
    if (
      ignoreFiles.length ||
      excludesChanged(git.a, git.b) ||
      (rules && ignoresMore(rules, ignoredNow, excludesFile))
    ) {
      const fromGit = new Set(ignoreFiles.filter((r) => !pre.files[r]));
      const earlier = await earlierTexts(dir, root, pre, ignoreFiles, fromGit);
      for (const rel of ignoreFiles) {
        const abs = join(root, rel);
        if (rules && abs in rules.texts) earlier.set(rel, rules.texts[abs]);
      }
      view = await underEarlierRules(dir, root, pre, post, earlier, maxFiles, rules, ignoredNow);
    }
  }
  const changes = new Map<string, PathChange>();
  for (const c of compareSnapshots(root, pre, view)) changes.set(c.rel, c);
  for (const rel of moved) {
    if (pre.files[rel]) continue; // dirty before: compareSnapshots saw whether it moved
    changes.set(rel, { rel, kind: 'update', wasClean: true });
  }
  const list = [...changes.values()]
    .filter((c) => !c.rel.startsWith('.avp/'))
    .sort((x, y) => (x.rel < y.rel ? -1 : x.rel > y.rel ? 1 : 0))
    .slice(0, maxFiles);
  // A file entering the untracked set is new (no lookup) unless git says its path held something before (`moved`).
  const fromGit = new Set(list.filter((c) => c.wasClean).map((c) => c.rel));
  const before = await earlierTexts(
    dir,
    root,
    pre,
    list.map((c) => c.rel),
    fromGit,
  );
  const out: FileChange[] = [];
  for (const c of list) {
    const abs = join(root, c.rel);
    const after = c.kind === 'delete' ? null : readText(abs);
    // None when the file was only touched, created and removed again, or ends as it was.
    const change = await changeBetween(abs, c.rel, true, before.get(c.rel), after);
    if (change) out.push(change);
  }
  return out;
}
