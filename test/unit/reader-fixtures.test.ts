// The reader fixtures (test/fixtures/transcripts/<agent>/reader/, README there) hold what their README
// says, and the helpers of test/helpers/hostile-transcripts.ts make the files the hostile tests read.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AGENT_CLIS, type AgentCli } from '../helpers/agent-cli.js';
import { FAKE_SECRETS, hostileTranscript, READER_SESSIONS, writeHugeLineTranscript } from '../helpers/hostile-transcripts.js';
import { TRANSCRIPTS_DIR } from '../helpers/shared.js';

const AGENTS = Object.keys(AGENT_CLIS) as AgentCli[];
const dir = mkdtempSync(join(tmpdir(), 'rw-reader-fixtures-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const lines = (text: string) => text.split('\n').filter((l) => l.trim() !== '');
const records = (text: string) => lines(text).map((l) => JSON.parse(l) as unknown);

describe.each(AGENTS)('%s reader fixtures', (agent) => {
  const session = readFileSync(join(TRANSCRIPTS_DIR, agent, READER_SESSIONS[agent]), 'utf8');

  it('the real session is JSONL, small, and holds an edit, the checks, the failing command and markdown', () => {
    expect(() => records(session)).not.toThrow();
    expect(session.length).toBeLessThan(150_000);
    for (const needle of ['check 3: ok', 'missing-dir', 'Release plan', '| step | file | lines |', '```md']) expect(session).toContain(needle);
  });

  it('hostile.jsonl keeps the shapes and holds every payload; hostileTranscript() puts the fake secrets in', () => {
    const committed = readFileSync(join(TRANSCRIPTS_DIR, agent, 'reader', 'hostile.jsonl'), 'utf8');
    expect(records(committed)).toHaveLength(records(session).length);
    // No whole token in the repository: placeholders only.
    expect(committed).not.toMatch(/ghp_[A-Za-z0-9]{36}|AKIA[A-Z0-9]{16}|sk-ant-api03-[A-Za-z0-9]{20}/);
    const text = readFileSync(hostileTranscript(agent, dir), 'utf8');
    const strings = JSON.stringify(records(text));
    for (const payload of ['\\u001b[2J', '\\u001b]52;c;', '\\u001b]0;', '\u202E', '\u2066', '<script>alert(1)</script>', '</script>', '<img src=x onerror=alert(1)>', '](javascript:alert(1))']) {
      expect(strings).toContain(payload);
    }
    for (const secret of Object.values(FAKE_SECRETS)) expect(text).toContain(secret);
    expect(text).not.toContain('FAKE_SECRET_');
  });
});

describe('writeHugeLineTranscript', () => {
  it.each(AGENTS)('%s: one line of over 10 MB in the agent format, every line JSON', (agent) => {
    const file = writeHugeLineTranscript(agent, dir);
    const all = lines(readFileSync(file, 'utf8'));
    expect(() => all.map((l) => JSON.parse(l) as unknown)).not.toThrow();
    expect(Math.max(...all.map((l) => l.length))).toBeGreaterThan(10 * 1024 * 1024);
    expect(statSync(file).size).toBeLessThan(12 * 1024 * 1024);
    rmSync(file);
  });
});
