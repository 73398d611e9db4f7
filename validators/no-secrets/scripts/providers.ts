/**
 * no-secrets' provider formats: one entry per token kind, written from each provider's published format (prefix,
 * length, alphabet). A rule matches the whole token (`(?<s>…)` when the match also holds a name); `(?<b>…)` is the
 * random part that placeholder checks look at. `keywords` are lower-case strings, one of which every match contains:
 * a line holding none of them skips the regexes (the prefilter that keeps the table cheap). `weak` formats (no
 * distinctive prefix, or often pasted as test data: JWTs) are checked only where the heuristic rules are.
 * Documented in ../references/rules.md (keep the two in step).
 */

export interface ProviderRule {
  /** Rule id reported in violations. */
  id: string;
  /** The provider or class, the corpus category. */
  provider: string;
  what: string;
  keywords: string[];
  re: RegExp;
  weak?: boolean;
  /** Extra check on the match (checksums, decoded content). */
  verify?: (secret: string) => boolean;
}

// A token must not be the middle of a longer identifier; formats without a distinctive prefix also must not sit
// inside a base64 run (`/`, `+` are base64 characters).
const B = String.raw`(?<![A-Za-z0-9_-])`;
const E = String.raw`(?![A-Za-z0-9_-])`;
const BS = String.raw`(?<![A-Za-z0-9_+/-])`;
const ES = String.raw`(?![A-Za-z0-9_+/=-])`;
/** `name = value`, `"name": "value"`, `NAME: value` up to the value's opening quote (names are case-insensitive). */
const ASSIGN = String.raw`["'\x60]?\s*(?:[:=]|:=|=>)\s*["'\x60]?`;
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

const decodesTo = (re: RegExp) => (s: string) => {
  try {
    return re.test(Buffer.from(s.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('latin1'));
  } catch {
    return false;
  }
};

/**
 * CRC32 (IEEE) — GitHub and npm tokens end with a base62 checksum of their random part. The table is built on the
 * first checksum asked for (most calls ask none), in a plain loop: `Array.from` is compiled on its first call, ~0.1 ms
 * of a hook call that runs this validator.
 */
let crcTable: number[] | undefined;
function crcTableOnce(): number[] {
  if (crcTable) return crcTable;
  crcTable = new Array<number>(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    crcTable[n] = c >>> 0;
  }
  return crcTable;
}
export function crc32(s: string): number {
  const table = crcTableOnce();
  let c = 0xffffffff;
  for (let i = 0; i < s.length; i++) c = table[(c ^ s.charCodeAt(i)) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export function base62(n: number, width: number): string {
  let out = '';
  for (let i = 0; i < width; i++, n = Math.floor(n / 62)) out = BASE62[n % 62] + out;
  return out;
}
/** True when the last 6 characters are the base62 CRC32 of the 30 before them (GitHub's and npm's 2021 formats). */
export function checksumOk(body36: string): boolean {
  return base62(crc32(body36.slice(0, 30)), 6) === body36.slice(30);
}

type Spec = [provider: string, id: string, what: string, keywords: string, src: string, flags?: string];
// One line per rule: the table reads best unwrapped.
// prettier-ignore
const T: Spec[] = [
  // ---- cloud --------------------------------------------------------------------------------------------------
  ['aws', 'aws-access-key-id', 'AWS access key id', 'akia asia abia acca a3t', `${BS}(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])(?<b>[A-Z0-9]{16})${ES}`],
  ['aws', 'aws-secret-access-key', 'AWS secret access key', 'secret_access_key secretaccesskey secret-access-key aws_secret', String.raw`(?:aws_?secret_?(?:access_?)?key|secret_?access_?key)${ASSIGN}(?<s>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])`, 'i'],
  ['aws', 'aws-session-token', 'AWS session token', 'session_token sessiontoken', String.raw`(?:aws_?session_?token|sessionToken)${ASSIGN}(?<s>[A-Za-z0-9/+=]{100,})`, 'i'],
  ['aws', 'aws-bedrock-key', 'Amazon Bedrock API key', 'absk', `${BS}ABSKQmVkcm9ja0FQSUtleS(?<b>[A-Za-z0-9+/]{40,400}={0,2})${ES}`],
  ['google', 'google-api-key', 'Google API key', 'aiza', `${BS}AIza(?<b>[0-9A-Za-z_-]{35})${ES}`],
  ['google', 'google-oauth-secret', 'Google OAuth client secret', 'gocspx-', `${B}GOCSPX-(?<b>[A-Za-z0-9_-]{28})${E}`],
  ['google', 'google-oauth-token', 'Google OAuth access token', 'ya29.', `${B}ya29\\.(?<b>[0-9A-Za-z_-]{30,})${E}`],
  ['google', 'firebase-fcm-key', 'Firebase Cloud Messaging server key', 'apa91b', `${B}AAAA[A-Za-z0-9_-]{7}:APA91b(?<b>[A-Za-z0-9_-]{134})${E}`],
  ['azure', 'azure-storage-key', 'Azure storage account key', 'accountkey=', String.raw`AccountKey=(?<s>(?<b>[A-Za-z0-9+/]{86})==)`, 'i'],
  ['azure', 'azure-shared-access-key', 'Azure shared access key', 'sharedaccesskey=', String.raw`SharedAccessKey=(?<s>(?<b>[A-Za-z0-9+/]{42,43})=)`, 'i'],
  ['azure', 'azure-sas-token', 'Azure SAS signature', 'sig=', String.raw`\bsv=\d{4}-\d\d-\d\d&[^\s"'<>]*?\bsig=(?<s>(?<b>[A-Za-z0-9%+/]{40,}))`],
  ['azure', 'azure-ad-client-secret', 'Azure AD client secret', 'q~', String.raw`(?<![A-Za-z0-9_~.-])(?<s>[A-Za-z0-9_~.]{3}\dQ~(?<b>[A-Za-z0-9_~.-]{31,34}))(?![A-Za-z0-9_~.-])`],
  ['azure', 'azure-devops-pat', 'Azure DevOps personal access token', 'azdo', `${B}(?<b>[A-Za-z0-9]{76})AZDO[A-Za-z0-9]{4}${E}`],
  ['alibaba', 'alibaba-access-key-id', 'Alibaba Cloud access key id', 'ltai', `${BS}LTAI(?<b>[A-Za-z0-9]{20})${ES}`],
  ['tencent', 'tencent-secret-id', 'Tencent Cloud SecretId', 'akid', `${BS}AKID(?<b>[A-Za-z0-9]{32})${ES}`],
  ['digitalocean', 'digitalocean-token', 'DigitalOcean token', 'dop_v1_ doo_v1_ dor_v1_', `${B}do[opr]_v1_(?<b>[a-f0-9]{64})${E}`],
  ['heroku', 'heroku-api-key', 'Heroku API key', 'hrku-', `${B}HRKU-AA(?<b>[0-9A-Za-z_-]{58})${E}`],
  ['flyio', 'flyio-token', 'Fly.io token', 'fo1_ flyv1 fm1_ fm2_', String.raw`${B}(?:fo1_(?<b>[\w-]{43})|FlyV1 fm[12][ar]?_[A-Za-z0-9+/=_,-]{100,})`],
  ['cloudflare', 'cloudflare-origin-ca-key', 'Cloudflare Origin CA key', 'v1.0-', `${B}v1\\.0-[a-f0-9]{24}-(?<b>[a-f0-9]{146})${E}`],
  ['supabase', 'supabase-token', 'Supabase secret', 'sbp_ sb_secret_', `${B}(?:sbp_(?<b>[a-f0-9]{40})|sb_secret_[A-Za-z0-9_-]{31,})${E}`],
  ['planetscale', 'planetscale-token', 'PlanetScale token or password', 'pscale_', `${B}pscale_(?:tkn|pw|oauth)_(?<b>[A-Za-z0-9_.-]{32,64})${E}`],
  ['hashicorp', 'terraform-cloud-token', 'Terraform Cloud / HCP token', 'atlasv1', `${B}[A-Za-z0-9]{14}\\.atlasv1\\.(?<b>[A-Za-z0-9_=-]{60,70})${E}`],
  ['hashicorp', 'vault-token', 'HashiCorp Vault token', 'hvs. hvb. hvr.', `${B}hv[sbr]\\.(?<b>[A-Za-z0-9_-]{24,300})${E}`],
  ['pulumi', 'pulumi-token', 'Pulumi access token', 'pul-', `${B}pul-(?<b>[a-f0-9]{40})${E}`],
  ['doppler', 'doppler-token', 'Doppler token', 'dp.pt. dp.st. dp.sa. dp.ct. dp.scim. dp.audit.', `${B}dp\\.(?:pt|st|sa|ct|scim|audit)\\.(?:[a-z0-9_-]{1,40}\\.)?(?<b>[A-Za-z0-9]{40,44})${E}`],
  ['databricks', 'databricks-token', 'Databricks token', 'dapi', `${B}dapi(?<b>[a-f0-9]{32})(?:-\\d)?${E}`],
  ['dynatrace', 'dynatrace-token', 'Dynatrace API token', 'dt0c01.', `${B}dt0c01\\.[A-Z0-9]{24}\\.(?<b>[A-Z0-9]{64})${E}`],
  ['grafana', 'grafana-token', 'Grafana token', 'eyjrijoi glc_ glsa_', `${B}(?:eyJrIjoi(?<b>[A-Za-z0-9]{70,400}={0,3})|glc_[A-Za-z0-9+/]{32,400}={0,3}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8})${ES}`],
  ['newrelic', 'newrelic-key', 'New Relic key', 'nrak- nrii- nral', `${B}(?:NRAK-(?<b>[A-Z0-9]{27})|NRII-[A-Za-z0-9-]{32}|[a-f0-9]{36}NRAL)${E}`],
  ['sentry', 'sentry-token', 'Sentry auth token', 'sntryu_ sntrys_', `${B}(?:sntryu_(?<b>[a-f0-9]{64})|sntrys_eyJpYXQiO[A-Za-z0-9+/=_]{80,})${E}`],
  ['atlassian', 'atlassian-token', 'Atlassian API token', 'atatt3 atctt3', `${B}AT[AC]TT3(?<b>[A-Za-z0-9_=-]{180,200})${E}`],
  ['bitbucket', 'bitbucket-app-password', 'Bitbucket app password', 'atbb', `${B}ATBB(?<b>[A-Za-z0-9]{32})[A-F0-9]{0,8}${E}`],
  ['openshift', 'openshift-token', 'OpenShift user token', 'sha256~', `${B}sha256~(?<b>[A-Za-z0-9_-]{43})${E}`],
  ['tailscale', 'tailscale-key', 'Tailscale key', 'tskey-', `${B}tskey-(?:auth|api|client|scim|webhook)-[A-Za-z0-9]{6,}-(?<b>[A-Za-z0-9]{20,})${E}`],
  ['scalingo', 'scalingo-token', 'Scalingo API token', 'tk-us-', `${B}tk-us-(?<b>[A-Za-z0-9_-]{48})${E}`],
  ['octopus', 'octopus-deploy-key', 'Octopus Deploy API key', 'api-', `${BS}API-(?<b>[A-Z0-9]{26,32})${ES}`],
  ['harness', 'harness-token', 'Harness access token', 'pat. sat.', `${B}(?:pat|sat)\\.[A-Za-z0-9_-]{22}\\.[a-f0-9]{24}\\.(?<b>[A-Za-z0-9]{20})${E}`],
  ['infracost', 'infracost-key', 'Infracost API key', 'ico-', `${B}ico-(?<b>[A-Za-z0-9]{32})${E}`],
  ['yandex', 'yandex-key', 'Yandex Cloud key or token', 'aqvn y0_ ajeh', `${B}(?:AQVN(?<b>[A-Za-z0-9_-]{35,38})|y0_[A-Za-z0-9_-]{55}|t1\\.[A-Z0-9a-z_-]+[=]{0,2}\\.[A-Z0-9a-z_-]{86}[=]{0,2})${E}`],
  ['render', 'render-key', 'Render API key', 'rnd_', `${B}rnd_(?<b>[A-Za-z0-9]{32})${E}`],
  ['netlify', 'netlify-token', 'Netlify access token', 'nfp_', `${B}nfp_(?<b>[A-Za-z0-9]{36})${E}`],
  ['prefect', 'prefect-key', 'Prefect API key', 'pnu_', `${B}pnu_(?<b>[A-Za-z0-9]{36})${E}`],
  // ---- version control, CI, registries ------------------------------------------------------------------------
  ['github', 'github-token', 'GitHub token', 'ghp_ gho_ ghu_ ghs_ ghr_', `${B}gh[pousr]_(?<b>[A-Za-z0-9]{36,251})${E}`],
  ['github', 'github-token', 'GitHub App installation token (JWT form)', 'ghs_', String.raw`${B}ghs_\d+_(?<b>eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,})${E}`],
  ['github', 'github-token', 'GitHub fine-grained token', 'github_pat_', `${B}github_pat_(?<b>[A-Za-z0-9_]{60,251})${E}`],
  ['gitlab', 'gitlab-token', 'GitLab token', 'glpat- gldt- glrt- glcbt- glptt- glft- glimt- glagent- gloas- glsoat- glffct- gltst-', String.raw`${B}gl(?:pat|dt|rt|cbt|ptt|ft|imt|agent|oas|soat|ffct|tst)-(?<b>[A-Za-z0-9_.-]{20,300})${E}`],
  ['gitlab', 'gitlab-token', 'GitLab runner registration token', 'gr1348941', `${B}GR1348941(?<b>[A-Za-z0-9_-]{20})${E}`],
  ['gitlab', 'gitlab-session', 'GitLab session cookie', '_gitlab_session=', `_gitlab_session=(?<s>(?<b>[0-9a-z]{32}))${E}`],
  ['circleci', 'circleci-token', 'CircleCI personal token', 'ccipat_', `${B}CCIPAT_[A-Za-z0-9]{22}_(?<b>[a-f0-9]{40})${E}`],
  ['buildkite', 'buildkite-token', 'Buildkite API token', 'bkua_', `${B}bkua_(?<b>[a-f0-9]{40})${E}`],
  ['sonar', 'sonar-token', 'SonarQube / SonarCloud token', 'sqa_ sqp_ squ_', `${B}sq[apu]_(?<b>[a-f0-9]{40})${E}`],
  ['npm', 'npm-token', 'npm access token', 'npm_', `${B}npm_(?<b>[A-Za-z0-9]{36})${E}`],
  ['npm', 'npmrc-auth-token', 'registry auth token in .npmrc', '_auth', String.raw`:_auth(?:Token)?\s*=\s*(?!\$\{)(?<s>(?<b>[A-Za-z0-9+/=_.-]{20,}))`],
  ['pypi', 'pypi-token', 'PyPI API token', 'pypi-ageichlwas5vcmc', `${B}pypi-AgEIcHlwaS5vcmc(?<b>[A-Za-z0-9_-]{50,})${E}`],
  ['pypi', 'pypi-token', 'TestPyPI API token', 'pypi-agendgvzdc5wexbplm9yzw', `${B}pypi-AgENdGVzdC5weXBpLm9yZw(?<b>[A-Za-z0-9_-]{50,})${E}`],
  ['rubygems', 'rubygems-key', 'RubyGems API key', 'rubygems_', `${B}rubygems_(?<b>[a-f0-9]{48})${E}`],
  ['nuget', 'nuget-key', 'NuGet API key', 'oy2', `${B}oy2(?<b>[a-z0-9]{43})${E}`],
  ['clojars', 'clojars-token', 'Clojars deploy token', 'clojars_', `${B}CLOJARS_(?<b>[a-z0-9]{60})${E}`],
  ['dockerhub', 'docker-hub-token', 'Docker Hub access token', 'dckr_pat_ dckr_oat_', `${B}dckr_(?:pat|oat)_(?<b>[A-Za-z0-9_-]{27,})${E}`],
  ['docker', 'docker-config-auth', 'registry credentials in Docker config.json', '"auth"', String.raw`"auth"\s*:\s*"(?<s>(?<b>[A-Za-z0-9+/]{12,}={0,2}))"`],
  ['jfrog', 'artifactory-key', 'JFrog Artifactory API key or token', 'akcp cmvmdgtu', `${BS}(?:AKCp(?<b>[A-Za-z0-9]{69})|cmVmdGtuOjAxOj[A-Za-z0-9]{40,60})${ES}`],
  ['huggingface', 'huggingface-token', 'Hugging Face token', 'hf_ api_org_', `${B}(?:hf|api_org)_(?<b>[A-Za-z]{34})${E}`],
  // ---- AI ------------------------------------------------------------------------------------------------------
  ['openai', 'openai-key', 'OpenAI API key', 'sk-proj- sk-svcacct- sk-admin- sk-none-', `${B}sk-(?:proj|svcacct|admin|none)-(?<b>[A-Za-z0-9_-]{32,})${E}`],
  ['openai', 'openai-key', 'OpenAI API key', 't3blbkfj', `${B}sk-(?<b>[A-Za-z0-9_-]{20,74}T3BlbkFJ[A-Za-z0-9_-]{20,74})${E}`],
  ['anthropic', 'anthropic-key', 'Anthropic API key', 'sk-ant-', `${B}sk-ant-[a-z]+[0-9]*-(?<b>[A-Za-z0-9_-]{32,})${E}`],
  ['groq', 'groq-key', 'Groq API key', 'gsk_', `${B}gsk_(?<b>[A-Za-z0-9]{52})${E}`],
  ['xai', 'xai-key', 'xAI API key', 'xai-', `${B}xai-(?<b>[A-Za-z0-9]{80})${E}`],
  ['perplexity', 'perplexity-key', 'Perplexity API key', 'pplx-', `${B}pplx-(?<b>[A-Za-z0-9]{48})${E}`],
  ['replicate', 'replicate-token', 'Replicate API token', 'r8_', `${B}r8_(?<b>[A-Za-z0-9]{37})${E}`],
  ['openrouter', 'openrouter-key', 'OpenRouter API key', 'sk-or-v1-', `${B}sk-or-v1-(?<b>[a-f0-9]{64})${E}`],
  ['langsmith', 'langsmith-key', 'LangSmith API key', 'lsv2_', `${B}lsv2_(?:pt|sk)_(?<b>[a-f0-9]{32})_[a-f0-9]{10}${E}`],
  ['elevenlabs', 'elevenlabs-key', 'ElevenLabs API key', 'sk_', `${B}sk_(?<b>[a-f0-9]{48})${E}`],
  ['pinecone', 'pinecone-key', 'Pinecone API key', 'pcsk_', `${B}pcsk_(?<b>[A-Za-z0-9_]{50,})${E}`],
  // ---- chat, mail, messaging ----------------------------------------------------------------------------------
  ['slack', 'slack-token', 'Slack token', 'xoxb- xoxp- xoxa- xoxr- xoxs- xoxe- xoxo-', String.raw`${B}xox[baprseo]-(?<b>(?:\d{6,}-){1,3}[A-Za-z0-9-]{16,})${E}`],
  ['slack', 'slack-token', 'Slack app-level token', 'xapp-', String.raw`${B}xapp-\d-[A-Z0-9]+-\d+-(?<b>[a-z0-9]{32,})${E}`, 'i'],
  ['slack', 'slack-token', 'Slack configuration access token', 'xoxe.xox', String.raw`${B}xoxe\.xox[bp]-\d-(?<b>[A-Za-z0-9]{100,})${E}`],
  ['slack', 'slack-token', 'Slack configuration refresh token', 'xoxe-', String.raw`${B}xoxe-\d-(?<b>[A-Za-z0-9]{100,})${E}`],
  ['slack', 'slack-webhook', 'Slack webhook URL', 'hooks.slack.com', String.raw`hooks\.slack\.com/(?:services|workflows|triggers)/(?<s>(?<b>[A-Za-z0-9]{6,}/[A-Za-z0-9]{6,}/[A-Za-z0-9/]{16,}))`],
  ['discord', 'discord-token', 'Discord bot token', '.', `${BS}(?<s>[MNO][A-Za-z0-9_-]{23,27}\\.[A-Za-z0-9_-]{6}\\.(?<b>[A-Za-z0-9_-]{27,40}))${ES}`],
  ['discord', 'discord-webhook', 'Discord webhook URL', 'discord', String.raw`https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/(?<s>[0-9]{17,20}/(?<b>[A-Za-z0-9_-]{60,}))`],
  ['telegram', 'telegram-bot-token', 'Telegram bot token', ':aa', String.raw`(?<![A-Za-z0-9_:-])(?<s>\d{8,10}:AA(?<b>[A-Za-z0-9_-]{33}))${E}`],
  ['microsoft', 'teams-webhook', 'Microsoft Teams webhook URL', 'webhook.office.com logic.azure.com', String.raw`(?<s>https://[a-z0-9-]+\.webhook\.office\.com/webhookb2/(?<b>[a-z0-9-]{36}@[a-z0-9-]{36})/IncomingWebhook/[A-Za-z0-9]{32}/[a-z0-9-]{36}(?:/[A-Za-z0-9_-]+)?)`],
  ['twitter', 'twitter-bearer-token', 'X / Twitter bearer token', 'aaaaaaaaaaaaaaaaaaaaa', `${BS}AAAAAAAAAAAAAAAAAAAAA(?<b>[A-Za-z0-9%]{80,120})${ES}`],
  ['facebook', 'facebook-token', 'Facebook / Meta access token', 'eaa', `${BS}EAA[A-Z]?(?<b>[A-Za-z0-9]{100,})${ES}`],
  ['sendgrid', 'sendgrid-key', 'SendGrid API key', 'sg.', `${B}SG\\.(?<b>[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43})${E}`],
  ['mailgun', 'mailgun-key', 'Mailgun API key', 'key-', `${B}key-(?<b>[a-z0-9]{32})${E}`],
  ['mailgun', 'mailgun-key', 'Mailgun API key', 'mailgun', String.raw`(?:mailgun|MAILGUN)[\w.-]*?(?:key|KEY)${ASSIGN}(?<s>(?<b>[a-f0-9]{32}-[a-f0-9]{8}-[a-f0-9]{8}))`],
  ['mailchimp', 'mailchimp-key', 'Mailchimp API key', '-us', `${B}(?<b>[a-f0-9]{32})-us\\d{1,2}${E}`],
  ['brevo', 'brevo-key', 'Brevo (Sendinblue) key', 'xkeysib- xsmtpsib-', `${B}x(?:keysib|smtpsib)-(?<b>[a-f0-9]{64})-[A-Za-z0-9]{16}${E}`],
  ['twilio', 'twilio-key', 'Twilio API key', 'sk', `${BS}SK(?<b>[0-9a-f]{32})${ES}`],
  ['postmark', 'postmark-token', 'Postmark server token', 'postmark', String.raw`(?:postmark|POSTMARK)[\w.-]*?(?:token|TOKEN|key|KEY)${ASSIGN}(?<s>(?<b>${UUID}))`],
  ['intercom', 'intercom-token', 'Intercom access token', 'dg9roj', `${BS}dG9rOj(?<b>[A-Za-z0-9+/]{40,}={0,2})${ES}`],
  ['segment', 'segment-token', 'Segment public API token', 'sgp_', `${B}sgp_(?<b>[A-Za-z0-9]{64})${E}`],
  // ---- payments, commerce -------------------------------------------------------------------------------------
  ['stripe', 'stripe-key', 'Stripe secret key', '_live_ _test_ _prod_', `${B}(?:sk|rk)_(?:live|test|prod)_(?<b>[A-Za-z0-9]{20,247})${E}`],
  ['stripe', 'stripe-webhook-secret', 'Stripe webhook signing secret', 'whsec_', `${B}whsec_(?<b>[A-Za-z0-9+/]{32,})${ES}`],
  ['square', 'square-token', 'Square access token', 'eaaa sq0atp- sq0csp-', `${BS}(?:EAAA(?<b>[A-Za-z0-9_-]{60})|sq0atp-[A-Za-z0-9_-]{22}|sq0csp-[A-Za-z0-9_-]{43})${ES}`],
  ['paypal', 'braintree-token', 'PayPal Braintree access token', 'access_token$', String.raw`${B}access_token\$(?:production|sandbox)\$[0-9a-z]{16}\$(?<b>[0-9a-f]{32})${E}`],
  ['shopify', 'shopify-token', 'Shopify token', 'shpat_ shpca_ shppa_ shpss_', `${B}shp(?:at|ca|pa|ss)_(?<b>[a-fA-F0-9]{32})${E}`],
  ['plaid', 'plaid-token', 'Plaid access token', 'access-sandbox- access-development- access-production-', `${B}access-(?:sandbox|development|production)-(?<b>${UUID})${E}`],
  ['flutterwave', 'flutterwave-key', 'Flutterwave secret key', 'flwseck', `${B}FLWSECK(?:_TEST)?-(?<b>[a-f0-9]{32})-X${E}`],
  ['shippo', 'shippo-token', 'Shippo API token', 'shippo_', `${B}shippo_(?:live|test)_(?<b>[a-f0-9]{40})${E}`],
  ['easypost', 'easypost-key', 'EasyPost API key', 'ezak eztk', `${B}EZ[AT]K(?<b>[A-Za-z0-9]{54})${E}`],
  ['duffel', 'duffel-token', 'Duffel API token', 'duffel_', `${B}duffel_(?:test|live)_(?<b>[A-Za-z0-9_=-]{43})${E}`],
  // ---- productivity and SaaS APIs -----------------------------------------------------------------------------
  ['linear', 'linear-key', 'Linear API key', 'lin_api_ lin_oauth_', `${B}lin_(?:api_(?<b>[A-Za-z0-9]{40})|oauth_[a-f0-9]{64})${E}`],
  ['notion', 'notion-token', 'Notion integration token', 'ntn_ secret_', `${B}(?:ntn_(?<b>\\d{11}[A-Za-z0-9]{35})|secret_[A-Za-z0-9]{43})${E}`],
  ['asana', 'asana-token', 'Asana personal access token', '/', String.raw`${B}[12]/\d{10,16}(?:/\d{10,16})?:(?<b>[a-f0-9]{32})${E}`],
  ['airtable', 'airtable-token', 'Airtable personal access token', 'pat', `${B}pat[A-Za-z0-9]{14}\\.(?<b>[a-f0-9]{64})${E}`],
  ['clickup', 'clickup-token', 'ClickUp personal token', 'pk_', `${B}pk_\\d{6,9}_(?<b>[A-Z0-9]{32})${E}`],
  ['figma', 'figma-token', 'Figma personal access token', 'figd_', `${B}figd_(?<b>[A-Za-z0-9_-]{40})${E}`],
  ['postman', 'postman-key', 'Postman API key', 'pmak-', `${B}PMAK-[a-f0-9]{24}-(?<b>[a-f0-9]{34})${E}`],
  ['contentful', 'contentful-token', 'Contentful personal access token', 'cfpat-', `${B}CFPAT-(?<b>[A-Za-z0-9_-]{43})${E}`],
  ['typeform', 'typeform-token', 'Typeform personal token', 'tfp_', `${B}tfp_(?<b>[A-Za-z0-9_.=-]{59})${E}`],
  ['readme', 'readme-key', 'ReadMe API key', 'rdme_', `${B}rdme_(?<b>[a-z0-9]{70})${E}`],
  ['dropbox', 'dropbox-token', 'Dropbox access token', 'sl.', `${B}sl\\.(?:u\\.)?(?<b>[A-Za-z0-9_-]{130,})${E}`],
  ['mapbox', 'mapbox-secret-token', 'Mapbox secret token', 'sk.eyj1ijoi', `${B}sk\\.eyJ1Ijoi(?<b>[A-Za-z0-9_-]{50,})\\.[A-Za-z0-9_-]{22}${E}`],
  ['frameio', 'frameio-token', 'Frame.io API token', 'fio-u-', `${B}fio-u-(?<b>[A-Za-z0-9_=-]{64})${E}`],
  ['adafruit', 'adafruit-key', 'Adafruit IO key', 'aio_', `${B}aio_(?<b>[A-Za-z0-9]{28})${E}`],
  ['ngrok', 'ngrok-authtoken', 'ngrok authtoken', 'authtoken', String.raw`authtoken["']?\s*[:= ]\s*["']?(?<s>(?<b>[1-9][A-Za-z0-9]{26}_[A-Za-z0-9]{20,22}))`, 'i'],
  ['onepassword', 'onepassword-token', '1Password service account token or secret key', 'ops_eyj a3-', `${B}(?:ops_eyJ(?<b>[A-Za-z0-9+/]{250,}={0,3})|A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5})${ES}`],
  ['age', 'age-secret-key', 'age secret key', 'age-secret-key-1', `${B}AGE-SECRET-KEY-1(?<b>[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58})${E}`],
  ['datadog', 'datadog-key', 'Datadog API or application key', 'dd_ datadog', String.raw`(?:dd|datadog)_?(?:api|app|application)_?key${ASSIGN}(?<s>(?<b>[a-f0-9]{32}|[a-f0-9]{40}))(?![A-Za-z0-9])`, 'i'],
  ['okta', 'okta-token', 'Okta API token', 'okta', String.raw`okta[\w.-]*?(?:token|key)${ASSIGN}(?<s>00(?<b>[A-Za-z0-9_-]{40}))(?![A-Za-z0-9_-])`, 'i'],
  ['heroku', 'heroku-api-key', 'Heroku API key', 'heroku', String.raw`heroku[\w.-]*?(?:key|token)${ASSIGN}(?<s>(?<b>${UUID}))`, 'i'],
  ['algolia', 'algolia-key', 'Algolia admin API key', 'algolia', String.raw`algolia[\w.-]*?(?:admin|api|write)[\w.-]*?key${ASSIGN}(?<s>(?<b>[a-f0-9]{32}))(?![A-Za-z0-9])`, 'i'],
  ['cloudflare', 'cloudflare-api-token', 'Cloudflare API token or key', 'cloudflare cf_api', String.raw`(?:cloudflare|cf)_?(?:api)?_?(?:token|key)${ASSIGN}(?<s>(?<b>[A-Za-z0-9_-]{40}|[a-f0-9]{37}))(?![A-Za-z0-9_-])`, 'i'],
  ['snyk', 'snyk-token', 'Snyk API token', 'snyk', String.raw`snyk[\w.-]*?(?:token|key)${ASSIGN}(?<s>(?<b>${UUID}))`, 'i'],
  ['sumologic', 'sumologic-key', 'Sumo Logic access key', 'sumo', String.raw`sumo[\w.-]*?(?:access)?[\w.-]*?key${ASSIGN}(?<s>(?<b>[A-Za-z0-9]{64}))(?![A-Za-z0-9])`, 'i'],
  // ---- generic structured formats -----------------------------------------------------------------------------
  ['jwt', 'jwt', 'JSON Web Token', 'eyj', String.raw`${B}(?<s>eyJ[A-Za-z0-9_-]{15,}\.eyJ[A-Za-z0-9_-]{15,}\.(?<b>[A-Za-z0-9_-]{20,}))${E}`],
  ['private-key', 'private-key', 'base64-encoded private key', 'ls0tls1crudjti', `${BS}LS0tLS1CRUdJTi(?<b>[A-Za-z0-9+/]{60,}={0,2})${ES}`],
  ['private-key', 'private-key', 'PuTTY private key', 'putty-user-key-file-', String.raw`(?<s>PuTTY-User-Key-File-[23]: (?<b>[\w-]+))`],
];

const WEAK = new Set(['jwt', 'docker-config-auth']);
const VERIFY: Record<string, (s: string) => boolean> = {
  jwt: (s) => decodesTo(/^\{\s*"(?:alg|typ|kid)"/)(s.slice(0, s.indexOf('.'))),
  'docker-config-auth': decodesTo(/^[\x20-\x7e]+:[\x20-\x7e]{6,}$/),
  'private-key': (s) => /^PuTTY-User-Key-File-\d: (?:ssh-|ecdsa-)/.test(s) || decodesTo(/PRIVATE KEY/)(s),
};

// Every hook call is a fresh process: a rule's regex is compiled the first time a line needs it, not at load.
export const PROVIDERS: ProviderRule[] = T.map(([provider, id, what, keywords, src, flags]) => {
  let re: RegExp | undefined;
  return {
    id,
    provider,
    what,
    keywords: keywords.split(' ').map((k) => k.toLowerCase()),
    get re() {
      return (re ??= new RegExp(src, `g${flags ?? ''}`));
    },
    ...(WEAK.has(id) ? { weak: true } : {}),
    ...(VERIFY[id] ? { verify: VERIFY[id] } : {}),
  };
});

interface KeywordIndex {
  keywords: Array<[keyword: string, rules: ProviderRule[]]>;
  shaped: ProviderRule[];
}
let index: KeywordIndex | undefined;

/**
 * Built on the first line that needs it (most hook calls never do). Plain `includes` per keyword, not one big
 * alternation: a regex of ~200 keywords costs ~20 ms to compile and warm up in a fresh process, more than a whole
 * file's scan.
 */
function keywordIndex(): KeywordIndex {
  if (index) return index;
  const byKeyword = new Map<string, ProviderRule[]>();
  for (const r of PROVIDERS) for (const k of r.keywords) byKeyword.set(k, [...(byKeyword.get(k) ?? []), r]);
  // Keywords that are a single punctuation character would make every line a candidate: those rules (Discord,
  // Asana) instead need their structure, tested by a cheap shape check (SHAPE).
  const keywords = [...byKeyword].filter(([k]) => k !== '.' && k !== '/');
  index = { keywords, shaped: [...(byKeyword.get('.') ?? []), ...(byKeyword.get('/') ?? [])] };
  return index;
}
const SHAPE = /[A-Za-z0-9_-]{24}\.[A-Za-z0-9_-]{6}\.|[12]\/\d{10}/;

/**
 * Every format holds a run of 20 token characters (its random part, or prefix and random part together); the two
 * exceptions (an Azure AD secret's `Q~` and a Docker `"auth"` value) are named. Most lines of code have no such run:
 * this one cheap test skips the keyword scan for them (it costs more than the rules it saves on a typical line).
 */
const RUN = /[A-Za-z0-9_+/=%-]{20}|Q~|"auth"/;

/** The provider rules worth running on `line` (none for most lines). */
export function candidates(line: string): ProviderRule[] {
  if (!RUN.test(line)) return [];
  const { keywords, shaped } = keywordIndex();
  const low = line.toLowerCase();
  const out = new Set<ProviderRule>();
  for (const [k, rules] of keywords) if (low.includes(k)) for (const r of rules) out.add(r);
  if (SHAPE.test(line)) for (const r of shaped) out.add(r);
  return [...out];
}
