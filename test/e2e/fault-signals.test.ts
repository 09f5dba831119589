// Faults around the wrapper, through the built CLI on a real outer pty (#19): signals to the wrapper and
// to the child, the child crashing, the terminal going away. Each time: the exit code a shell would
// report, every mode the child left on reset (application cursor keys and keypad included), the child and
// its process group gone, and no state file or socket left behind.
import type { Terminal as HeadlessTerminal } from '@xterm/headless';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORD_INPUT_FIXTURE, runCliInPty, type CliPty } from '../helpers/cli-pty.js';
import { pollUntil } from '../helpers/poll.js';

const { Terminal } = createRequire(import.meta.url)('@xterm/headless') as { Terminal: typeof HeadlessTerminal };

// What a full-screen agent turns on, plus the two modes #19 found left on after SIGTERM: application
// cursor keys (?1h) and the application keypad (ESC =).
const AGENT_MODES = '\\x1b[?1049h\\x1b[?2004h\\x1b[?1002;1006h\\x1b[?25l\\x1b[>1u\\x1b[?1h\\x1b=\\x1b[5 q';

let dir: string;
let binDir: string;
let n = 0;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rw-fault-'));
  binDir = join(dir, 'bin');
  mkdirSync(binDir);
  // `pi` for recapwrap (so the recap machinery runs: state file, socket); the input fixture underneath,
  // which ignores pi's --session flag.
  const pi = join(binDir, 'pi');
  writeFileSync(pi, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(RECORD_INPUT_FIXTURE)} "$@"\n`);
  chmodSync(pi, 0o755);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  t: CliPty;
  stateDir: string;
  childPid: number;
}

// `recapwrap pi --print AGENT_MODES …`, with its own state folder; resolves once the child runs and
// the wrapper's live state file exists.
async function startAgent(fixtureArgs: string[] = []): Promise<Run> {
  const home = join(dir, `run-${n++}`);
  const stateDir = join(home, 'state');
  mkdirSync(home, { recursive: true });
  const t = runCliInPty(['pi', '--print', AGENT_MODES, ...fixtureArgs], {
    cwd: home,
    env: {
      PATH: `${binDir}:${process.env.PATH}`,
      HOME: home,
      TMUX: undefined,
      TMUX_PANE: undefined,
      PI_CODING_AGENT_DIR: join(home, 'pi-agent'),
      RECAPWRAP_STATE_DIR: stateDir,
      RECAPWRAP_DISPLAY: 'none',
      RECAPWRAP_DEBUG_LOG: join(home, 'debug.log'),
    },
  });
  await t.waitFor('READY');
  await pollUntil(() => liveFiles(stateDir).some((f) => f.startsWith('live-')), { description: 'the live state file' });
  const log = readFileSync(join(home, 'debug.log'), 'utf8');
  const childPid = Number(/"childPid":(\d+)/.exec(log)?.[1]);
  expect(childPid).toBeGreaterThan(0);
  return { t, stateDir, childPid };
}

// Files of this wrapper in the state folder (live-<pid>.json, sockets), not the folders themselves.
function liveFiles(stateDir: string): string[] {
  try {
    return readdirSync(stateDir, { recursive: true, withFileTypes: true })
      .filter((e) => !e.isDirectory())
      .map((e) => e.name);
  } catch {
    return [];
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// The terminal's modes after replaying everything recapwrap printed.
async function modesAfter(output: string): Promise<HeadlessTerminal['modes'] & { buffer: string; cursorHidden: boolean }> {
  const term = new Terminal({ cols: 80, rows: 24, allowProposedApi: true });
  await new Promise<void>((resolve) => term.write(Buffer.from(output, 'latin1'), resolve));
  const core = (term as unknown as { _core: { coreService: { isCursorHidden: boolean } } })._core;
  return { ...term.modes, buffer: term.buffer.active.type, cursorHidden: core.coreService.isCursorHidden };
}

async function expectCleanEnd(run: Run, expected: { exitCode: number }, options: { terminalGone?: boolean } = {}): Promise<void> {
  expect(await run.t.exit).toEqual(expected);
  await pollUntil(() => !alive(run.childPid), { description: 'the child to be gone' });
  expect(alive(run.childPid)).toBe(false);
  expect(liveFiles(run.stateDir)).toEqual([]);
  if (options.terminalGone) return; // nothing can be written to a terminal that is gone
  const modes = await modesAfter(run.t.output());
  expect(modes.applicationCursorKeysMode).toBe(false);
  expect(modes.applicationKeypadMode).toBe(false);
  expect(modes.bracketedPasteMode).toBe(false);
  expect(modes.mouseTrackingMode).toBe('none');
  expect(modes.sendFocusMode).toBe(false);
  expect(modes.buffer).toBe('normal');
  expect(modes.cursorHidden).toBe(false);
  expect(run.t.output()).toContain('\x1b[0 q'); // the cursor style the child set, back to the user's
  expect(run.t.output()).not.toContain('internal error');
}

describe('recapwrap under faults', () => {
  it('replays the agent modes into a terminal that has them on (the check below can fail)', async () => {
    const run = await startAgent();
    const during = await modesAfter(run.t.output());
    expect(during.applicationCursorKeysMode).toBe(true);
    expect(during.applicationKeypadMode).toBe(true);
    expect(during.buffer).toBe('alternate');
    run.t.write('q');
    await expectCleanEnd(run, { exitCode: 0 });
  });

  for (const [signal, code] of [['SIGTERM', 143], ['SIGHUP', 129], ['SIGINT', 130], ['SIGQUIT', 131]] as const) {
    it(`${signal} to the wrapper: the child gets it, recapwrap exits ${code}, terminal and files clean`, async () => {
      const run = await startAgent();
      run.t.kill(signal);
      await expectCleanEnd(run, { exitCode: code });
    });
  }

  it('SIGKILL of the child: 137, terminal and files clean', async () => {
    const run = await startAgent();
    process.kill(run.childPid, 'SIGKILL');
    await expectCleanEnd(run, { exitCode: 137 });
  });

  it('the child segfaults: 139, terminal and files clean', async () => {
    const run = await startAgent(['--signal', 'SIGSEGV']);
    run.t.write('k');
    await expectCleanEnd(run, { exitCode: 139 });
  });

  it('the terminal goes away (window closed): ends like SIGHUP, no crash, child hung up, files removed', async () => {
    for (let i = 0; i < 3; i++) {
      const run = await startAgent();
      run.t.hangUp();
      // 129: the child died of the SIGHUP it was sent; never SIGABRT/SIGSEGV (Node's exit-time tty reset)
      await expectCleanEnd(run, { exitCode: 129 }, { terminalGone: true });
    }
  });

  // #29: a child that ignores SIGHUP kept the wrapper (and itself) running after its window closed.
  for (const [ignores, code] of [[['SIGHUP'], 143], [['SIGHUP', 'SIGTERM'], 137]] as const) {
    it(`the terminal goes away and the child ignores ${ignores.join(' and ')}: escalated, recapwrap exits ${code}, nothing left behind`, async () => {
      const log = join(dir, `stubborn-${ignores.length}.log`);
      const script = `${ignores.map((sig) => `process.on('${sig}', () => {});`).join(' ')} console.log('STARTED'); setInterval(() => {}, 1000);`;
      const t = runCliInPty([process.execPath, '-e', script], { env: { TMUX: undefined, TMUX_PANE: undefined, RECAPWRAP_DEBUG_LOG: log } });
      await t.waitFor('STARTED');
      const childPid = Number(/"childPid":(\d+)/.exec(readFileSync(log, 'utf8'))?.[1]);
      t.hangUp();
      expect(await t.exit).toEqual({ exitCode: code });
      await pollUntil(() => !alive(childPid), { timeoutMs: 2000, description: 'the child to be gone' });
      expect(readFileSync(log, 'utf8')).toContain('"msg":"child ignored the hang-up"');
    }, 20_000);
  }

  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129], ['SIGQUIT', 131]] as const) {
    it(`${signal} reaches the child's whole process group (sh -c '…; sleep 30': the sleep ends too)`, async () => {
      const log = join(dir, `group-${signal}.log`);
      const t = runCliInPty(['sh', '-c', 'echo STARTED; sleep 30; echo SLEPT'], { env: { TMUX: undefined, TMUX_PANE: undefined, RECAPWRAP_DEBUG_LOG: log } });
      await t.waitFor('STARTED');
      const shPid = Number(/"childPid":(\d+)/.exec(readFileSync(log, 'utf8'))?.[1]);
      const sleepPid = await pollUntil(() => Number(execFileSync('ps', ['-o', 'pid=', '--ppid', String(shPid)], { encoding: 'utf8' }).trim()), { description: 'the sleep under sh' });
      t.kill(signal);
      expect(await t.exit).toEqual({ exitCode: code });
      expect(t.output()).not.toContain('SLEPT');
      // Only its pid signalled, sh either waited the 30 s out or died and left the sleep running.
      await pollUntil(() => !alive(sleepPid), { timeoutMs: 5000, description: 'the sleep to be gone' });
    }, 40_000);
  }
});
