/**
 * One line per provider rule of no-secrets (validators/no-secrets/scripts/providers.ts), in the table's order: a
 * token written from the format the rule documents (prefix, length, alphabet), its random part drawn from a fixed
 * seed so the lines are the same on every run. None is a real credential. Rules that need a name next to the value
 * get it in the case the rule's regex does not spell (`AWS_SECRET_ACCESS_KEY` for `aws_secret_access_key`), so the
 * case-insensitive flag is what finds them.
 */

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const AN = UPPER + LOWER + DIGITS;
const HEX = '0123456789abcdef';
const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l'.toUpperCase();

/** A generator of pseudo-random strings (xorshift32; a fixed seed gives the same lines on every run). */
export function randomText(seed: number) {
  let x = seed >>> 0 || 1;
  const next = () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  };
  return (n: number, alphabet = AN) => {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[next() % alphabet.length];
    return s;
  };
}

const r = randomText(20261126);
const an = (n: number) => r(n);
const hex = (n: number) => r(n, HEX);
const up = (n: number) => r(n, UPPER + DIGITS);
const low = (n: number) => r(n, LOWER + DIGITS);
const url = (n: number) => r(n, `${AN}_-`);
const b64 = (n: number) => r(n, `${AN}+/`);
const digits = (n: number) => r(1, '123456789') + r(n - 1, DIGITS);
const uuid = () => `${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}`;
const base64 = (s: string) => Buffer.from(s).toString('base64');
const base64url = (s: string) => Buffer.from(s).toString('base64url');

const q = (token: string) => `const value = "${token}";`;

/** The sample line of each provider rule, index for index with PROVIDERS. */
export const PROVIDER_SAMPLES: string[] = [
  // ---- cloud
  q(`AKIA${up(16)}`),
  `AWS_SECRET_ACCESS_KEY = "${b64(40)}"`,
  `AWS_SESSION_TOKEN = "${b64(140)}"`,
  q(`ABSKQmVkcm9ja0FQSUtleS${b64(60)}`),
  q(`AIza${url(35)}`),
  q(`GOCSPX-${url(28)}`),
  q(`ya29.${url(70)}`),
  q(`AAAA${an(7)}:APA91b${url(134)}`),
  q(`DefaultEndpointsProtocol=https;AccountName=acme;accountkey=${b64(86)}==;EndpointSuffix=core.windows.net`),
  q(`Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=send;sharedaccesskey=${b64(43)}=`),
  q(`https://acme.blob.core.windows.net/c/a.bin?sv=2024-08-04&ss=b&sig=${b64(52)}`),
  q(`${an(3)}8Q~${an(32)}`),
  q(`${an(76)}AZDO${an(4)}`),
  q(`LTAI${an(20)}`),
  q(`AKID${an(32)}`),
  q(`dop_v1_${hex(64)}`),
  q(`HRKU-AA${url(58)}`),
  q(`fo1_${url(43)}`),
  q(`v1.0-${hex(24)}-${hex(146)}`),
  q(`sbp_${hex(40)}`),
  q(`pscale_tkn_${url(40)}`),
  q(`${an(14)}.atlasv1.${an(66)}`),
  q(`hvs.${url(90)}`),
  q(`pul-${hex(40)}`),
  q(`dp.st.prd.${an(43)}`),
  q(`dapi${hex(32)}`),
  q(`dt0c01.${up(24)}.${up(64)}`),
  q(`eyJrIjoi${an(80)}`),
  q(`NRAK-${up(27)}`),
  q(`sntryu_${hex(64)}`),
  q(`ATATT3${an(190)}`),
  q(`ATBB${an(32)}`),
  q(`sha256~${url(43)}`),
  q(`tskey-auth-${an(12)}-${an(30)}`),
  q(`tk-us-${url(48)}`),
  q(`API-${up(28)}`),
  q(`pat.${url(22)}.${hex(24)}.${an(20)}`),
  q(`ico-${an(32)}`),
  q(`AQVN${url(36)}`),
  q(`rnd_${an(32)}`),
  q(`nfp_${an(36)}`),
  q(`pnu_${an(36)}`),
  // ---- version control, CI, registries
  q(`ghp_${an(36)}`),
  q(`ghs_${digits(8)}_${base64url('{"alg":"RS256"}')}.${url(40)}.${url(40)}`),
  q(`github_pat_${an(22)}_${an(59)}`),
  q(`glft-${an(24)}`),
  q(`GR1348941${url(20)}`),
  q(`_gitlab_session=${low(32)}`),
  q(`CCIPAT_${an(22)}_${hex(40)}`),
  q(`bkua_${hex(40)}`),
  q(`sqp_${hex(40)}`),
  q(`npm_${an(36)}`),
  `//npm.acme.dev/:_authToken=${an(30)}`,
  q(`pypi-AgEIcHlwaS5vcmc${url(70)}`),
  q(`pypi-AgENdGVzdC5weXBpLm9yZw${url(70)}`),
  q(`rubygems_${hex(48)}`),
  q(`oy2${low(43)}`),
  q(`CLOJARS_${low(60)}`),
  q(`dckr_pat_${url(27)}`),
  `{ "auths": { "registry.acme.dev": { "auth": "${base64(`deploy:${an(20)}`)}" } } }`,
  q(`AKCp${an(69)}`),
  q(`hf_${r(34, UPPER + LOWER)}`),
  // ---- AI
  q(`sk-proj-${url(64)}`),
  q(`sk-${an(20)}T3BlbkFJ${an(20)}`),
  q(`sk-ant-api03-${url(93)}`),
  q(`gsk_${an(52)}`),
  q(`xai-${an(80)}`),
  q(`pplx-${an(48)}`),
  q(`r8_${an(37)}`),
  q(`sk-or-v1-${hex(64)}`),
  q(`lsv2_pt_${hex(32)}_${hex(10)}`),
  q(`sk_${hex(48)}`),
  q(`pcsk_${an(60)}`),
  // ---- chat, mail, messaging
  q(`xoxb-${digits(12)}-${digits(13)}-${an(24)}`),
  q(`xapp-1-${low(11)}-${digits(13)}-${hex(64).toUpperCase()}`),
  q(`xoxe.xoxp-1-${an(140)}`),
  q(`xoxe-1-${an(140)}`),
  q(`https://hooks.slack.com/services/T${up(10)}/B${up(10)}/${an(24)}`),
  q(`M${url(25)}.${url(6)}.${url(38)}`),
  q(`https://discord.com/api/webhooks/${digits(18)}/${url(68)}`),
  q(`${digits(9)}:AA${url(33)}`),
  q(`https://acme.webhook.office.com/webhookb2/${uuid()}@${uuid()}/IncomingWebhook/${an(32)}/${uuid()}`),
  q(`AAAAAAAAAAAAAAAAAAAAA${an(100)}`),
  q(`EAAB${an(140)}`),
  q(`SG.${url(22)}.${url(43)}`),
  q(`key-${low(32)}`),
  `MAILGUN_API_KEY = "${hex(32)}-${hex(8)}-${hex(8)}"`,
  q(`${hex(32)}-us14`),
  q(`xkeysib-${hex(64)}-${an(16)}`),
  q(`SK${hex(32)}`),
  `POSTMARK_SERVER_TOKEN = "${uuid()}"`,
  q(`dG9rOj${b64(60)}`),
  q(`sgp_${an(64)}`),
  // ---- payments, commerce
  q(`rk_live_${an(40)}`),
  q(`whsec_${an(40)}`),
  q(`EAAA${url(60)}`),
  q(`access_token$production$${low(16)}$${hex(32)}`),
  q(`shpat_${hex(32)}`),
  q(`access-production-${uuid()}`),
  q(`FLWSECK-${hex(32)}-X`),
  q(`shippo_live_${hex(40)}`),
  q(`EZAK${an(54)}`),
  q(`duffel_live_${url(43)}`),
  // ---- productivity and SaaS APIs
  q(`lin_api_${an(40)}`),
  q(`ntn_${digits(11)}${an(35)}`),
  q(`1/${digits(16)}:${hex(32)}`),
  q(`pat${an(14)}.${hex(64)}`),
  q(`pk_${digits(8)}_${up(32)}`),
  q(`figd_${url(40)}`),
  q(`PMAK-${hex(24)}-${hex(34)}`),
  q(`CFPAT-${url(43)}`),
  q(`tfp_${url(59)}`),
  q(`rdme_${low(70)}`),
  q(`sl.${url(140)}`),
  q(`sk.eyJ1Ijoi${url(60)}.${url(22)}`),
  q(`fio-u-${url(64)}`),
  q(`aio_${an(28)}`),
  `NGROK_AUTHTOKEN: "2${an(26)}_${an(21)}"`,
  q(`ops_eyJ${b64(260)}`),
  q(`AGE-SECRET-KEY-1${r(58, BECH32)}`),
  `DD_API_KEY = "${hex(32)}"`,
  `OKTA_API_TOKEN = "00${url(40)}"`,
  `HEROKU_API_KEY = "${uuid()}"`,
  `ALGOLIA_ADMIN_KEY = "${hex(32)}"`,
  `CLOUDFLARE_API_TOKEN = "${url(40)}"`,
  `SNYK_TOKEN = "${uuid()}"`,
  `SUMO_ACCESS_KEY = "${an(64)}"`,
  // ---- generic structured formats
  q(`${base64url('{"alg":"HS256","typ":"JWT"}')}.${base64url(`{"sub":"${an(12)}","iat":1764115200}`)}.${url(43)}`),
  q(base64(`-----BEGIN RSA PRIVATE KEY-----\n${b64(64)}\n`)),
  'PuTTY-User-Key-File-3: ssh-ed25519',
];
