/**
 * The release URL a build bakes into the binary (the default of `avp upgrade`): `AVP_RELEASE_URL`, else in GitHub
 * Actions the Releases of the repository the workflow runs in
 * (`$GITHUB_SERVER_URL/$GITHUB_REPOSITORY/releases/download`).
 * A build with neither (a local build, a fresh clone) bakes none: a guessed URL would send every `avp upgrade` to a
 * repository that does not exist.
 */
import { AvpError } from '../../src/errors.ts';
import { checkReleaseUrl } from '../../src/upgrade/release.ts';

export interface BuiltReleaseUrl {
  url?: string;
  /** Where it came from, for the build's summary line. */
  from: string;
}

/** Decides the release URL from the build's environment; throws `AvpError` for one that is not https. */
export function releaseUrlForBuild(env: NodeJS.ProcessEnv = process.env): BuiltReleaseUrl {
  if (env.AVP_RELEASE_URL)
    return { url: checkReleaseUrl(env.AVP_RELEASE_URL, 'AVP_RELEASE_URL'), from: 'AVP_RELEASE_URL' };
  if (env.GITHUB_ACTIONS === 'true' && env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY) {
    if (!/^[\w.-]+\/[\w.-]+$/.test(env.GITHUB_REPOSITORY)) {
      throw new AvpError(
        'build-release-url',
        `GITHUB_REPOSITORY=${JSON.stringify(env.GITHUB_REPOSITORY)} is not owner/name`,
        {
          fix: 'set AVP_RELEASE_URL to the folder holding v<version>/ instead',
        },
      );
    }
    const url = `${env.GITHUB_SERVER_URL.replace(/\/+$/, '')}/${env.GITHUB_REPOSITORY}/releases/download`;
    return { url: checkReleaseUrl(url, 'GITHUB_SERVER_URL/GITHUB_REPOSITORY'), from: 'GITHUB_REPOSITORY' };
  }
  return { from: 'none: set AVP_RELEASE_URL to give avp upgrade a default' };
}
