import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readLiveStates, stateFilePath, StateWriter, type LiveState } from './state-file.js';

let dir: string;
beforeEach(() => {
  dir = join(mkdtempSync(join(tmpdir(), 'rw-state-')), 'state');
});
afterEach(() => rmSync(join(dir, '..'), { recursive: true, force: true }));

const base = (pid: number): Omit<LiveState, 'version' | 'updatedAt'> => ({
  pid, agent: 'pi', command: 'pi', cwd: '/w', sessionFile: null, sessionId: null, tmuxPane: '%1', state: 'idle',
  stateSince: '2026-11-22T00:00:00Z', lastFocusAt: null, lastRecap: null, socketPath: null, startedAt: new Date().toISOString(),
});

describe('state files', () => {
  it('writes at once, with 0700 folder and 0600 file, coalesces updates, and removes on exit', async () => {
    const w = new StateWriter(dir, base(process.pid));
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(w.file).mode & 0o777).toBe(0o600);
    w.update({ state: 'working' });
    w.update({ lastRecap: { line: 'recap: x', stamp: 's', createdAt: 'now' } });
    expect(JSON.parse(readFileSync(w.file, 'utf8')).state).toBe('idle'); // not yet: coalesced
    await new Promise((r) => setTimeout(r, 300));
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
});
