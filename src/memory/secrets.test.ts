import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { maskSecrets } from './secrets.js';

// maskSecrets over each text in a worker thread (this module, which imports nothing, compiled on the spot):
// 'done', or 'stopped' when it had not returned by the deadline.
async function maskInWorker(texts: string[], deadlineMs: number): Promise<'done' | 'stopped'> {
  const source = ts.transpileModule(readFileSync(new URL('./secrets.ts', import.meta.url), 'utf8'), { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
  const code = `const exports = {};\n${source}\nconst { parentPort, workerData } = require('node:worker_threads');\nfor (const t of workerData) exports.maskSecrets(t);\nparentPort.postMessage('done');`;
  const worker = new Worker(code, { eval: true, workerData: texts });
  try {
    return await new Promise((resolve, reject) => {
      const timer = setTimeout(() => resolve('stopped'), deadlineMs);
      worker.once('message', () => {
        clearTimeout(timer);
        resolve('done');
      });
      worker.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
  } finally {
    await worker.terminate();
  }
}

// Fake tokens of each shape, made here so that no file of the repository holds one whole.
let seed = 7;
function gen(length: number, chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    out += chars[seed % chars.length];
  }
  // Every generated token has a digit and both cases when its alphabet has them.
  return out;
}
const HEX = '0123456789abcdef';
const UPPER_NUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const LOWER_NUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
const BASIC = gen(24);
const BEARER = gen(30);

// [gitleaks rule id(s), text with the secret, the secret, a near miss that stays as it is]
const SHAPES: Array<[string, string, string, string]> = [
  ['openai-api-key', `key sk-proj-${gen(40)}9 ok`, 'sk-proj-', 'use sk-learn-compatible-interfaces here'],
  ['anthropic-api-key', `export K=sk-ant-api03-${gen(93)}AA`, 'sk-ant-api03-', 'sk-short stays'],
  ['stripe-access-token', `stripe sk_live_${gen(24)}`, 'sk_live_', 'the sk_live_ prefix'],
  ['github-pat', `token ghp_${gen(36)} here`, 'ghp_', 'ghp_short is a word'],
  ['github-fine-grained-pat', `github_pat_11${gen(20)}_${gen(59)}`, 'github_pat_', 'github_pat_ is the prefix'],
  ['gitlab-pat', `glpat-${gen(20)}`, 'glpat-', 'glpat-short'],
  ['gitlab-ptt', `glptt-${gen(40, HEX)}`, 'glptt-', 'glptt-zz'],
  ['gitlab-rrt', `GR1348941${gen(20)}`, 'GR1348941', 'GR1348941 alone'],
  ['aws-access-token', `AKIA${gen(16, UPPER_NUM)} is the id`, 'AKIA', 'AKIAshort and ASIA trips'],
  ['aws-amazon-bedrock-api-key-long-lived', `ABSK${gen(120)}`, 'ABSK', 'ABSK123'],
  ['gcp-api-key (ending in -)', `AIza${gen(34)}- next`, 'AIza', 'AIzaShort'],
  ['slack-bot-token', `xoxb-${gen(12, '0123456789')}-${gen(12, '0123456789')}-${gen(24)}`, 'xoxb-', 'xoxb- alone'],
  ['slack-app-token', `xapp-1-A${gen(10, UPPER_NUM)}-${gen(13, '0123456789')}-${gen(64, LOWER_NUM)}`, 'xapp-1-', 'xapp-is-short'],
  ['slack-webhook-url', `https://hooks.slack.com/services/T${gen(8, UPPER_NUM)}/B${gen(8, UPPER_NUM)}/${gen(24)}`, 'hooks.slack.com/services/T', 'see https://hooks.slack.com/ for hooks'],
  ['microsoft-teams-webhook', `https://acme.webhook.office.com/webhookb2/${gen(8, HEX)}-aaaa-bbbb-cccc-${gen(12, HEX)}@x/IncomingWebhook/${gen(32, HEX)}/y`, 'webhookb2/', 'the webhook.office.com host'],
  ['jwt', `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.${gen(43)}`, 'eyJzdWIiOiIxMjM0NTY3ODkwIn0', 'eyJ alone and a.b.c'],
  ['jwt-base64', `ZXlK${gen(60)}`, 'ZXlK', 'ZXlKshort'],
  ['grafana-cloud-api-token', `glc_${gen(40)}`, 'glc_', 'glc_x'],
  ['grafana-service-account-token', `glsa_${gen(32)}_${gen(8, HEX)}`, 'glsa_', 'glsa_x'],
  ['huggingface-access-token', `hf_${gen(34)}`, 'hf_', 'hf_hub_download'],
  ['npm-access-token', `npm_${gen(36)}`, 'npm_', 'npm_config_cache'],
  ['pypi-upload-token', `pypi-AgEIcHlwaS5vcmc${gen(60)}`, 'pypi-AgEI', 'pypi-simple'],
  ['rubygems-api-token', `rubygems_${gen(48, HEX)}`, 'rubygems_', 'rubygems_version'],
  ['1password-secret-key', `A3-${gen(6, UPPER_NUM)}-${gen(11, UPPER_NUM)}-${gen(5, UPPER_NUM)}-${gen(5, UPPER_NUM)}-${gen(5, UPPER_NUM)}`, 'A3-', 'A3-size paper'],
  ['age-secret-key', `AGE-SECRET-KEY-1${gen(58, 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L')}`, 'AGE-SECRET-KEY-1', 'AGE-SECRET-KEY-1 header'],
  ['databricks-api-token', `dapi${gen(32, HEX)}`, 'dapi', 'dapi-client'],
  ['digitalocean-pat', `dop_v1_${gen(64, HEX)}`, 'dop_v1_', 'dop_v1_short'],
  ['linear-api-key', `lin_api_${gen(40)}`, 'lin_api_', 'lin_api_x'],
  ['sendgrid-api-token', `SG.${gen(22)}.${gen(43)}`, 'SG.', 'SG.x is a module'],
  ['shopify-access-token', `shpat_${gen(32, HEX)}`, 'shpat_', 'shpat_x'],
  ['twilio-api-key', `SK${gen(32, HEX)}`, 'SK', 'SKU and SK1'],
  ['vault-service-token', `hvs.${gen(100)}`, 'hvs.', 'hvs.x'],
  ['hashicorp-tf-api-token', `${gen(14)}.atlasv1.${gen(64)}`, '.atlasv1.', 'the atlasv1 api'],
  ['telegram-bot-api-token', `bot ${gen(9, '0123456789')}:AA${gen(33)}`, ':AA', 'ratio 16:9 and 12:AB'],
  ['azure-ad-client-secret', `secret ${gen(3)}8Q~${gen(34)}`, 'Q~', 'Q~ in text'],
  ['private-key', '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----', 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ', 'the -----BEGIN PUBLIC KEY----- block'],
  ['curl-auth-user', 'curl -u admin:Sup3rS3cret https://api.example.com', 'Sup3rS3cret', 'curl -u admin https://api.example.com'],
  ['curl-auth-header (Basic)', `curl -H "Authorization: Basic ${BASIC}=" https://x`, BASIC, 'Authorization: Bearer <token>'],
  ['curl-auth-header (Bearer)', `curl -H 'Authorization: Bearer ${BEARER}' https://x`, BEARER, 'uses Bearer authentication'],
  ['generic-api-key (assignment)', 'API_KEY=abcd1234efgh5678', 'abcd1234efgh5678', 'API_KEY=$API_KEY'],
  ['generic-api-key (JSON)', '"db_password": "Tr0ub4dor&3x"', 'Tr0ub4dor&3x', '"password_min_length": 12'],
  ['generic-api-key (spaced)', 'aws configure set aws_secret_access_key wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'wJalrXUtnFEMI', 'the aws_secret_access_key parameter'],
  ['hashicorp-tf-password (short value)', 'password: x', ': x', 'Password: enter it twice'],
  ['nuget-config-password', '<add key="ClearTextPassword" value="hunter2!" />', 'hunter2!', '<add key="Username" value="me" />'],
  ['sidekiq-sensitive-url / URL password (https)', 'git clone https://me:Hunter2pass@example.com/repo.git', 'Hunter2pass', 'https://example.com:8443/path@v2'],
  ['URL password (ssh)', 'ssh://deploy:s3cr3tpw@host.example.com:22', 's3cr3tpw', 'ssh://git@github.com/o/r.git'],
  ['URL password (database)', 'postgres://admin:hunter2hunter2@db.example.com/app', 'hunter2hunter2', 'postgres://localhost:5432/app'],
  ['mysql -p', 'mysql -u root -pS3cretPw mydb', 'S3cretPw', 'mysql -u root -p mydb'],
  ['sshpass -p', 'sshpass -p hunter22 ssh host', 'hunter22', 'sshpass -f file ssh host'],
  ['--password flag', 'psql --password hunter2 -h db', 'hunter2', 'psql --password -h db'],
];

// gen() takes the low bits of its LCG, which repeat fast for an alphabet of 16 or 64 (hex came out
// `0000…0800…`): these take the high bits of an xorshift instead.
let state = 0x9e3779b9;
function draw(length: number, chars: string): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    out += chars[((state >>> 0) >>> 8) % chars.length];
  }
  return out;
}
const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const HEX64 = draw(64, HEX);
const HEX128 = draw(128, HEX);
const BYTES = (n: number, max = 256) => Array.from({ length: n }, () => Number.parseInt(draw(2, HEX), 16) % max).join(',');
const WORDS = 'abandon ability able about above absent absorb abstract absurd abuse access accident account accuse achieve acid acoustic acquire across act action actor actress actual'.split(' ');
const PHRASE = (n: number) => WORDS.slice(0, n).join(' ');

// Issue 40 item 2: a value after a secret's name that looks generated is masked at any length.
// [what, text with the secret, the secret, a near miss that stays as it is]
const NAMED_LONG: Array<[string, string, string, string]> = [
  ['JWT_SECRET= openssl rand -hex 32', `JWT_SECRET=${HEX64}`, HEX64.slice(0, 20), 'TOKEN_TYPE=bearer'],
  ['ENCRYPTION_KEY= 64 hex bytes', `export ENCRYPTION_KEY="${HEX128}"`, HEX128.slice(0, 20), 'ENCRYPTION_KEY=${ENCRYPTION_KEY}'],
  ['secret_key_base: (Rails)', `  secret_key_base: ${HEX128}`, HEX128.slice(40, 60), '  secret_key_base: <%= ENV["SECRET_KEY_BASE"] %>'],
  ['"api_key": a 300-character base64 value', `{"api_key": "${draw(300, B64)}"}`, '"api_key": "[secret]"', '{"api_key_required": true}'],
  ['X-API-Key: base58', `curl -H "X-API-Key: ${draw(88, B58)}" https://x`, 'X-API-Key: [secret]', 'send the X-API-Key: header with each request'],
  ['PRIVATE_KEY=0x…', `PRIVATE_KEY=0x${HEX64}`, HEX64.slice(10, 30), 'PRIVATE_KEY_PATH=./keys/dev.pem'],
  ['PASSWORD=changeme (a default password is one)', 'PASSWORD=changeme', 'changeme', 'PASSWORD=$PASSWORD'],
  ['aws_secret_access_key, spaced, 64 characters', `aws_secret_access_key ${draw(64, B58)}`, 'aws_secret_access_key [secret]', 'the aws_secret_access_key parameter'],
];

// Issue 40 item 3: shapes people paste.
const PASTED: Array<[string, string, string, string]> = [
  ['wallet keypair (id.json)', `cat ~/.config/solana/id.json\n[${BYTES(64)}]`, BYTES(0) + '[secret]', `[${BYTES(32)}] is the public key; [${BYTES(63)},256] is not bytes`],
  ['seed phrase after MNEMONIC (12 words)', `MNEMONIC="${PHRASE(12)}"`, 'abandon ability', `MNEMONIC_WORDS=12 and the mnemonic: ${PHRASE(5)}`],
  ['seed phrase after SEED_PHRASE (24 words)', `SEED_PHRASE: ${PHRASE(24)}`, 'absurd abuse', 'seed_phrase: see the vault'],
  ['Azure AccountKey=', `DefaultEndpointsProtocol=https;AccountName=dev;AccountKey=${draw(86, B64)}==;EndpointSuffix=core.windows.net`, 'AccountKey=[secret];EndpointSuffix', 'AccountName=devstoreaccount1;AccountKey=<key>'],
  ['Azure SAS sig=', `https://dev.blob.core.windows.net/c/f?sv=2022-11-02&se=2026-01-01&sp=r&sig=${draw(43, B64).replace(/\+/g, '%2B').replace(/\//g, '%2F')}%3D`, 'sig=[secret]', 'https://example.com/?sig=on&design=x'],
  ['Discord webhook URL', `https://discord.com/api/webhooks/${draw(19, '0123456789')}/${draw(68, B64.slice(0, 62) + '_-')}`, 'discord.com/api/webhooks/1', 'see https://discord.com/api/webhooks for the docs'],
  ['bare whsec_', `stripe listen: whsec_${draw(32, B58)}`, 'whsec_', 'the whsec_ prefix'],
  ['GOCSPX-', `client_id=x.apps.googleusercontent.com GOCSPX-${draw(28, B58)}`, 'GOCSPX-', 'GOCSPX- is the prefix'],
  ['.netrc password', `machine api.example.com\n  login me@example.com\n  password Pw${draw(10, B58)}`, 'password [secret]', 'log in to the machine with a password; the default password is admin'],
  ['.netrc on one line', `machine github.com login me password ${draw(16, B58)}`, 'password [secret]', 'the machine password is kept in the vault'],
  ['docker login -p', `docker login -u me -p Dk${draw(12, B58)} registry.example.com`, '-p [secret]', 'docker login -u me --password-stdin registry.example.com; docker run -p 8080:80 x'],
  ['htpasswd -b', `htpasswd -bc /etc/nginx/.htpasswd alice Hp${draw(10, B58)}`, 'alice [secret]', 'htpasswd -c /etc/nginx/.htpasswd alice'],
  ['htpasswd -nb', `htpasswd -nbB alice Hp${draw(10, B58)} > users`, 'alice [secret]', 'htpasswd -nB alice'],
  ['.pgpass line', `echo "db.example.com:5432:app:deploy:Pg${draw(12, B58)}" >> ~/.pgpass`, ':deploy:[secret]', 'src/main.go:42:13:warning:unused and localhost:5432:app'],
  ['.pgpass line (* host, * port)', `*:*:*:postgres:Pg${draw(12, B58)}`, 'postgres:[secret]', '12:30:45:1234:56'],
  ['echo X | sudo -S', `echo 'Su${draw(10, B58)}' | sudo -S apt-get update`, "echo '[secret]' | sudo -S", 'echo done | sudo tee /etc/motd; echo "$PASS" | sudo -S true'],
  ['echo X | sudo -k -S', `echo Su${draw(10, B58)} | sudo -k -S whoami`, 'echo [secret] |', 'echo ok | sudo -k whoami'],
  ['PuTTY Private-Lines and Private-MAC', `PuTTY-User-Key-File-3: ssh-ed25519\nPublic-Lines: 2\nAAAAC3NzaC1lZDI1NTE5AAAAI\nPrivate-Lines: 1\n${draw(64, B64)}\nPrivate-MAC: ${HEX64}`, 'Private-Lines: 1\n[secret]\nPrivate-MAC: [secret]', 'Public-Lines: 2\nAAAAC3NzaC1lZDI1NTE5 and the Private-Lines: header counts lines'],
];

describe('maskSecrets: generated values after a secret name, at any length (issue 40)', () => {
  for (const [what, text, secret, nearMiss] of NAMED_LONG) {
    it(`${what}: masked, and its near miss kept`, () => {
      const out = maskSecrets(text);
      expect(out, out).toContain('[secret]');
      if (secret.includes('[secret]')) expect(out, out).toContain(secret);
      else expect(out, out).not.toContain(secret);
      expect(maskSecrets(nearMiss)).toBe(nearMiss);
    });
  }
});

describe('maskSecrets: shapes people paste (issue 40)', () => {
  for (const [what, text, secret, nearMiss] of PASTED) {
    it(`${what}: masked, and its near miss kept`, () => {
      const out = maskSecrets(text);
      if (secret.includes('[secret]')) expect(out, out).toContain(secret);
      else expect(out, out).toContain('[secret]');
      expect(maskSecrets(nearMiss)).toBe(nearMiss);
    });
  }

  it('masks each keypair byte and phrase word, not a neighbour', () => {
    const pair = `[${BYTES(64)}]`;
    expect(maskSecrets(`keypair ${pair} saved`)).toBe('keypair [secret] saved');
    expect(maskSecrets(`MNEMONIC="${PHRASE(12)}" npm run deploy`)).toBe('MNEMONIC="[secret]" npm run deploy');
  });

  it('stays linear on a 10 MB line made to backtrack under the new rules (it ends, or the worker is stopped)', { timeout: 90_000 }, async () => {
    // Under an ambiguous byte (1?\d?\d) an unclosed 63-byte array is 2^63 steps; an ambiguous host or
    // password run is quadratic on 10 MB: either never ends (linear: about a second). Each unit ends unmatched.
    const units = [`[${'11,'.repeat(63)}11 `, 'MNEMONIC: ' + 'abc '.repeat(30) + 'x1 ', 'machine a\\n\\n\\n', 'htpasswd -b a b ', 'echo x x x | sudo ', 'a:5432:b:c:d\\ ', 'Private-Lines: 1\nAAAA\nAAAA\n\\', 'AccountKey=AAAA ', '&sig=AAAA '];
    const line = units.join('').repeat(Math.ceil(10_000_000 / units.join('').length)).replace(/\n/g, ' ');
    expect(line.length).toBeGreaterThanOrEqual(10_000_000);
    const block = units.join('').repeat(Math.ceil(2_000_000 / units.join('').length));
    // In a worker, so that a regex that never returns is stopped (a test timeout cannot stop this thread).
    expect(await maskInWorker([line, block], 60_000)).toBe('done');
  });
});

describe('maskSecrets: the gitleaks shapes taken', () => {
  for (const [id, text, secret, nearMiss] of SHAPES) {
    it(`${id}: masked, and its near miss kept`, () => {
      const out = maskSecrets(text);
      expect(out).toContain('[secret]');
      expect(out, out).not.toContain(secret);
      expect(maskSecrets(nearMiss)).toBe(nearMiss);
    });
  }

  it('keeps only the user and host of a URL with a password', () => {
    expect(maskSecrets('postgres://admin:hunter2hunter2@db.example.com/app')).toBe('postgres://admin:[secret]@db.example.com/app');
    expect(maskSecrets('https://me:pw@example.com')).toBe('https://me:[secret]@example.com');
  });

  it('masks the header value after its scheme, and Authorization values of any scheme', () => {
    const basic = `Authorization: Basic ${gen(20)}`;
    expect(maskSecrets(basic)).toBe('Authorization: Basic [secret]');
    expect(maskSecrets('"Authorization": "Token abcdef123456"')).toBe('"Authorization": "Token [secret]"');
  });

  it('masks a private-key block whole, even unterminated', () => {
    const block = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----';
    expect(maskSecrets(`key:\n${block}\nafter`)).toBe('key:\n[secret]\nafter');
    expect(maskSecrets('-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA')).toBe('[secret]');
    expect(maskSecrets('content="-----BEGIN EC PRIVATE KEY-----\\nMHcCAQEEIBKq\\nAoGCCqGSM49"')).toBe('content="[secret]"');
  });

  it('masks the value of a secret-sounding assignment, keeps the name', () => {
    expect(maskSecrets('API_KEY=abcd1234efgh5678')).toBe('API_KEY=[secret]');
    expect(maskSecrets('"password": "correct horse"')).toBe('"password": "[secret]"'); // a passphrase
    expect(maskSecrets('PGPASSWORD=x psql')).toBe('PGPASSWORD=[secret] psql');
    expect(maskSecrets('{\\"api_key\\": \\"abcd1234efgh5678\\"}')).toBe('{\\"api_key\\": \\"[secret]\\"}');
    expect(maskSecrets('export MY_SERVICE_TOKEN="Zx81kLm0Qp2r"')).toBe('export MY_SERVICE_TOKEN="[secret]"');
  });

  it('leaves names, references and placeholders in code alone', () => {
    for (const text of [
      'const apiKey = options?.apiKey ?? getApiKey(model)',
      'const credentials: OAuthCredentials = {',
      'max_tokens: 4096, token_count = 12',
      'password = request.form["password"]',
      'password = getpass()',
      'OWM_API_KEY=your_openweathermap_api_key',
      'api-key=REDACTED',
      'ZERION_API_KEY=<your-key>',
      'TOKEN_URL = "https://console.example.com/v1/oauth/token"',
      'token_path: ~/.config/app/token.json',
      'secret = config.secret_key',
      'resolveApiKey: getApiKey, apiKey: someVariableName,',
      'VITE_SESSION_KEY=current\\n\\n# Host',
      'postgres://$user:$pass@$host and postgres://{0}:{1}@{2} and postgres://USER:PASSWORD@HOST/DB',
      'the token expired; a tokenizer: bpe',
    ]) expect(maskSecrets(text), text).toBe(text);
  });

  it('leaves ordinary text, paths, git SHAs and UUIDs alone', () => {
    const text = [
      'Fixed the token refresh in src/auth/token.ts; npm test passes (42 tests). sk-short',
      'commit 3f9a1c2e4b5d6f708192a3b4c5d6e7f8091a2b3c and e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      'session 0d5c7a9e-3f1b-4c2d-8e6f-1a2b3c4d5e6f in /home/u/.claude/projects/x/0d5c7a9e.jsonl',
      'Authorization is checked in middleware; the password field is required.',
    ].join('\n');
    expect(maskSecrets(text)).toBe(text);
  });

  it('masks a known token start left at a cut mark, and a value cut short', () => {
    expect(maskSecrets('fix the login with ghp_Ab3dEf6hIj9kLm2nOp5qRs8t…')).toBe('fix the login with [secret]…');
    expect(maskSecrets('args: token="ghp_Ab3dE..."')).toBe('args: token="[secret]..."');
    expect(maskSecrets('export API_KEY=ab1…')).toBe('export API_KEY=[secret]…');
    expect(maskSecrets('git push https://me:hunter…')).toBe('git push https://me:[secret]…');
    expect(maskSecrets('and so on… wait... sk-…')).toBe('and so on… wait... [secret]…');
    expect(maskSecrets('Loading... done… ok')).toBe('Loading... done… ok');
  });

  it('stays linear on text made to backtrack (long runs of names, separators, prefixes)', () => {
    for (const unit of ['a-', 'token_', 'password=', '_key=', 'aws_secret ', 'sk-a', 'https://a:', 'AKIA', 'x.', 'curl -u ', 'mysql -p', 'Authorization: ', 'a…', '-----BEGIN PRIVATE KEY-----', '1,', 'machine a login ', 'mnemonic: abc ', 'a:5432:', 'docker login ', 'echo a | sudo ', 'htpasswd -b ', 'Private-Lines: 1\nA', 'token="', 'sk-sk-']) {
      const text = unit.repeat(Math.ceil(200_000 / unit.length));
      const started = performance.now();
      maskSecrets(text);
      expect(performance.now() - started, unit).toBeLessThan(2000);
    }
  });
});
