/**
 * The git calls `avp check` makes: one `git` runner with errors that say what to do, and what a `--diff` argument
 * means as two revisions (`REV` → the working tree, `A..B`, `A...B` from the merge base).
 */
import { AvpError } from '../errors.ts';
import { gitSync } from '../os/git.ts';

/** Runs git in `root`; stdout, or undefined when it failed and `allowFail` is set (else an AvpError). */
export function git(root: string, args: string[], allowFail = false, stdin?: Buffer): Buffer | undefined {
  const p = gitSync(args, { cwd: root, stdin, noOptionalLocks: true, stderr: true });
  if (!p)
    throw new AvpError('check-git', 'git is not installed', {
      fix: 'install git, or pass the files to check as arguments',
    });
  if (p.code !== 0) {
    if (allowFail) return undefined;
    throw new AvpError('check-git', `git ${args.join(' ')} failed: ${p.stderr.trim().split('\n')[0]}`, {
      fix: 'run avp check inside a git repository with a valid revision, or pass files as arguments',
    });
  }
  return p.stdout;
}

/** A `--diff` argument resolved: the change goes from `from` to `to` (undefined = the working tree). */
export interface RevisionRange {
  from: string;
  to?: string;
}

/** `REV` → (REV, working tree); `A..B` → (A, B); `A...B` → (merge base of A and B, B); empty sides mean HEAD. */
export function revisionRange(root: string, diff: string): RevisionRange {
  const range = /^(.*?)(\.\.\.?)(.*)$/.exec(diff);
  if (!range) return { from: diff };
  const to = range[3] || 'HEAD';
  const from = range[1] || 'HEAD';
  if (range[2] === '...') return { from: git(root, ['merge-base', from, to])!.toString().trim(), to };
  return { from, to };
}
