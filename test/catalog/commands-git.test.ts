/**
 * dangerous-commands' git rules (validators/dangerous-commands/scripts/git.ts), verdict by verdict: discarding
 * uncommitted work, rewriting history, force-pushes and deletions of shared branches — the current branch asked from
 * real repositories — each beside the look-alikes that must run. Exact verdicts: test/catalog/commands-verdict.ts.
 */
import { afterAll, describe, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectVerdicts } from './commands-verdict.ts';

describe('dangerous-commands: git commands that throw work away', () => {
  test('reset, restore, clean, stash, branch, checkout; git options before the subcommand are skipped', () => {
    expectVerdicts([
      'git -C /x reset --hard → git-discard/git-reset-hard: git reset --hard throws away every uncommitted change',
      'git -c a=b --no-pager reset --hard → git-discard/git-reset-hard: git reset --hard throws away every uncommitted change',
      'git --git-dir .git reset --hard → git-discard/git-reset-hard: git reset --hard throws away every uncommitted change',
      'git reset --hard -h →',
      'git reset --hard --help →',
      'git reset --merge → git-discard/git-reset-merge: git reset --merge throws away staged changes and may overwrite files',
      'git reset --soft HEAD~1 →',
      'git restore -s HEAD~1 src → git-discard/git-restore: git restore src throws away uncommitted changes to those files',
      'git restore --source HEAD~1 src → git-discard/git-restore: git restore src throws away uncommitted changes to those files',
      'git restore --staged src →',
      'git restore -SW src → git-discard/git-restore: git restore src throws away uncommitted changes to those files',
      'git restore --staged --worktree src → git-discard/git-restore: git restore src throws away uncommitted changes to those files',
      'git restore -W src → git-discard/git-restore: git restore src throws away uncommitted changes to those files',
      'git restore →',
      'git clean -f → git-discard/git-clean: git clean -f deletes untracked files for good',
      'git clean -fdx → git-discard/git-clean: git clean -fdx deletes untracked files and ignored ones (.env, local config) for good',
      'git clean --force -d → git-discard/git-clean: git clean --force -d deletes untracked files for good',
      'git clean -fn →',
      'git clean -f --dry-run →',
      'git clean -d →',
      'git stash drop → git-discard/git-stash-drop: git stash drop deletes stashed work',
      'git stash clear → git-discard/git-stash-drop: git stash clear deletes stashed work',
      'git stash pop →',
      'git branch -D topic → git-discard/git-branch-delete: git branch -D deletes a branch even when its commits are merged nowhere',
      'git branch -df topic → git-discard/git-branch-delete: git branch -D deletes a branch even when its commits are merged nowhere',
      'git branch -d --force topic → git-discard/git-branch-delete: git branch -D deletes a branch even when its commits are merged nowhere',
      'git branch --delete --force topic → git-discard/git-branch-delete: git branch -D deletes a branch even when its commits are merged nowhere',
      'git branch --delete topic →',
      'git branch -d topic →',
      'git checkout -b topic . →',
      'git checkout -B topic →',
      'git checkout --orphan x →',
      'git checkout -- src → git-discard/git-checkout-discard: git checkout -- src overwrites uncommitted changes to those files',
      'git checkout . → git-discard/git-checkout-discard: git checkout . overwrites uncommitted changes to those files',
      'git checkout main -- src a → git-discard/git-checkout-discard: git checkout -- src a overwrites uncommitted changes to those files',
      'git checkout main →',
      'git checkout -f → git-discard/git-checkout-force: git checkout --force throws away uncommitted changes',
      'git checkout --force main → git-discard/git-checkout-force: git checkout --force throws away uncommitted changes',
      'git checkout -q main →',
      'git checkout --  →',
      'git CHECKOUT . → git-discard/git-checkout-discard: git checkout . overwrites uncommitted changes to those files',
    ]);
  });

  test('history rewrites: filter-branch, filter-repo, reflog expire, gc --prune=now', () => {
    expectVerdicts([
      'git filter-branch --tree-filter x → git-history-rewrite/git-filter-branch: git filter-branch rewrites the history of the repository',
      'git filter-repo --path x → git-history-rewrite/git-filter-repo: git filter-repo rewrites the history of the repository',
      'git reflog expire --expire=now --all → git-history-rewrite/git-reflog-expire: git reflog expire --expire=now removes the record that lets lost commits be recovered',
      'git reflog expire --expire-unreachable=all → git-history-rewrite/git-reflog-expire: git reflog expire --expire=now removes the record that lets lost commits be recovered',
      'git reflog expire --stale-fix →',
      'git reflog show --expire=now →',
      'git gc --prune=now → git-history-rewrite/git-gc-prune: git gc --prune=now deletes unreachable commits that could still be recovered',
      'git gc --prune=2.weeks.ago →',
      'git gc →',
    ]);
  });
});

describe('dangerous-commands: pushes that rewrite or delete shared branches', () => {
  test('named destinations: force, lease, +refspec, delete, mirror, --all; dry runs and personal branches pass', () => {
    expectVerdicts([
      'git push --mirror origin → force-push-protected/push-mirror: git push --mirror overwrites or deletes every branch of the remote',
      'git push --force --all origin → force-push-protected/push-mirror: git push --all with force overwrites every branch, shared ones included',
      'git push -f --branches → force-push-protected/push-mirror: git push --all with force overwrites every branch, shared ones included',
      'git push --all origin →',
      'git push --force-if-includes origin main → force-push-protected/force-push: force-push to the shared branch main rewrites its history',
      'git push --force-with-lease origin main → force-push-protected/force-push: force-push to the shared branch main rewrites its history',
      'git push --force-with-lease=main origin main → force-push-protected/force-push: force-push to the shared branch main rewrites its history',
      'git push -d origin main → force-push-protected/push-delete: git push deletes the shared branch main',
      'git push --delete origin main → force-push-protected/push-delete: git push deletes the shared branch main',
      'git push origin :main → force-push-protected/push-delete: git push deletes the shared branch main',
      'git push origin : →',
      'git push origin +main → force-push-protected/force-push: force-push to the shared branch main rewrites its history',
      'git push origin refs/heads/main →',
      'git push -f origin feature →',
      'git push -fn origin main →',
      'git push -f --dry-run origin main →',
      'git push -o ci.skip -f origin main → force-push-protected/force-push: force-push to the shared branch main rewrites its history',
      'git push --repo origin -f main → force-push-protected/force-push: force-push to the shared branch main rewrites its history',
      'git push --repo=origin -f main → force-push-protected/force-push: force-push to the shared branch main rewrites its history',
      'git push -f origin HEAD → force-push-protected/force-push-unknown-branch: force-push of a branch git cannot name here may overwrite a shared branch',
      'git push -f → force-push-protected/force-push-unknown-branch: force-push of a branch git cannot name here may overwrite a shared branch',
      'git push --force-with-lease →',
      'git push →',
      'git push -f origin HEAD:main → force-push-protected/force-push: force-push to the shared branch main rewrites its history',
      'git push -f origin main:feature →',
      'git push origin release/1.2 -f → force-push-protected/force-push: force-push to the shared branch release/1.2 rewrites its history',
    ]);
  });

  test('AVP_DANGEROUS_COMMANDS_DENY=force-push denies a plain force-push to any branch; a lease still passes', () => {
    expectVerdicts(
      [
        'git push -f origin feature → force-push-protected/force-push-any: force-push to feature (without --force-with-lease) overwrites the remote branch',
        'git push origin +feature → force-push-protected/force-push-any: force-push to feature (without --force-with-lease) overwrites the remote branch',
        'git push --force-with-lease origin feature →',
        'git push --force-with-lease origin +feature → force-push-protected/force-push-any: force-push to feature (without --force-with-lease) overwrites the remote branch',
        'git push -f → force-push-protected/force-push-any: force-push (without --force-with-lease) overwrites the remote branch',
        'git push --force-with-lease →',
        'git push origin feature →',
      ],
      { deny: 'force-push' },
    );
  });
});

describe('dangerous-commands: a bare force-push is judged by the current branch, asked from git in the cwd', () => {
  const root = mkdtempSync(join(tmpdir(), 'avp-dc-git-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  /** A repository on `branch`, with one commit or none. */
  const repo = (branch: string, commit = true) => {
    const dir = join(root, branch.replaceAll('/', '-'));
    const git = (...args: string[]) => {
      const r = Bun.spawnSync(['git', '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir });
      if (r.exitCode !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr.toString()}`);
    };
    mkdirSync(dir);
    git('init', '-q', '-b', branch);
    if (commit) git('commit', '-q', '--allow-empty', '-m', 'first');
    return dir;
  };
  const shared =
    'force-push-protected/force-push: force-push of the current branch main, a shared branch, rewrites its history';
  const any =
    'force-push-protected/force-push-any: force-push (without --force-with-lease) overwrites the remote branch';

  test('on main: force, lease and HEAD are denied; a plain push passes', () => {
    const cwd = repo('main');
    expectVerdicts(
      [
        `git push -f → ${shared}`,
        `git push --force-with-lease → ${shared}`,
        `git push -f origin HEAD → ${shared}`,
        'git push origin HEAD →',
        'git push →',
      ],
      { cwd },
    );
  });

  test('before the first commit git cannot name the branch: a plain force-push is denied, a lease passes', () => {
    const cwd = repo('unborn', false);
    const unknown =
      'force-push-protected/force-push-unknown-branch: force-push of a branch git cannot name here may overwrite a shared branch';
    expectVerdicts([`git push -f → ${unknown}`, 'git push --force-with-lease →'], { cwd });
  });

  test('on a personal branch: force-pushes pass, unless every plain force-push is denied by option', () => {
    const cwd = repo('feature/login');
    expectVerdicts(['git push -f →', 'git push --force-with-lease →', 'git push -f origin HEAD →'], { cwd });
    expectVerdicts([`git push -f → ${any}`, 'git push --force-with-lease →'], { cwd, deny: 'force-push' });
  });
});

describe('dangerous-commands: git look-alikes and opt-ins', () => {
  test('branch moves, several paths, option values, HEAD beside a branch', () => {
    expectVerdicts([
      'git --version →',
      'git restore a b → git-discard/git-restore: git restore a b throws away uncommitted changes to those files',
      'git branch -f topic main →',
      'git branch --force topic main →',
      'git push -o ci.skip -f origin → force-push-protected/force-push-unknown-branch: force-push of a branch git cannot name here may overwrite a shared branch',
      'git push -f origin HEAD main → force-push-protected/force-push: force-push to the shared branch main rewrites its history',
    ]);
  });

  test('AVP_DANGEROUS_COMMANDS_DENY=git-rebase denies a rebase that starts, not one that ends', () => {
    expectVerdicts(
      [
        'git rebase → git-history-rewrite/git-rebase: git rebase rewrites commits that may already be pushed',
        'git rebase -i main → git-history-rewrite/git-rebase: git rebase rewrites commits that may already be pushed',
        'git rebase --abort →',
      ],
      { deny: 'git-rebase' },
    );
  });
});
