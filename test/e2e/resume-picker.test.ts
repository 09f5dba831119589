// #43.4: `resume --all` on a terminal was a numbered list of two lines a session, longer than the pane,
// with "Enter = 1". Now it is the popup's arrow-key picker: type to filter, ↑↓, Enter resumes that
// session (a fake `pi` on PATH records how it was started); Esc leaves and runs nothing.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePiCwd } from '../../src/transcripts/pi/paths.js';
import { VirtualTerminal } from '../fakes/virtual-terminal.js';
import { assertBuilt, runCliInPty } from '../helpers/cli-pty.js';
import { shellQuote } from '../helpers/tmux.js';

let root: string;
let home: string;
let bin: string;
let argvFile: string;
const files: string[] = [];
const COLS = 100;
const ROWS = 30;

function writePi(project: string, id: string, minute: number, prompt: string): string {
  const dir = join(home, '.pi', 'agent', 'sessions', encodePiCwd(project));
  mkdirSync(dir, { recursive: true });
  mkdirSync(project, { recursive: true });
  const t = (s: number) => new Date(Date.UTC(2026, 10, 22, 8, minute, s)).toISOString();
  const lines = [
    { type: 'session', version: 3, id, timestamp: t(0), cwd: project },
    { type: 'message', id: 'a1', parentId: null, timestamp: t(1), message: { role: 'user', content: [{ type: 'text', text: prompt }], timestamp: 1 } },
    { type: 'message', id: 'a2', parentId: 'a1', timestamp: t(2), message: { role: 'assistant', content: [{ type: 'text', text: 'Done.' }], provider: 'x', model: 'y', stopReason: 'stop', timestamp: 2 } },
  ];
  const file = join(dir, `${t(0).replace(/[:.]/g, '-')}_${id}.jsonl`);
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return file;
}

const env = () => ({ HOME: home, XDG_STATE_HOME: join(home, 'state'), XDG_CONFIG_HOME: join(home, 'config'), RECAPWRAP_STATE_DIR: join(home, 'state', 'recapwrap'), PATH: `${bin}:${process.env.PATH}` });

beforeAll(() => {
  assertBuilt();
  root = mkdtempSync(join(tmpdir(), 'rw-resume-picker-'));
  home = join(root, 'home');
  bin = join(root, 'bin');
  argvFile = join(root, 'argv.txt');
  mkdirSync(bin, { recursive: true });
  const topics = ['fix the invoices foreign key', 'add pagination to the orders list', 'write the release notes', 'rename the payment provider module'];
  for (let i = 0; i < 24; i++) files.push(writePi(join(root, `proj${i}`), `${String(i).padStart(2, '0')}a0c1e2-1111-4222-8333-444455556666`, i, `${topics[i % topics.length]} ${i}`));
  writeFileSync(join(bin, 'pi'), `#!/bin/sh\n{ pwd; printf '%s\\n' "$@"; } > ${shellQuote(argvFile)}\n`);
  chmodSync(join(bin, 'pi'), 0o755);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('resume --all on a terminal (#43.4)', () => {
  it('is the arrow-key picker: type to filter, ↓, Enter resumes that session; it fits the pane', async () => {
    const t = runCliInPty(['resume', '--all'], { cols: COLS, rows: ROWS, cwd: root, env: env() });
    await t.waitFor('Enter resume', { timeoutMs: 20_000 });
    expect(t.output()).not.toContain('resume which?');
    const screen = new VirtualTerminal(COLS, ROWS);
    await screen.write(Buffer.from(t.output(), 'latin1').toString('utf8'));
    const rows = Array.from({ length: ROWS }, (_, i) => screen.row(i));
    screen.dispose();
    expect(rows.filter((r) => /\bpi · proj\d+ · /.test(r)).length, rows.join('\n')).toBeGreaterThan(3); // sessions listed
    expect(rows.findIndex((r) => r.includes('Enter resume'))).toBeLessThan(ROWS); // the keys line on screen
    const seen = t.output().length;
    t.write('release notes');
    await t.waitFor(' 6 sessions ', { from: seen, timeoutMs: 10_000 }); // 2, 6, 10, 14, 18, 22, newest first
    t.write('\x1b[B'); // ↓: the second match (release notes 18)
    t.write('\r');
    expect((await t.exit).exitCode).toBe(0);
    const [cwd, ...argv] = readFileSync(argvFile, 'utf8').trim().split('\n');
    expect(cwd).toBe(join(root, 'proj18'));
    expect(argv).toEqual(['--session', files[18]]);
  });

  it('Esc leaves and runs nothing', async () => {
    rmSync(argvFile, { force: true });
    const t = runCliInPty(['resume', '--all'], { cols: COLS, rows: ROWS, cwd: root, env: env() });
    await t.waitFor('Enter resume', { timeoutMs: 20_000 });
    t.write('\x1b');
    expect((await t.exit).exitCode).toBe(0);
    expect(existsSync(argvFile)).toBe(false);
  });
});
