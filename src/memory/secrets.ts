/**
 * Masks known secret shapes before any text reaches the index: what is masked is never stored, so it can be
 * neither found nor leaked. The shapes are those of gitleaks' default rule set (config/gitleaks.toml at
 * gitleaks/gitleaks b58d3f1, 222 rules), rewritten here, not copied; secrets.test.ts tests each shape taken
 * beside a near miss. Not taken: entropy scoring (a value is judged by its shape instead), the ~90 rules
 * that need a vendor's name beside the value (masked when the name also says key, token, secret, password or
 * credential), kubernetes-secret-yaml, pkcs12-file (a file name), Sourcegraph's bare 40-hex (a git SHA) and
 * Vault's legacy `s.` tokens (too loose). Also shapes people paste that gitleaks lacks (issue 40: keypairs,
 * seed phrases, Azure keys, .netrc, .pgpass, …). Pure; linear in the text (tested on inputs made to backtrack).
 */

const MASK = '[secret]';

/**
 * Tokens a fixed prefix makes recognisable anywhere (the gitleaks rule ids after each), matched from a word
 * start. Those whose shape starts with a class (any letter) run only when their literal part (`hint`) is in
 * the text: in the one alternation they would be tried at every word. (openai's digit check looks at most
 * 200 characters ahead: unbounded, `sk-sk-sk-…` took quadratic time, 22 s for 200 kB; a key's first digit
 * comes well before.)
 */
const PREFIXED: ReadonlyArray<{ re: string; hint?: string }> = [
  { re: String.raw`sk-(?:ant-(?:api|admin)\d\d-|proj-|svcacct-|admin-)?(?=[\w-]{0,200}\d)[\w-]{20,}` }, // openai-api-key, anthropic-api-key, anthropic-admin-api-key
  { re: String.raw`[rs]k_(?:live|test|prod)_[A-Za-z0-9]{10,}` }, // stripe-access-token
  { re: String.raw`gh[pousr]_[A-Za-z0-9]{30,}` }, // github-pat, github-oauth, github-app-token, github-refresh-token
  { re: String.raw`github_pat_\w{30,}` }, // github-fine-grained-pat
  { re: String.raw`gl(?:pat|dt|ffct|ft|imt|agent|oas|rt|soat)-[\w-]{20,}(?:\.[0-9a-z]{2,}){0,2}` }, // gitlab-pat(-routable), gitlab deploy/feature-flag/feed/incoming-mail/kubernetes-agent/oauth-app/runner/scim tokens
  { re: String.raw`glptt-[0-9a-f]{40}` }, // gitlab-ptt
  { re: String.raw`glcbt-[0-9a-zA-Z]{1,5}_[\w-]{20,}` }, // gitlab-cicd-job-token
  { re: String.raw`GR1348941[\w-]{20,}` }, // gitlab-rrt
  { re: String.raw`_gitlab_session=[0-9a-z]{32}` }, // gitlab-session-cookie
  { re: String.raw`(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b` }, // aws-access-token
  { re: String.raw`ABSK[A-Za-z0-9+/]{109,}={0,2}` }, // aws-amazon-bedrock-api-key-long-lived
  { re: String.raw`bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t[\w+/=%-]*` }, // aws-amazon-bedrock-api-key-short-lived
  { re: String.raw`AIza[\w-]{35}` }, // gcp-api-key (no end boundary: a key may end in `-`)
  { re: String.raw`xox[abeoprs]-[\w-]{10,}` }, // slack-bot-token, slack-user-token, slack-legacy-*-token
  { re: String.raw`xoxe\.xox[bp]-\d-[A-Za-z0-9]{100,}` }, // slack-config-access-token
  { re: String.raw`xapp-\d-[A-Za-z0-9-]{10,}` }, // slack-app-token
  { re: String.raw`hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/]{20,}` }, // slack-webhook-url
  { re: String.raw`eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_/\\-]{10,}\.(?:[A-Za-z0-9_/\\-]{8,}={0,2})?` }, // jwt
  { re: String.raw`ZXlK[A-Za-z0-9+/]{40,}={0,2}` }, // jwt-base64
  { re: String.raw`eyJrIjoi[A-Za-z0-9]{70,}={0,3}` }, // grafana-api-key
  { re: String.raw`glc_[A-Za-z0-9+/]{32,}={0,3}` }, // grafana-cloud-api-token
  { re: String.raw`glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}` }, // grafana-service-account-token
  { re: String.raw`hf_[A-Za-z0-9]{30,}` }, // huggingface-access-token
  { re: String.raw`api_org_[A-Za-z]{34}` }, // huggingface-organization-api-token
  { re: String.raw`npm_[A-Za-z0-9]{36}` }, // npm-access-token
  { re: String.raw`pypi-AgEIcHlwaS5vcmc[\w-]{50,}` }, // pypi-upload-token
  { re: String.raw`rubygems_[a-f0-9]{48}` }, // rubygems-api-token
  { re: String.raw`CLOJARS_[A-Za-z0-9]{60}` }, // clojars-api-token
  { re: String.raw`A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})(?:-[A-Z0-9]{5}){3}` }, // 1password-secret-key
  { re: String.raw`ops_eyJ[A-Za-z0-9+/]{250,}={0,3}` }, // 1password-service-account-token
  { re: String.raw`p8e-[A-Za-z0-9]{32}` }, // adobe-client-secret
  { re: String.raw`AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}` }, // age-secret-key
  { re: String.raw`pat[A-Za-z0-9]{14}\.[a-f0-9]{64}` }, // airtable-personnal-access-token
  { re: String.raw`LTAI[A-Za-z0-9]{20}` }, // alibaba-access-key-id
  { re: String.raw`AKCp[A-Za-z0-9]{69}` }, // artifactory-api-key
  { re: String.raw`cmVmd[A-Za-z0-9]{59}` }, // artifactory-reference-token
  { re: String.raw`4b1d[A-Za-z0-9]{38}\b` }, // clickhouse-cloud-api-secret-key
  { re: String.raw`v1\.0-[a-f0-9]{24}-[a-f0-9]{146}` }, // cloudflare-origin-ca-key
  { re: String.raw`dapi[a-f0-9]{32}(?:-\d)?` }, // databricks-api-token
  { re: String.raw`do[opr]_v1_[a-f0-9]{64}` }, // digitalocean-access-token, digitalocean-pat, digitalocean-refresh-token
  { re: String.raw`dp\.pt\.[A-Za-z0-9]{43}` }, // doppler-api-token
  { re: String.raw`sl\.[\w=-]{130,}` }, // dropbox-short-lived-api-token
  { re: String.raw`duffel_(?:test|live)_[\w=-]{43}` }, // duffel-api-token
  { re: String.raw`dt0c01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}` }, // dynatrace-api-token
  { re: String.raw`EZ[AT]K[A-Za-z0-9]{54}` }, // easypost-api-token, easypost-test-api-token
  { re: String.raw`EAA[MC][A-Za-z0-9]{100,}` }, // facebook-page-access-token
  { re: String.raw`\d{15,16}(?:\||%7[Cc])[\w-]{27,40}` }, // facebook-access-token
  { re: String.raw`FLW(?:SECK|PUBK)_TEST-[a-hA-H0-9]{12,32}(?:-X)?` }, // flutterwave-encryption-key, -public-key, -secret-key
  { re: String.raw`fo1_[\w-]{43}|fm[12][ar]?_[A-Za-z0-9+/]{100,}={0,3}` }, // flyio-access-token
  { re: String.raw`fio-u-[\w=-]{64}` }, // frameio-api-token
  { re: String.raw`(?:pat|sat)\.[\w-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20}` }, // harness-api-key
  { re: String.raw`HRKU-AA[\w-]{58}` }, // heroku-api-key-v2
  { re: String.raw`ico-[A-Za-z0-9]{32}` }, // infracost-api-token
  { re: String.raw`s-s4t2(?:ud|af)-[a-fA-F0-9]{64}` }, // intra42-client-secret
  { re: String.raw`lin_api_[A-Za-z0-9]{40}` }, // linear-api-key
  { re: String.raw`[ps]k\.[A-Za-z0-9]{60}\.[A-Za-z0-9]{22}` }, // mapbox-api-token
  { re: String.raw`NR(?:AK-[A-Za-z0-9]{27}|II-[A-Za-z0-9-]{32}|JS-[a-f0-9]{19})` }, // new-relic-user-api-key, new-relic-insert-key, new-relic-browser-api-token
  { re: String.raw`ntn_\d{11}[A-Za-z0-9]{35}` }, // notion-api-token
  { re: String.raw`API-[A-Z0-9]{26}\b` }, // octopus-deploy-api-key
  { re: String.raw`sha256~[\w-]{43}` }, // openshift-user-token
  { re: String.raw`pplx-[A-Za-z0-9]{48}` }, // perplexity-api-key
  { re: String.raw`pscale_(?:tkn|oauth|pw)_[\w=.-]{32,64}` }, // planetscale-api-token, planetscale-oauth-token, planetscale-password
  { re: String.raw`PMAK-[a-fA-F0-9]{24}-[a-fA-F0-9]{34}` }, // postman-api-token
  { re: String.raw`pnu_[A-Za-z0-9]{36}` }, // prefect-api-token
  { re: String.raw`pul-[a-f0-9]{40}` }, // pulumi-api-token
  { re: String.raw`rdme_[a-z0-9]{70}` }, // readme-api-token
  { re: String.raw`tk-us-[\w-]{48}` }, // scalingo-api-token
  { re: String.raw`SG\.[\w-]{22}\.[\w-]{43}` }, // sendgrid-api-token
  { re: String.raw`xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}` }, // sendinblue-api-token
  { re: String.raw`sntryu_[a-f0-9]{64}|sntrys_eyJ[A-Za-z0-9+/=_]{40,}` }, // sentry-user-token, sentry-org-token
  { re: String.raw`sm_(?:aat|pat|sat)_[A-Za-z0-9]{16}` }, // settlemint-application/personal/service-access-token
  { re: String.raw`shippo_(?:live|test)_[a-fA-F0-9]{40}` }, // shippo-api-token
  { re: String.raw`shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}` }, // shopify-access-token, -custom-access-token, -private-app-access-token, -shared-secret
  { re: String.raw`sgp_(?:[a-fA-F0-9]{16}_|local_)?[a-fA-F0-9]{40}` }, // sourcegraph-access-token
  { re: String.raw`(?:EAAA|sq0atp-|sq0csp-)[\w-]{22,60}` }, // square-access-token
  { re: String.raw`SK[0-9a-fA-F]{32}\b` }, // twilio-api-key
  { re: String.raw`tfp_[\w.=-]{59}` }, // typeform-api-token
  { re: String.raw`hvs\.[\w-]{90,}|hvb\.[\w-]{138,}` }, // vault-service-token, vault-batch-token
  { re: String.raw`dnkey-[\w=-]{26}-[\w=-]{52}` }, // defined-networking-api-token
  // Not gitleaks' (issue 40): Stripe's and Svix's webhook signing secret, Google's OAuth client secret.
  { re: String.raw`whsec_[A-Za-z0-9+/]{24,}={0,2}` }, // webhook signing secret
  { re: String.raw`GOCSPX-[\w-]{24,}` }, // google oauth client secret
  { re: String.raw`discord(?:app)?\.com/api/(?:v\d{1,2}/)?webhooks/\d{17,20}/[\w-]{60,}`, hint: 'discord' }, // discord webhook URL (id and token)
  { re: String.raw`[a-z0-9]+\.webhook\.office\.com/webhookb2/[^\s"'<>]+`, hint: '.webhook.office.com/' }, // microsoft-teams-webhook
  { re: String.raw`(?:sc|ext|scauth|authress)_[A-Za-z0-9]{5,30}\.[A-Za-z0-9]{4,6}\.acc[_-][A-Za-z0-9-]{10,32}\.[A-Za-z0-9+/_=-]{30,}`, hint: '.acc' }, // authress-service-client-access-key
  { re: String.raw`[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}`, hint: 'Q~' }, // azure-ad-client-secret
  { re: String.raw`[A-Za-z0-9]{14}\.atlasv1\.[\w=-]{60,70}`, hint: '.atlasv1.' }, // hashicorp-tf-api-token
  { re: String.raw`[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk`, hint: '_mmk' }, // maxmind-license-key
  { re: String.raw`\d{5,16}:A[\w-]{34}\b`, hint: ':A' }, // telegram-bot-api-token
];
const PREFIXED_RE = new RegExp(String.raw`\b(?:${PREFIXED.filter((p) => !p.hint).map((p) => p.re).join('|')})`, 'g');
const HINTED: ReadonlyArray<{ re: RegExp; hint: string }> = PREFIXED.flatMap((p) => (p.hint ? [{ re: new RegExp(String.raw`\b(?:${p.re})`, 'g'), hint: p.hint }] : []));

// The start of a token above left just before a cut mark (`…`, or the parsers' `...`): the token was cut
// before it could be masked (a parser keeps at most 4,000 characters of an event), so what is left goes.
const CUT_PREFIXES = String.raw`sk-|[rs]k_(?:live|test|prod)_|gh[pousr]_|github_pat_|gl(?:pat|dt|ffct|ft|imt|agent|oas|ptt|rt|soat|cbt|c|sa)[-_]|GR1348941|(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{2}|ABSK|AIza|xox[abeoprs][-.]|xapp-|eyJ|ZXlK|hf_|api_org_|npm_|pypi-|rubygems_|CLOJARS_|ops_|p8e-|AGE-SECRET-KEY-|LTAI|AKCp|cmVmd|dapi[a-f0-9]|do[opr]_v1_|dp\.pt\.|duffel_|dt0c01\.|EZ[AT]K|FLW(?:SECK|PUBK)_|fo1_|fm[12][ar]?_|fio-u-|HRKU-|lin_api_|NR(?:AK|II|JS)-|ntn_|sha256~|pplx-|pscale_|PMAK-|pnu_|rdme_|tk-us-|SG\.|xkeysib-|sntry[us]_|shippo_|shp(?:at|ca|pa|ss)_|sgp_|sq0(?:atp|csp)-|hv[sb]\.|tfp_|dnkey-|whsec_|GOCSPX-`;
const CUT_TOKEN_RE = new RegExp(String.raw`\b(?:${CUT_PREFIXES})[^\s…"'\x60]*$`);
const CUT_MARK_RE = /…|\.\.\./g;

// private-key: a block whole (an RSA 4096 key is 3.3 kB); one whose end was cut off (or is missing) up to the
// end of its base64.
const PRIVATE_KEY_RE =
  /-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]{0,8000}?-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----|(?:[A-Za-z0-9+/=\s]|\\[nr])*)/g;

// A password in any URL (`https://user:pass@host`, ssh, git, databases; sidekiq-sensitive-url): the password
// goes, scheme, user and host stay. A URL cut inside its password (a cut mark, no `@`) loses what is left of
// it. Matched from the `://` (a literal: 20 times faster than from the scheme), the scheme checked behind it.
const URL_PASSWORD_RE = /:\/\/(?<=\b[a-zA-Z][a-zA-Z0-9+.-]{1,20}:\/\/)([^\s:/?#@'"`]*):(?:[^\s/?#@'"`]+(@)|[^\s/?#@'"`…]*?(…|\.\.\.)(?=[\s"'`]|$))/g;

// A URL's password that stands for one (`$PASS`, `{1}`, `PASSWORD`, `<password>`): docs and templates.
const URL_PLACEHOLDER_RE = /^(?:\{[^}]*\}|your[-_]?password|passw(?:or)?d|pass|pwd|secret)$/i;

function maskUrlPassword(whole: string, user: string, at: string | undefined, cut: string | undefined): string {
  const password = whole.slice(3 + user.length + 1, whole.length - (at ?? cut ?? '').length);
  if (at && (isPlaceholder(password) || URL_PLACEHOLDER_RE.test(password))) return whole;
  return `://${user}:${MASK}${at ?? ''}${cut ?? ''}`;
}

// Authorization headers (curl-auth-header, and any HTTP dump): the credentials after the scheme.
const AUTH_HEADER_RE = /\b((?:Proxy-)?Authorization["']?[ \t]*[:=][ \t]*["']?(?:(?:Basic|Bearer|Token|Digest|Negotiate|NTLM|ApiKey|Api-Key|Key|OAuth|AWS4-HMAC-SHA256)[ \t]+)?)([^\s"'`]{4,})/gi;
// A bearer token anywhere (a generated-looking one: "Bearer authentication" is prose).
const BEARER_RE = /\b([Bb]earer[ \t]+)([A-Za-z0-9._~+/-]{12,}=*)/g;

// Passwords on command lines: curl-auth-user (`curl -u user:pass`), `mysql -pSECRET` (attached only: a
// spaced `-p` asks for it), `sshpass -p`, `mongo(sh) -p`, `redis-cli -a`; nuget-config-password. The flag is
// looked for in the 300 characters after the command (unbounded, a line of `curl`s took quadratic time).
const CLI_PASSWORD_RE = new RegExp(
  [
    String.raw`(\bcurl\b[^\n]{0,300}?\s(?:-u|--user)(?:=|[ \t]+)["']?[^\s:"']*:)([^\s"']+)`,
    String.raw`(\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlcheck|mysqlshow|mariadb|mariadb-dump)\b[^\n]{0,300}?\s-p)(?![\s-])(["']?[^\s"']+["']?)`,
    String.raw`(\b(?:sshpass|mongo|mongosh|mongodump|mongorestore)\b[^\n]{0,300}?\s-p[ \t]*)(?!-)(["']?[^\s"']+["']?)`,
    String.raw`(\bredis-cli\b[^\n]{0,300}?\s-a[ \t]+)(?!-)(["']?[^\s"']+["']?)`,
    String.raw`(<add\s+key=\\?["'](?:ClearText)?Password\\?["']\s+value=\\?["'])([^"'\\]+)`,
  ].join('|'),
  'gi',
);
// Two groups (head, password) per branch of CLI_PASSWORD_RE.
const CLI_GROUPS = 10;
const CLI_HINT_RE = /curl|mysql|mariadb|sshpass|mongo|redis-cli|<add/i;

// Shapes people paste that no name or prefix above gives away (issue 40), each with its near miss in
// secrets.test.ts. Every one is anchored on a literal or a bounded run, no two parts match the same text.
// `docker login -p X` (its `--password X` is a flag's password below too; `--password-stdin` reads it),
// matched from ` login` (a literal), the tool checked behind it.
const DOCKER_LOGIN_RE = /[ \t]login\b(?<=\b(?:docker|podman|nerdctl|buildah|skopeo)[ \t]+login)([^\n;&|]{0,300}?\s(?:-p|--password)(?:=|[ \t]+))(?!-)(["']?[^\s"']+["']?)/g;
const BYTE = String.raw`(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)`;
const JSON_SPACE = String.raw`(?:\s|\\[nrt])*`;
// A wallet keypair: a JSON array of 64 bytes (Solana's `id.json`, any ed25519 secret key written as bytes).
const KEYPAIR_RE = new RegExp(String.raw`\[${JSON_SPACE}(?:${BYTE}${JSON_SPACE},${JSON_SPACE}){63}${BYTE}${JSON_SPACE}\]`, 'g');
// A seed phrase (BIP-39: 12 to 24 words) after a name that says it is one; the words go, the name stays.
// Matched from the end of its name's word (a literal: a word start tried at every word was 5 times slower).
const SEED_PHRASE_RE =
  /(?:nemonic|NEMONIC|hrase|HRASE)(?<=\b(?:[Mm]nemonic|MNEMONIC|(?:[Ss]eed|SEED|[Rr]ecovery|RECOVERY|[Ww]allet|WALLET)[_ -]?(?:[Pp]hrase|PHRASE)))[\w.-]{0,40}(?:\\?["'])?[ \t]*[:=][ \t]*(?:\\?["'])?((?:[a-z]{3,8}[ \t]+){11,23}[a-z]{3,8})(?![\w-])/g;
// Azure: a storage or Service Bus connection string's key, and a SAS URL's signature.
const AZURE_KEY_RE = /Key=(?<=\b(?:Account|SharedAccess)Key=)[A-Za-z0-9+/]{20,}={0,2}/g;
const SAS_SIG_RE = /((?:[?&;]|\\u0026)sig=)([A-Za-z0-9%+/=]{20,})/g;
// `.netrc` (curl, git, ftp): `machine HOST login USER password X`, on one line or several; `default login … password X`.
const NETRC_RE =
  /\b((?:machine[ \t]+[^\s\\]+(?:(?:\s|\\[nrt])+(?:login|account|port)[ \t]+[^\s\\]+){0,3}|default(?:(?:\s|\\[nrt])+(?:login|account)[ \t]+[^\s\\]+){1,2})(?:\s|\\[nrt])+password[ \t]+)([^\s\\]+)/g;
// `htpasswd -b FILE USER PASS` (`-nb USER PASS`: no file): the password word is found by maskHtpasswd(), which reads the flags.
const HTPASSWD_RE = /\bhtpasswd((?:[ \t]+[^\s;&|<>]+){2,8})/g;
// `echo X | sudo -S` (also `printf`, `sudo -k -S`, `--stdin`): the password echoed.
const SUDO_STDIN_RE =
  /\b((?:echo|printf)[ \t]+(?:-[neE]{1,3}[ \t]+)?)("[^"\n]{1,200}"|'[^'\n]{1,200}'|[^\s|;&"'<>]+)(?=[ \t]*\|[ \t]*sudo(?:[ \t]+[^\s|;&]+){0,6}?[ \t]+(?:-[A-Za-z]*S[A-Za-z]*|--stdin)(?![\w-]))/g;
// A `.pgpass` line `host:port:database:user:password` (port 4-5 digits or `*`), matched from the port's
// colon (a literal first: a lookbehind for the host first was tried at every character, 100 times slower);
// maskPgpass() reads the host back. `src/x.go:42:13:` has a short port and no password.
const PGPASS_RE = /:(?:\d{4,5}|\*):[\w.*$-]{1,63}:[\w.*@$-]{1,63}:((?:[^\s:\\'"]|\\[^n])+)(?=["']?(?:\s|\\n|$))/g;
// PuTTY's `.ppk`: the base64 lines after `Private-Lines: N`, and the MAC.
const PUTTY_LINES_RE = /(Private-Lines:[ \t]*\d{1,3})(\r?\n|\\r?\\n)[A-Za-z0-9+/=]+(?=[\s"'\\]|$)(?:(?:\r?\n|\\r?\\n)[A-Za-z0-9+/=]+(?=[\s"'\\]|$))*/g;
const PUTTY_MAC_RE = /(Private-MAC:[ \t]*)[0-9a-fA-F]{16,}/g;

// Words that say a name's value is a secret (generic-api-key, hashicorp-tf-password and the vendor rules'
// `VENDOR_KEY=`/`VENDOR_TOKEN=` forms).
const SECRET_WORDS = String.raw`api[_-]?key|apikey|secret|token|passw(?:or)?d|pwd|passphrase|credentials?|creds|private[_-]?key|access[_-]?key|(?<![a-z])pass(?![a-z])|(?<![a-z])auth(?![a-z])|[_.-]key(?![a-z])`;
// A name that ends in a password word: its value counts however short (`password: x`).
const PASSWORD_END_RE = /(?:passw(?:or)?d|pwd|passphrase|(?<![a-z])pass)$/i;

// `NAME=value`, `NAME: value`, `"name": "value"`, `name := value`, `name => value`, `--name=value` (also
// JSON-escaped, as in tool-call arguments); or, spaced, `aws_secret_access_key VALUE`, `--password VALUE`
// (a name set apart by `_`/`-` or a flag's dashes, ending in the secret word). One pass for both, matched from
// the secret word (a word start tried at every word was 25 times slower); the replacer reads the whole name
// back from the text. What follows the word is bounded (as gitleaks does): unbounded, `token_token_…` took
// quadratic time.
const NAMED_VALUE_RE = new RegExp(
  String.raw`(?:${SECRET_WORDS})(?:[\w.-]{0,64}(?:["'\x60]|\\")?[ \t]*(?:=>|:=|\?=|=|:)[ \t]*(?:(\\?["'\x60])([^"'\x60\n\\]{1,4000})\1|([^\s"'\x60,;(){}[\]<>\\]+)(?=[\s"'\x60,;)}\]<>\\]|$))|[ \t]+(["']?)([^\s"'\x60]+)\4(?=[\s"'\x60;,)]|$))`,
  'gi',
);

// Values that name a secret rather than hold it: a variable, a template, a placeholder, a path, a literal.
const PLACEHOLDER_RE =
  /^(?:\$|%[A-Z_]|<|\{\{|\[secret\]|\*+$|x{3,}$|\.{3}|…|~?\/|\.\.?\/|(?:process\.env|os\.environ|os\.getenv|env|getenv|secrets|vars|config|settings|self|this|none|null|nil|undefined|true|false|required|optional|string|str|bool|boolean|number|int|integer|object|any|unknown|prompt|redacted|hidden|masked|empty)\b)/i;
// Plain words and code after a password's name: prose ("Password: enter it twice") or code (`$pass = if …`).
const PLAIN_WORDS = new Set(['the', 'a', 'an', 'is', 'are', 'was', 'be', 'it', 'its', 'this', 'that', 'not', 'no', 'yes', 'and', 'or', 'to', 'for', 'of', 'in', 'on', 'with', 'your', 'my', 'our', 'their', 'enter', 'type', 'use', 'set', 'see', 'same', 'blank', 'field', 'reset', 'changed', 'updated', 'stored', 'saved', 'sent', 'needed', 'missing', 'wrong', 'invalid', 'incorrect', 'expired', 'if', 'else', 'new', 'await', 'function', 'lambda', 'input', 'getpass', 'read']);
const AUTH_SCHEMES = new Set(['basic', 'bearer', 'token', 'digest', 'negotiate', 'ntlm', 'apikey', 'api-key', 'key', 'oauth', 'header', 'headers']);
const ENDS_CUT_RE = /(?:…|\.\.\.)$/;
/** Distinct characters that make a value of any length varied enough to be generated (looksGenerated). */
const GENERATED_DISTINCT_MAX = 10;
// A name or reference in code: `options?.apiKey`, `OAuthCredentials`, `config.secret_key`.
const IDENTIFIER_RE = /^[A-Za-z_$][\w$]*(?:[?!]?\.[A-Za-z_$][\w$]*)*$/;

// A value that looks generated: long enough, letters with a digit or mixed case or a symbol; not a URL, a
// name in code (a camelCase name has a hump every few letters, a random string one in four), a number, a
// date, words. At any length: the variety asked of it (distinct characters, against repeats such as
// `aaaa1111`) is a share of a short value but at most 10 characters, as a long one drawn from 16 (hex: 64
// characters of `openssl rand -hex 32` have ~16 distinct, 25 %) or 58 (base58) cannot show more.
function looksGenerated(value: string, minLength: number): boolean {
  if (value.length < minLength || value.includes('://') || /\s/.test(value)) return false;
  const letters = value.match(/[A-Za-z]/g)?.length ?? 0;
  if (letters < 4) return false;
  const digit = /\d/.test(value);
  if (IDENTIFIER_RE.test(value) && (!digit || value.includes('.')) && (value.match(/[a-z](?=[A-Z])/g)?.length ?? 0) * 4 < letters) return false;
  if (!digit && !(/[a-z]/.test(value) && /[A-Z]/.test(value)) && !/[+=~!@#%^&*]/.test(value)) return false;
  return new Set(value).size >= Math.min(value.length * 0.3, GENERATED_DISTINCT_MAX);
}

const isPlaceholder = (value: string) => value.includes(MASK) || PLACEHOLDER_RE.test(value);

// The whole name a match of NAMED_VALUE_RE starts inside: back to the start of its word.
function nameAt(text: string, offset: number, matched: string): string {
  let start = offset;
  while (start > 0 && /[\w.-]/.test(text[start - 1] as string)) start--;
  return text.slice(start, offset) + (/^[\w.-]+/.exec(matched)?.[0] ?? '');
}

// NAMED_VALUE_RE's replacer: the value masked when the name and the value say it is a secret.
function maskNamedValue(whole: string, quote: string | undefined, quoted: string | undefined, bare: string | undefined, spacedQuote: string | undefined, spaced: string | undefined, offset: number, text: string): string {
  return spaced === undefined ? maskAssignment(whole, quote, quoted, bare, offset, text) : maskSpaced(whole, spacedQuote ?? '', spaced, offset, text);
}

function maskAssignment(whole: string, quote: string | undefined, quoted: string | undefined, bare: string | undefined, offset: number, text: string): string {
  const value = quoted ?? bare ?? '';
  if (!value || isPlaceholder(value)) return whole;
  const head = whole.slice(0, whole.length - value.length - 2 * (quote?.length ?? 0));
  const cut = ENDS_CUT_RE.exec(value)?.[0];
  if (cut === undefined) {
    if (PASSWORD_END_RE.test(nameAt(text, offset, whole))) {
      if (bare !== undefined && PLAIN_WORDS.has(value.toLowerCase())) return whole;
      if (quoted !== undefined && /[{}()]/.test(value)) return whole; // a code expression in quotes
    } else if (!looksGenerated(value, 8)) return whole;
  }
  // A value cut short (it ends in a cut mark) is masked whatever is left of it.
  return quote ? `${head}${quote}${MASK}${cut ?? ''}${quote}` : `${head}${MASK}${cut ?? ''}`;
}

function maskSpaced(whole: string, quote: string, value: string, offset: number, text: string): string {
  const name = nameAt(text, offset, whole);
  const flag = name.startsWith('-');
  if (!flag && !/[_-]/.test(name)) return whole; // `token expired`: prose
  if (value.startsWith('-') || isPlaceholder(value)) return whole;
  // A flag's password counts whatever it looks like; anything else only when it looks generated.
  if (!(flag && PASSWORD_END_RE.test(name)) && !looksGenerated(value, flag ? 8 : 16)) return whole;
  return `${whole.slice(0, whole.length - value.length - 2 * quote.length)}${quote}${MASK}${quote}`;
}

// CLI_PASSWORD_RE's replacer: the head kept, the password masked, for whichever branch matched.
function maskCliPassword(whole: string, ...groups: unknown[]): string {
  for (let i = 0; i + 1 < CLI_GROUPS; i += 2) {
    const head = groups[i];
    const value = groups[i + 1];
    if (typeof head === 'string' && typeof value === 'string') return isPlaceholder(value.replace(/^["']/, '')) ? whole : head + MASK;
  }
  return whole;
}

// HTPASSWD_RE's replacer: with `-b` among the flags, the password word (the third word, the second with `-n`).
function maskHtpasswd(whole: string, args: string): string {
  const parts = args.split(/([ \t]+)/);
  const words: number[] = [];
  let flags = '';
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as string;
    if (!part || /^[ \t]/.test(part)) continue;
    if (part.startsWith('-') && words.length === 0) {
      flags += part.slice(1);
      // -C COST and -r ROUNDS take a value.
      if (/[Cr]$/.test(part)) i += 2;
    } else words.push(i);
  }
  const at = words[flags.includes('n') ? 1 : 2];
  if (!flags.includes('b') || at === undefined || isPlaceholder((parts[at] as string).replace(/^["']/, ''))) return whole;
  parts[at] = MASK;
  return `htpasswd${parts.join('')}`;
}

// SUDO_STDIN_RE's replacer: the echoed word masked (in its quotes), unless it names one (`$PASS`).
function maskSudoStdin(whole: string, head: string, value: string): string {
  const quote = /^["']/.test(value) ? (value[0] as string) : '';
  const inner = quote ? value.slice(1, -1) : value;
  return isPlaceholder(inner) ? whole : `${head}${quote}${MASK}${quote}`;
}

// PGPASS_RE's replacer: masked when the host before it starts a line, a word or a quoted string, and has a
// letter (a name, `localhost`) or is `*` or an IPv4 address.
function maskPgpass(whole: string, password: string, offset: number, text: string): string {
  let start = offset;
  while (start > 0 && offset - start < 254 && /[\w.*-]/.test(text[start - 1] as string)) start--;
  const host = text.slice(start, offset);
  const before = text.slice(Math.max(0, start - 2), start);
  if (!host || !(start === 0 || /[\s"'>=]$/.test(before) || before === '\\n')) return whole;
  if (!/[A-Za-z*]/.test(host) && !/^\d{1,3}(?:\.\d{1,3}){3}$/.test(host)) return whole;
  if (isPlaceholder(password)) return whole;
  return whole.slice(0, whole.length - password.length) + MASK;
}

// The shapes of issue 40 (above), each run only when its literal is in the text.
function maskPastedShapes(text: string): string {
  let out = text;
  if (out.includes(' login')) out = out.replace(DOCKER_LOGIN_RE, (whole, head: string, value: string) => (isPlaceholder(value.replace(/^["']/, '')) ? whole : whole.slice(0, whole.length - head.length - value.length) + head + MASK));
  if (out.includes(',')) out = out.replace(KEYPAIR_RE, MASK);
  if (out.includes('nemonic') || out.includes('NEMONIC') || out.includes('hrase') || out.includes('HRASE')) out = out.replace(SEED_PHRASE_RE, (whole, words: string) => whole.slice(0, whole.length - words.length) + MASK);
  if (out.includes('Key=')) out = out.replace(AZURE_KEY_RE, 'Key=' + MASK);
  if (out.includes('sig=')) out = out.replace(SAS_SIG_RE, (whole, head: string) => head + MASK);
  if (out.includes('password')) out = out.replace(NETRC_RE, (whole, head: string, value: string) => (isPlaceholder(value) ? whole : head + MASK));
  if (out.includes('htpasswd')) out = out.replace(HTPASSWD_RE, maskHtpasswd);
  if (out.includes('sudo')) out = out.replace(SUDO_STDIN_RE, maskSudoStdin);
  out = out.replace(PGPASS_RE, maskPgpass);
  if (out.includes('Private-')) out = out.replace(PUTTY_LINES_RE, (whole, head: string, sep: string) => `${head}${sep}${MASK}`).replace(PUTTY_MAC_RE, (whole, head: string) => head + MASK);
  return out;
}

// A known token's start right before a cut mark: masked, the mark kept.
function maskCutEdges(text: string): string {
  let out = '';
  let last = 0;
  for (const m of text.matchAll(CUT_MARK_RE)) {
    const at = m.index;
    let start = at;
    const min = Math.max(last, at - 300);
    while (start > min && !/[\s…"'`]/.test(text[start - 1] as string)) start--;
    const hit = start < at ? CUT_TOKEN_RE.exec(text.slice(start, at)) : null;
    if (!hit) continue;
    out += text.slice(last, start + hit.index) + MASK;
    last = at;
  }
  return last === 0 ? text : out + text.slice(last);
}

/** The text with every known secret shape replaced by `[secret]`. */
export function maskSecrets(text: string): string {
  if (!text) return text;
  let out = text;
  if (out.includes('PRIVATE KEY')) out = out.replace(PRIVATE_KEY_RE, MASK);
  out = out.replace(PREFIXED_RE, MASK);
  for (const { re, hint } of HINTED) if (out.includes(hint)) out = out.replace(re, MASK);
  if (out.includes('://')) out = out.replace(URL_PASSWORD_RE, maskUrlPassword);
  if (/uthorization/i.test(out)) out = out.replace(AUTH_HEADER_RE, (whole, head: string, value: string) => (isPlaceholder(value) || AUTH_SCHEMES.has(value.toLowerCase()) ? whole : head + MASK));
  if (out.includes('earer')) out = out.replace(BEARER_RE, (whole, head: string, value: string) => (looksGenerated(value, 12) ? head + MASK : whole));
  if (CLI_HINT_RE.test(out)) out = out.replace(CLI_PASSWORD_RE, maskCliPassword);
  out = maskPastedShapes(out);
  out = out.replace(NAMED_VALUE_RE, maskNamedValue);
  if (out.includes('…') || out.includes('...')) out = maskCutEdges(out);
  return out;
}
