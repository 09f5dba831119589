import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { liveState } from '../../test/helpers/live-state.js';
import { pruneStaleEntries } from './stale-state.js';

let dir: string;
let state: string;
let run: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rw-stale-'));
  state = join(dir, 'state');
  run = join(dir, 'run');
  mkdirSync(join(state, 'claims'), { recursive: true, mode: 0o700 });
  mkdirSync(run, { mode: 0o700 });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

// A pid that is surely gone: a child that has exited and been reaped.
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((r) => child.on('exit', r));
  return child.pid as number;
}

const live = (pid: number, socketPath: string | null = null) => JSON.stringify(liveState({ pid, cwd: '/x', socketPath }));

describe('pruneStaleEntries (#19 point 9)', () => {
  it('removes the live file, socket, claim and temp files of a dead wrapper, and keeps a live one', async () => {
    const dead = await deadPid();
    writeFileSync(join(state, `live-${dead}.json`), live(dead, join(run, `${dead}.sock`)));
    writeFileSync(join(run, `${dead}.sock`), ''); // what a SIGKILLed wrapper leaves: a socket file nobody listens on
    writeFileSync(join(state, 'claims', 'aaaa'), JSON.stringify({ pid: dead, file: '/f' }));
    writeFileSync(join(state, 'claims', `.${dead}-abcdef`), '{}');
    writeFileSync(join(state, `live-${dead}.json.${dead}.tmp`), '{');
    writeFileSync(join(state, `live-${process.pid}.json`), live(process.pid));
    writeFileSync(join(state, 'claims', 'bbbb'), JSON.stringify({ pid: process.pid, file: '/g' }));
    const { removed } = await pruneStaleEntries(state, [run]);
    expect(removed.map((p) => p.slice(dir.length)).sort()).toEqual(
      [`/run/${dead}.sock`, `/state/claims/.${dead}-abcdef`, '/state/claims/aaaa', `/state/live-${dead}.json`, `/state/live-${dead}.json.${dead}.tmp`].sort(),
    );
    expect(existsSync(join(state, `live-${process.pid}.json`))).toBe(true);
    expect(existsSync(join(state, 'claims', 'bbbb'))).toBe(true);
  });

  it.skipIf(!existsSync('/proc/self/stat'))('treats a pid reused by a newer process as stale (start time after the file)', async () => {
    // Our own pid is alive, but pretend the files were written long before this process started.
    const old = new Date(Date.now() - 3600_000);
    const file = join(state, `live-${process.pid}.json`);
    writeFileSync(file, live(process.pid));
    utimesSync(file, old, old);
    const claim = join(state, 'claims', 'cccc');
    writeFileSync(claim, JSON.stringify({ pid: process.pid, file: '/h' }));
    utimesSync(claim, old, old);
    const { removed } = await pruneStaleEntries(state, [run]);
    expect(removed).toEqual(expect.arrayContaining([file, claim]));
  });

  it('removes a live wrapper entry whose socket refuses, keeps one whose socket answers', async () => {
    // The parent of this process is alive and not us: it stands for another wrapper.
    const other = process.ppid;
    const answering = join(run, 'answering.sock');
    const server = createServer((s) => s.end());
    await new Promise<void>((r) => server.listen(answering, () => r()));
    writeFileSync(join(state, `live-${other}.json`), live(other, answering));
    expect((await pruneStaleEntries(state, [run])).removed).toEqual([]);
    await new Promise<void>((r) => server.close(() => r()));
    writeFileSync(answering, ''); // a plain file: not a socket, nothing to probe
    expect((await pruneStaleEntries(state, [run])).removed).toEqual([]);
    rmSync(answering);
    // A listener SIGKILLed leaves its socket file behind, refusing connections.
    const child = spawn(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(answering)}, () => process.kill(process.pid, 'SIGKILL'))`]);
    await new Promise((r) => child.on('exit', r));
    expect(existsSync(answering)).toBe(true);
    const { removed } = await pruneStaleEntries(state, [run]);
    expect(removed).toEqual(expect.arrayContaining([join(state, `live-${other}.json`), answering]));
  });

  it('leaves a folder that is not private alone, and never follows a linked claims folder', async () => {
    const dead = await deadPid();
    const elsewhere = join(dir, 'elsewhere');
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, 'dddd'), JSON.stringify({ pid: dead, file: '/x' }));
    rmSync(join(state, 'claims'), { recursive: true });
    symlinkSync(elsewhere, join(state, 'claims'));
    await pruneStaleEntries(state, [run]);
    expect(existsSync(join(elsewhere, 'dddd'))).toBe(true);
  });
});
