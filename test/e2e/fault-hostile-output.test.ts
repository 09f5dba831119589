// #19 point 4: every text output of every command, fed hostile transcripts and state files, reaches stdout
// with no ESC, C0, C1, bidi or zero-width character. The hostile text is what a prompt-injected model can
// choose (tool names, written paths, model names, entry ids) plus what a folder name can hold.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, CLI_BIN } from '../helpers/cli-pty.js';
import { liveState, writeLiveState } from '../helpers/live-state.js';
import { findUnsafe } from '../helpers/terminal-safe.js';

// OSC 52 (clipboard) and OSC 0 (title) in 7-bit form, then 8-bit CSI/OSC, RLO, zero-width, soft hyphen, BOM, NEL, tags.
const H = '\u001b]52;c;cHduZWQ=\u0007\u001b]0;PWN\u0007x\u009b31m\u202eevil\u200b\u2066\u00ad\ufeff\u0085\u009d0;t\u009c\u{e0041}\u200dz';
// A folder name cannot hold '/' or NUL; everything else goes.
const H_DIR = 'proj\u001b]0;PWN\u0007\u009b2J\u202e\u200b';

let dir: string;
let work: string;
let piDir: string;
let stateDir: string;
let sessionFile: string;

function hostilePiTranscript(cwd: string): string {
  const ts = Date.parse('2026-11-22T08:00:00Z');
  const iso = (n: number) => new Date(ts + n * 1000).toISOString();
  const lines: unknown[] = [
    { type: 'session', version: 3, id: `sess${H}`, timestamp: iso(0), cwd },
    { type: 'session_info', id: `i${H}`, parentId: null, timestamp: iso(1), name: `title ${H}` },
    { type: 'model_change', id: `m${H}`, parentId: `i${H}`, timestamp: iso(2), provider: `prov${H}`, modelId: `model${H}` },
    { type: 'message', id: `u${H}`, parentId: `m${H}`, timestamp: iso(3), message: { role: 'user', content: [{ type: 'text', text: `fix ${H} please` }], timestamp: ts + 3000 } },
    {
      type: 'message',
      id: `a${H}`,
      parentId: `u${H}`,
      timestamp: iso(4),
      message: {
        role: 'assistant',
        model: `model${H}`,
        content: [
          { type: 'text', text: `I will write ${H}` },
          { type: 'toolCall', id: `c1${H}`, name: 'write', arguments: { path: `src/${H}.ts`, content: H } },
          { type: 'toolCall', id: `c2${H}`, name: `tool${H}`, arguments: { command: `echo ${H}` } },
        ],
        stopReason: 'toolUse',
        timestamp: ts + 4000,
      },
    },
    { type: 'message', id: `r${H}`, parentId: `a${H}`, timestamp: iso(5), message: { role: 'toolResult', toolCallId: `c1${H}`, toolName: 'write', content: [{ type: 'text', text: `wrote ${H}` }], isError: false } },
    { type: 'message', id: `f${H}`, parentId: `r${H}`, timestamp: iso(6), message: { role: 'assistant', content: [{ type: 'text', text: `Done: ${H}. Next: run ${H} tests?` }], stopReason: 'stop', timestamp: ts + 6000 } },
  ];
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}

function cli(args: string[], cwd = work) {
  const r = spawnSync(process.execPath, [CLI_BIN, ...args], {
    encoding: 'utf8',
    cwd,
    env: { ...process.env, PI_CODING_AGENT_DIR: piDir, RECAPWRAP_STATE_DIR: stateDir, TMUX: '', TMUX_PANE: '', NO_COLOR: '1', COLUMNS: '200' },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

beforeAll(() => {
  assertBuilt();
  dir = mkdtempSync(join(tmpdir(), 'rw-hostile-'));
  work = join(dir, H_DIR);
  mkdirSync(work);
  piDir = join(dir, 'pi');
  stateDir = join(dir, 'state');
  mkdirSync(stateDir, { mode: 0o700 });
  const sessions = join(piDir, 'sessions', `--${work.replace(/^\//, '').replace(/[/\\:]/g, '-')}--`);
  mkdirSync(sessions, { recursive: true });
  sessionFile = join(sessions, '2026-11-22T08-00-00-000Z_hostile.jsonl');
  writeFileSync(sessionFile, hostilePiTranscript(work));
  // A live wrapper's state as a hostile one could leave it (this test process stands in for the live pid).
  writeLiveState(stateDir, {
    ...liveState({
      agent: `pi${H}`,
      command: `pi${H}`,
      cwd: work,
      sessionFile,
      sessionId: `sess${H}`,
      tmuxPane: `%1${H}`,
      lastRecap: { line: `recap: ${H} Next: ${H}`, stamp: `s${H}`, createdAt: new Date().toISOString() },
    }),
    state: `idle${H}`, // not a state recapwrap writes: a hostile file may hold anything
  });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('no command prints terminal controls from hostile transcripts and state (#19 point 4)', () => {
  const cases: Array<[string, () => string[]]> = [
    ['transcript', () => ['transcript', sessionFile]],
    ['transcript --json', () => ['transcript', '--json', sessionFile]],
    ['recap --format line', () => ['recap', '--session', sessionFile, '--generator', 'heuristic', '--format', 'line']],
    ['recap --format card', () => ['recap', '--session', sessionFile, '--generator', 'heuristic', '--format', 'card']],
    ['recap --format json', () => ['recap', '--session', sessionFile, '--generator', 'heuristic', '--format', 'json']],
    ['recap --agent pi (newest session of this folder)', () => ['recap', '--agent', 'pi', '--generator', 'heuristic', '--format', 'card']],
    ['ls', () => ['ls']],
    ['ls --json', () => ['ls', '--json']],
    ['status', () => ['status']],
    ['status --format tmux', () => ['status', '--format', 'tmux']],
    ['resume --list', () => ['resume', '--list', '--agent', 'pi']],
    ['resume --json', () => ['resume', '--json', '--agent', 'pi']],
  ];
  for (const [name, args] of cases) {
    it(name, () => {
      const r = cli(args());
      expect(r.code, r.err).toBe(0);
      expect(r.out.length, `${name} printed nothing: ${r.err}`).toBeGreaterThan(0);
      expect(findUnsafe(r.out), r.out).toEqual([]);
      expect(findUnsafe(r.err), r.err).toEqual([]);
      // The data is still there, only made harmless: JSON keeps it whole (escaped), text keeps the visible part.
      if (name.includes('json')) expect(JSON.stringify(JSON.parse(r.out))).toContain('\u202e');
      else expect(r.out).toMatch(/evil/);
    });
  }
});
