/**
 * Data and infrastructure: SQL and NoSQL statements that drop or empty databases sent to a client, and commands that
 * wipe containers, volumes, clusters and cloud resources (docker, kubectl, helm, terraform, aws, gcloud, az…).
 * Deleting one named container or pod is routine and stays allowed.
 */
import { type Finding, finding, flagsOf } from './context.ts';
import { base, type Command, unwrap } from './shell.ts';

const DB_CLIENTS =
  /^(?:psql|pgcli|mysql|mariadb|mycli|sqlite3?|sqlcmd|clickhouse(?:-client)?|cockroach|mongo|mongosh|redis-cli|valkey-cli|keydb-cli|cqlsh|duckdb|snowsql|turso|pscale|usql|bq|influx|litecli)$/;
const SQL_DESTROY =
  /\bDROP\s+(?:DATABASE|SCHEMA|TABLE|KEYSPACE|COLLECTION)\b|\bTRUNCATE\s+(?:TABLE\s+)?(?=[`"\w])|\bDELETE\s+FROM\s+[`"\w.]+[`"]?\s*(?:;|$|["'])|\.dropDatabase\s*\(|\bdb\.(?:getCollection\([^)]*\)|\w+)\.(?:drop\s*\(|deleteMany\s*\(\s*\{\s*\}|remove\s*\(\s*\{\s*\})|\bFLUSHALL\b|\bFLUSHDB\b/i;
const DB_HINT = 'Use a migration the user can review, or ask the user to drop data themselves.';

export function checkDatabase(pipeline: Command[]): Finding | undefined {
  for (const c of pipeline) {
    const w = unwrap(c.words);
    const name = base(w[0] ?? '');
    if (name === 'dropdb' || (name === 'mysqladmin' && w.some((a) => /^drop$/i.test(a))))
      return finding('drop-database', name, `${name} drops a whole database`, DB_HINT);
  }
  // The client may be wrapped: `docker exec db psql …`, `kubectl exec pod -- mysql …`.
  if (!pipeline.some((c) => c.words.some((w) => DB_CLIENTS.test(base(w))))) return undefined;
  const text = pipeline.flatMap((c) => [...c.words, c.stdin ?? '']).join(' ');
  const m = SQL_DESTROY.exec(text);
  return m
    ? finding('drop-database', 'sql-destroy', `${m[0].trim()} sent to a database client destroys data`, DB_HINT)
    : undefined;
}

const INFRA_HINT = 'Remove only the one resource you mean, by name, or ask the user to tear this down themselves.';
const infra = (check: string, message: string) => finding('infra-destroy', check, message, INFRA_HINT);
/** `$(docker ps -aq)`: every container (a `--filter` narrows it to what the agent means). */
const EVERY =
  /^\$\((?:docker|podman|nerdctl)\s+(?:ps|container\s+ls|images|image\s+ls|volume\s+ls|network\s+ls)\b(?![^)]*--filter)[^)]*-\w*q/;

function docker(name: string, w: string[]): Finding | undefined {
  const [sub, sub2] = [w[1] ?? '', w[2] ?? ''];
  const { short, long } = flagsOf(w.slice(2));
  const all = /a/.test(short) || long.includes('--all');
  if (sub === 'system' && sub2 === 'prune' && (all || long.includes('--volumes')))
    return infra(
      `${name}-system-prune`,
      `${name} system prune ${all ? '-a' : '--volumes'} deletes every unused image${long.includes('--volumes') ? ' and volume (databases included)' : ''}`,
    );
  if (sub === 'volume' && (sub2 === 'prune' || sub2 === 'rm'))
    return sub2 === 'prune' || w.slice(3).some((a) => EVERY.test(a))
      ? infra(`${name}-volume-prune`, `${name} volume ${sub2} deletes volumes and the data in them`)
      : undefined;
  const rm = ['rm', 'rmi', 'kill'].includes(sub)
    ? w.slice(2)
    : (sub === 'container' || sub === 'image') && (sub2 === 'rm' || sub2 === 'prune')
      ? w.slice(3)
      : [];
  const every = rm.find((a) => EVERY.test(a));
  if (every) {
    const verb = w.slice(1, w.length - rm.length).join(' ');
    return infra(`${name}-rm-all`, `${name} ${verb} ${every} removes every container or image on the machine`);
  }
  return undefined;
}

const KUBECTL_VALUED = /^(?:-[nlo]|--namespace|--selector|--context|--cluster|--kubeconfig|--output|--field-selector)$/;

function kubectl(name: string, w: string[]): Finding | undefined {
  const i = w.findIndex((a, j) => j > 0 && !a.startsWith('-') && !/^-/.test(w[j - 1] ?? ''));
  if (w[i] !== 'delete') return undefined;
  const args = w.slice(i + 1);
  // The kind is the first operand, not an option's value (`kubectl delete -n prod pvc data`).
  const kind = args.find((a, j) => !a.startsWith('-') && !KUBECTL_VALUED.test(args[j - 1] ?? ''));
  const kinds = (kind ?? '').toLowerCase().split(',');
  if (
    kinds.some((k) =>
      /^(?:ns|namespaces?|pv|pvc|persistentvolumes?|persistentvolumeclaims?|crds?|customresourcedefinitions?|nodes?|clusters?|projects?)(?:\/|$)/.test(
        k,
      ),
    )
  )
    return infra(
      'kubectl-delete-kind',
      `${name} delete ${kinds.join(',')} deletes ${/^(?:ns|namespaces?|projects?)(?:\/|$)/.test(kinds[0]!) ? 'every resource in it' : 'cluster-wide state and the data it holds'}`,
    );
  if (args.some((a) => /^(?:--all|-A|--all-namespaces)$/.test(a)) || kinds.includes('all'))
    return infra('kubectl-delete-all', `${name} delete --all deletes every resource of that kind`);
  return undefined;
}

/** `aws <service> delete-*|terminate-*…`, except routine message and tag operations. */
function aws(w: string[]): Finding | undefined {
  // Options of aws itself that take a value (`aws --region eu-west-1 rds delete-db-instance`).
  const valued = /^--(?:region|profile|output|endpoint-url|query|color|ca-bundle|cli-\w+)$/;
  const args = w.slice(1).filter((a, i, all) => !a.startsWith('-') && !valued.test(all[i - 1] ?? ''));
  const [svc, op] = [args[0] ?? '', args[1] ?? ''];
  if (w.includes('--dryrun') || w.includes('--dry-run')) return undefined;
  if (svc === 's3' && op === 'rm' && w.includes('--recursive'))
    return infra('aws-s3-rm', 'aws s3 rm --recursive deletes every object under the prefix');
  if (svc === 's3' && op === 'rb') return infra('aws-s3-rb', 'aws s3 rb deletes the bucket');
  if (
    /^(?:delete|terminate|remove|deregister|purge|destroy|schedule-key-deletion|close-account)/.test(op) &&
    !/(?:message|tags?|object|alias|permission)(?:-batch)?$/.test(op)
  )
    return infra('aws-delete', `aws ${svc} ${op} deletes cloud resources`);
  return undefined;
}

export function checkInfra(w: string[]): Finding | undefined {
  const name = base(w[0] ?? '');
  const words = w.slice(1);
  const has = (re: RegExp) => words.some((a) => re.test(a));
  switch (name) {
    case 'docker':
    case 'podman':
    case 'nerdctl':
      return docker(name, w);
    case 'kubectl':
    case 'oc':
      return kubectl(name, w);
    case 'helm':
      return /^(?:uninstall|delete|del|un)$/.test(words[0] ?? '')
        ? infra('helm-uninstall', `helm ${words[0]} removes a release and its resources`)
        : undefined;
    case 'terraform':
    case 'tofu':
    case 'terragrunt':
      if (
        words[0] === 'destroy' ||
        (words[0] === 'apply' && has(/^--?destroy$/)) ||
        (words[0] === 'run-all' && words[1] === 'destroy')
      )
        return infra(`${name}-destroy`, `${name} destroy deletes every resource of the configuration`);
      return undefined;
    case 'pulumi':
    case 'cdk':
    case 'cdktf':
      return words[0] === 'destroy'
        ? infra(`${name}-destroy`, `${name} destroy deletes every resource of the stack`)
        : undefined;
    case 'sls':
    case 'serverless':
      return words[0] === 'remove'
        ? infra('serverless-remove', `${name} remove deletes the deployed service`)
        : undefined;
    case 'aws':
      return aws(w);
    case 'gcloud':
      if (words[0] === 'storage' && (words[1] === 'rm' || words[1] === 'buckets'))
        return has(/^(?:-r|--recursive|delete)$/)
          ? infra('gcloud-storage-rm', `gcloud storage ${words[1]} deletes a bucket or everything under a prefix`)
          : undefined;
      return has(/^delete$/)
        ? infra(
            'gcloud-delete',
            `gcloud ${words
              .filter((a) => !a.startsWith('-'))
              .slice(0, 3)
              .join(' ')} deletes cloud resources`,
          )
        : undefined;
    case 'gsutil':
      return words[0] === 'rb' || (/^rm$/.test(words[0] ?? '') && has(/^-\w*[ra]/))
        ? infra('gsutil-rm', `gsutil ${words[0]} deletes a bucket or everything under a prefix`)
        : undefined;
    case 'az':
      return has(/^(?:delete|delete-batch|purge)$/)
        ? infra(
            'az-delete',
            `az ${words
              .filter((a) => !a.startsWith('-'))
              .slice(0, 3)
              .join(' ')} deletes cloud resources`,
          )
        : undefined;
    case 'doctl':
    case 'linode-cli':
    case 'hcloud':
    case 'vultr-cli':
      return has(/^(?:delete|destroy|rm|d)$/)
        ? infra(`${name}-delete`, `${name} ${words.slice(0, 3).join(' ')} deletes cloud resources`)
        : undefined;
    case 'heroku':
      return has(/^(?:apps:destroy|destroy|pg:reset|addons:destroy)$/)
        ? infra('heroku-destroy', `heroku ${words[0]} deletes an app or its data`)
        : undefined;
    case 'fly':
    case 'flyctl':
      return /^(?:destroy|apps)$/.test(words[0] ?? '') && has(/^(?:destroy|delete)$/)
        ? infra('fly-destroy', `${name} ${words.slice(0, 2).join(' ')} deletes an app`)
        : undefined;
    case 'firebase':
      return has(/^(?:projects:delete|firestore:delete|database:remove|hosting:disable)$/) &&
        (words[0] !== 'firestore:delete' || has(/^(?:--all-collections|-r|--recursive)$/))
        ? infra('firebase-delete', `firebase ${words[0]} deletes project data`)
        : undefined;
    case 'vercel':
      return /^(?:remove|rm)$/.test(words[0] ?? '')
        ? infra('vercel-remove', 'vercel remove deletes deployments')
        : undefined;
    case 'eksctl':
      return words[0] === 'delete'
        ? infra('eksctl-delete', `eksctl ${words.slice(0, 2).join(' ')} deletes cluster resources`)
        : undefined;
    case 'supabase':
      return words[0] === 'db' && words[1] === 'reset' && has(/^--linked$|^--db-url/)
        ? infra('supabase-reset', 'supabase db reset --linked wipes the remote database')
        : undefined;
    default:
      return undefined;
  }
}
