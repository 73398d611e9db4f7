/**
 * git commands that destroy work: force-pushes and deletions of shared branches, commands that discard uncommitted
 * changes (reset --hard, checkout -- ., restore, clean -f, stash drop, branch -D) and history rewrites.
 */
import { type Ctx, type Finding, finding, flagsOf, hasLong } from './context.ts';

const PROTECTED_BRANCH =
  /^(?:main|master|trunk|develop|development|dev|production|prod|staging|stable|live|gh-pages|release|releases?[/-].+|hotfix[/-].+)$/;
const PUSH_HINT =
  'Push to a feature branch and open a pull request; rewriting or deleting a shared branch is for the user to do.';
const DISCARD_HINT =
  'Keep the work: commit or `git stash` it first, or ask the user. (A team that accepts this sets AVP_DANGEROUS_COMMANDS_ALLOW, see the validator docs.)';

function currentBranch(cwd: string): string | undefined {
  try {
    // Bun.spawnSync rather than node:child_process, whose import alone costs a few ms on every run.
    const r = Bun.spawnSync(['git', 'rev-parse', '--abbrev-ref', 'HEAD'], {
      cwd,
      stdout: 'pipe',
      stderr: 'ignore',
      timeout: 2000,
    });
    return r.exitCode === 0 ? r.stdout.toString().trim() : undefined;
  } catch {
    return undefined;
  }
}

/** Options of `git` itself that take a value (`git -C dir push`). */
const GLOBAL_VALUED = /^(?:-C|-c|--git-dir|--work-tree|--namespace|--exec-path|--config-env)$/;

export function checkGit(words: string[], ctx: Ctx): Finding | undefined {
  let i = 1;
  while (i < words.length && words[i]!.startsWith('-')) i += GLOBAL_VALUED.test(words[i]!) ? 2 : 1;
  const sub = words[i]?.toLowerCase();
  const args = words.slice(i + 1);
  if (args.some((a) => a === '--help' || a === '-h')) return undefined;
  switch (sub) {
    case 'push':
      return checkPush(args, ctx);
    case 'reset':
      if (args.includes('--merge'))
        return finding(
          'git-discard',
          'git-reset-merge',
          'git reset --merge throws away staged changes and may overwrite files',
          DISCARD_HINT,
        );
      return args.includes('--hard')
        ? finding(
            'git-discard',
            'git-reset-hard',
            'git reset --hard throws away every uncommitted change',
            DISCARD_HINT,
          )
        : undefined;
    case 'checkout':
      return checkCheckout(args);
    case 'restore': {
      const { short, long, rest } = flagsOf(args.filter((a, j) => !/^(?:-s|--source)$/.test(args[j - 1] ?? '')));
      const staged = /S/.test(short) || long.includes('--staged');
      const worktree = /W/.test(short) || long.includes('--worktree');
      if ((staged && !worktree) || !rest.length) return undefined;
      return finding(
        'git-discard',
        'git-restore',
        `git restore ${rest.join(' ')} throws away uncommitted changes to those files`,
        DISCARD_HINT,
      );
    }
    case 'clean': {
      const { short, long } = flagsOf(args);
      if (!(/f/.test(short) || long.includes('--force')) || /n/.test(short) || long.includes('--dry-run'))
        return undefined;
      return finding(
        'git-discard',
        'git-clean',
        `git clean ${args.join(' ')} deletes untracked files${/x/.test(short) ? ' and ignored ones (.env, local config)' : ''} for good`,
        'Run `git clean -n` first and delete the files you mean, or ask the user.',
      );
    }
    case 'stash':
      return args[0] === 'drop' || args[0] === 'clear'
        ? finding('git-discard', 'git-stash-drop', `git stash ${args[0]} deletes stashed work`, DISCARD_HINT)
        : undefined;
    case 'branch': {
      const { short, long } = flagsOf(args);
      const force =
        /D/.test(short) ||
        (/d/.test(short) && (/f/.test(short) || long.includes('--force'))) ||
        (long.includes('--delete') && long.includes('--force'));
      return force
        ? finding(
            'git-discard',
            'git-branch-delete',
            'git branch -D deletes a branch even when its commits are merged nowhere',
            'Use `git branch -d` (refuses unmerged branches), or ask the user.',
          )
        : undefined;
    }
    case 'filter-branch':
    case 'filter-repo':
      return finding(
        'git-history-rewrite',
        `git-${sub}`,
        `git ${sub} rewrites the history of the repository`,
        'Ask the user: rewriting history needs their decision and a backup.',
      );
    case 'reflog':
      return args[0] === 'expire' && args.some((a) => /^--expire(?:-unreachable)?=(?:now|all|0)/.test(a))
        ? finding(
            'git-history-rewrite',
            'git-reflog-expire',
            'git reflog expire --expire=now removes the record that lets lost commits be recovered',
            'Leave the reflog alone.',
          )
        : undefined;
    case 'gc':
      return args.some((a) => /^--prune=(?:now|all)/.test(a))
        ? finding(
            'git-history-rewrite',
            'git-gc-prune',
            'git gc --prune=now deletes unreachable commits that could still be recovered',
            'Run plain `git gc`.',
          )
        : undefined;
    case 'rebase':
      return ctx.strict.has('git-rebase') && !args.some((a) => /^--(?:abort|continue|skip|quit|edit-todo)$/.test(a))
        ? finding(
            'git-history-rewrite',
            'git-rebase',
            'git rebase rewrites commits that may already be pushed',
            'Merge instead, or ask the user.',
          )
        : undefined;
    default:
      return undefined;
  }
}

/** `git checkout -- <paths>`, `git checkout .`, `git checkout <ref> -- <paths>`, `git checkout -f`. */
function checkCheckout(args: string[]): Finding | undefined {
  if (args.some((a) => /^-[bB]$|^--orphan$/.test(a))) return undefined;
  const dash = args.indexOf('--');
  const { short, long } = flagsOf(dash < 0 ? args : args.slice(0, dash));
  const paths = dash >= 0 ? args.slice(dash + 1) : args.filter((a) => /^(?:\.|\.\/|\*|:\/|:\/\*)$/.test(a));
  if (paths.length)
    return finding(
      'git-discard',
      'git-checkout-discard',
      `git checkout ${dash >= 0 ? '-- ' : ''}${paths.join(' ')} overwrites uncommitted changes to those files`,
      DISCARD_HINT,
    );
  if (/f/.test(short) || long.includes('--force'))
    return finding(
      'git-discard',
      'git-checkout-force',
      'git checkout --force throws away uncommitted changes',
      DISCARD_HINT,
    );
  return undefined;
}

function checkPush(args: string[], ctx: Ctx): Finding | undefined {
  const { short, long, rest } = flagsOf(
    args.filter((w, j, all) => !/^(?:-o|--push-option|--repo|--receive-pack|--exec)$/.test(all[j - 1] ?? '')),
  );
  const mirror = hasLong(long, '--mirror');
  const lease = hasLong(long, '--force-with-lease') || hasLong(long, '--force-if-includes');
  const hard = short.includes('f') || hasLong(long, '--force');
  const forced = hard || lease || mirror;
  const deleting = short.includes('d') || hasLong(long, '--delete');
  if (short.includes('n') || hasLong(long, '--dry-run')) return undefined;
  if (forced && (mirror || hasLong(long, '--all') || hasLong(long, '--branches')))
    return finding(
      'force-push-protected',
      'push-mirror',
      `git push ${mirror ? '--mirror' : '--all'} ${mirror ? 'overwrites or deletes every branch of the remote' : 'with force overwrites every branch, shared ones included'}`,
      PUSH_HINT,
    );
  // The first operand names the remote, unless --repo did (`git push --repo origin -f main`).
  const refspecs = hasLong(long, '--repo') ? rest : rest.slice(1);
  const dests = refspecs.map((r) => ({
    plus: r.startsWith('+'),
    del: r.startsWith(':') && r.length > 1,
    dest: r
      .replace(/^\+/, '')
      .split(':')
      .pop()!
      .replace(/^refs\/heads\//, ''),
  }));
  const strictAll = ctx.strict.has('force-push');
  if (!dests.length || dests.every((d) => d.dest === 'HEAD')) {
    if (!forced) return undefined;
    const branch = currentBranch(ctx.cwd);
    if (branch && PROTECTED_BRANCH.test(branch))
      return finding(
        'force-push-protected',
        'force-push',
        `force-push of the current branch ${branch}, a shared branch, rewrites its history`,
        PUSH_HINT,
      );
    if (strictAll && hard)
      return finding(
        'force-push-protected',
        'force-push-any',
        'force-push (without --force-with-lease) overwrites the remote branch',
        'Use --force-with-lease.',
      );
    // Unknown branch (no repository here, detached HEAD): a plain force-push may hit a shared branch; a lease may not.
    if (!branch && hard)
      return finding(
        'force-push-protected',
        'force-push-unknown-branch',
        'force-push of a branch git cannot name here may overwrite a shared branch',
        PUSH_HINT,
      );
    return undefined;
  }
  for (const d of dests) {
    const shared = PROTECTED_BRANCH.test(d.dest);
    if (shared && (deleting || d.del))
      return finding('force-push-protected', 'push-delete', `git push deletes the shared branch ${d.dest}`, PUSH_HINT);
    if (shared && (forced || d.plus))
      return finding(
        'force-push-protected',
        'force-push',
        `force-push to the shared branch ${d.dest} rewrites its history`,
        PUSH_HINT,
      );
    if (strictAll && (hard || d.plus))
      return finding(
        'force-push-protected',
        'force-push-any',
        `force-push to ${d.dest} (without --force-with-lease) overwrites the remote branch`,
        'Use --force-with-lease.',
      );
  }
  return undefined;
}
