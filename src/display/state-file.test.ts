import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { liveStateInit } from '../../test/helpers/live-state.js';
import { readLiveStates, STATE_WRITE_COALESCE_MS, stateFilePath, StateWriter } from './state-file.js';

let dir: string;
beforeEach(() => {
  dir = join(mkdtempSync(join(tmpdir(), 'rw-state-')), 'state');
});
afterEach(() => {
  vi.useRealTimers();
  rmSync(join(dir, '..'), { recursive: true, force: true });
});

const base = (pid: number) => liveStateInit({ pid, tmuxPane: '%1', stateSince: '2026-11-22T00:00:00Z' });

describe('state files', () => {
  it('writes at once, with 0700 folder and 0600 file, coalesces updates, and removes on exit', () => {
    // The coalescing window is a timer: fake timers step through it exactly, however loaded the box.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const w = new StateWriter(dir, base(process.pid));
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(w.file).mode & 0o777).toBe(0o600);
    w.update({ state: 'working' });
    w.update({ lastRecap: { line: 'recap: x', stamp: 's', createdAt: 'now' } });
    expect(JSON.parse(readFileSync(w.file, 'utf8')).state).toBe('idle'); // not yet: coalesced
    vi.advanceTimersByTime(STATE_WRITE_COALESCE_MS - 1);
    expect(JSON.parse(readFileSync(w.file, 'utf8')).state).toBe('idle'); // still within the window
    vi.advanceTimersByTime(1);
    expect(JSON.parse(readFileSync(w.file, 'utf8'))).toMatchObject({ state: 'working', lastRecap: { line: 'recap: x' }, version: 1 });
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    w.remove();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('reads live wrappers, skips corrupt files with a warning, and prunes dead pids', async () => {
    new StateWriter(dir, base(process.pid));
    writeFileSync(join(dir, 'live-12.json'), '{broken');
    const dead = spawn('true');
    await new Promise((r) => dead.on('exit', r));
    new StateWriter(dir, base(dead.pid!)).flush();
    const warnings: string[] = [];
    const states = readLiveStates(dir, { prune: true, warn: (m) => warnings.push(m) });
    expect(states.map((s) => s.pid)).toEqual([process.pid]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('live-12.json');
    expect(() => statSync(stateFilePath(dir, dead.pid!))).toThrow();
    expect(readLiveStates(join(dir, 'none'))).toEqual([]);
  });

  it('reads back the attention mark a wrapper wrote; a mark of another shape reads as none', () => {
    const w = new StateWriter(dir, base(process.pid));
    w.update({ attention: { event: 'done', since: '2026-11-22T10:00:00Z' } });
    w.flush();
    expect(readLiveStates(dir)[0]?.attention).toEqual({ event: 'done', since: '2026-11-22T10:00:00Z' });
    for (const odd of [{ event: 'bored', since: '2026-11-22T10:00:00Z' }, { event: 'error' }, 'done', null]) {
      writeFileSync(w.file, JSON.stringify({ ...JSON.parse(readFileSync(w.file, 'utf8')), attention: odd }));
      expect(readLiveStates(dir)[0]?.attention).toBeNull();
    }
    w.remove();
  });
});
