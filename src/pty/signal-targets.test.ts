import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { readForegroundGroup, signalTargets, spawnPty } from './pty-process.js';
import { pollUntil } from '../../test/helpers/poll.js';

describe('signalTargets', () => {
  it('sends to the child process group, not just its pid', () => {
    expect(signalTargets(100, 'SIGTERM', undefined)).toEqual([-100]);
    expect(signalTargets(100, 'SIGTERM', 100)).toEqual([-100]);
    expect(signalTargets(100, 'SIGINT', undefined)).toEqual([-100]);
  });

  it('sends keyboard signals only to the foreground group, as Ctrl-C would', () => {
    expect(signalTargets(100, 'SIGINT', 250)).toEqual([-250]);
    expect(signalTargets(100, 'SIGQUIT', 250)).toEqual([-250]);
  });

  it('sends SIGTERM and SIGHUP to the child group and a different foreground group both', () => {
    expect(signalTargets(100, 'SIGHUP', 250)).toEqual([-100, -250]);
    expect(signalTargets(100, 'SIGTERM', 250)).toEqual([-100, -250]);
  });
});

describe.skipIf(process.platform !== 'linux')('readForegroundGroup', () => {
  it('reads tpgid from /proc, and says nothing for a process without a terminal or a pid that is gone', async () => {
    // No controlling terminal (setsid via detached): tpgid is -1.
    const child = spawn('sleep', ['5'], { detached: true, stdio: 'ignore' });
    const pid = child.pid as number;
    expect(readForegroundGroup(pid)).toBeUndefined();
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(readForegroundGroup(pid)).toBeUndefined();
    expect(readForegroundGroup(2 ** 22 + 12345)).toBeUndefined();
  });

  it('is the child itself on a fresh pty (a session leader in the foreground of its terminal)', async () => {
    const pty = spawnPty('sleep', ['5'], { cols: 80, rows: 24, cwd: process.cwd(), env: { PATH: process.env.PATH } });
    const exited = new Promise((resolve) => pty.onExit(resolve));
    // The forked child sets up its terminal before exec: ask until it has.
    const group = await pollUntil(() => readForegroundGroup(pty.pid), { timeoutMs: 2000, intervalMs: 10, description: "the pty's foreground group" });
    expect(group).toBe(pty.pid);
    pty.kill('SIGTERM');
    expect(await exited).toEqual({ exitCode: 0, signal: 15 });
  });
});
