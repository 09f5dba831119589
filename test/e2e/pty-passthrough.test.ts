// The wrapper under a real outer pty, through the built CLI: focus reports stripped or forwarded as the
// child asked, other input untouched, environment, resize, exit codes and forwarded signals.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_BIN, RECORD_INPUT_FIXTURE, runCliInPty, spawnInPty, type CliPty } from '../helpers/cli-pty.js';
import { pollUntil } from '../helpers/poll.js';

const ENABLE_FOCUS = '\x1b[?1004h';
const DISABLE_FOCUS = '\x1b[?1004l';

let dir: string;
let n = 0;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rw-pty-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Start the fixture under recapwrap; returns the harness and the file its input is recorded in.
async function startFixture(fixtureArgs: string[] = [], wrapperArgs: string[] = [], env: Record<string, string> = {}): Promise<{ t: CliPty; recorded: () => string }> {
  const file = join(dir, `input-${n++}.bin`);
  const t = runCliInPty([...wrapperArgs, process.execPath, RECORD_INPUT_FIXTURE, '--record', file, ...fixtureArgs], { env });
  await t.waitFor('READY');
  const recorded = (): string => {
    try {
      return readFileSync(file).toString('latin1');
    } catch {
      return '';
    }
  };
  return { t, recorded };
}

async function quit(t: CliPty): Promise<{ exitCode: number; signal?: number }> {
  t.write('q');
  return t.exit;
}

describe('recapwrap <command> under a pty', () => {
  it('turns focus reporting on for itself and strips focus reports the child did not ask for', async () => {
    const { t, recorded } = await startFixture();
    expect(t.output().startsWith(ENABLE_FOCUS)).toBe(true);
    t.write('ab\x1b[Icd\x1b[O\x1b[A');
    await pollUntil(() => recorded() === 'abcd\x1b[A', { description: 'the typed bytes without focus reports' });
    expect(await quit(t)).toEqual({ exitCode: 0 });
    expect(t.output()).not.toContain('GOT-FOCUS');
    expect(t.output().endsWith(DISABLE_FOCUS)).toBe(true);
  });

  it('forwards focus reports while the child has ?1004 on, and keeps it on for itself when the child turns it off', async () => {
    const { t, recorded } = await startFixture(['--focus']);
    t.write('\x1b[I');
    await t.waitFor('GOT-FOCUS-IN');
    t.write('\x1b[O');
    await t.waitFor('GOT-FOCUS-OUT');
    expect(recorded()).toBe('\x1b[I\x1b[O');
    const mark = t.output().length;
    t.write('f');
    await t.waitFor(`${DISABLE_FOCUS}FOCUS-OFF`, { from: mark });
    await t.waitFor(ENABLE_FOCUS, { from: t.output().indexOf('FOCUS-OFF', mark) });
    t.write('x\x1b[Iy');
    await pollUntil(() => recorded().endsWith('fxy'), { description: 'input after ?1004l without the focus report' });
    expect(await quit(t)).toEqual({ exitCode: 0 });
    expect(t.output().match(/GOT-FOCUS-IN/g)).toHaveLength(1);
  });

  it('passes bracketed paste, Alt-[ and a lone ESC through byte for byte', async () => {
    const { t, recorded } = await startFixture();
    const paste = '\x1b[200~pasted \x1b[I text\x1b[O\x1b[201~';
    t.write(paste);
    await pollUntil(() => recorded() === paste, { description: 'the paste unchanged' });
    t.write('\x1b[x');
    await pollUntil(() => recorded() === paste + '\x1b[x', { description: 'Alt-[ x unchanged' });
    t.write('\x1b');
    await pollUntil(() => recorded() === paste + '\x1b[x\x1b', { timeoutMs: 2000, description: 'a lone ESC, released after the short hold' });
    expect(await quit(t)).toEqual({ exitCode: 0 });
  });

  it('delivers a paste far larger than the pty input buffer whole and in order, to a child slow to read', async () => {
    const { t, recorded } = await startFixture(['--stall', '1500']);
    // No single-key commands (q, k, F, f, s, e) and no ESC: only the bytes themselves matter here.
    const paste = Array.from({ length: 6000 }, (_, i) => `${String(i).padStart(5, '0')} PASTE LINE ABCDGHIJ\r`).join('');
    expect(paste.length).toBeGreaterThan(150_000);
    t.write(paste);
    await pollUntil(() => recorded().length >= paste.length, { timeoutMs: 20_000, description: 'the whole paste recorded' });
    expect(recorded() === paste).toBe(true);
    expect(await quit(t)).toEqual({ exitCode: 0 });
  });

  it('does not write ?1004h with --no-focus, and still forwards reports once the child asks', async () => {
    const { t } = await startFixture([], ['--no-focus']);
    expect(t.output()).not.toContain(ENABLE_FOCUS);
    t.write('F');
    await t.waitFor('FOCUS-ON');
    t.write('\x1b[I');
    await t.waitFor('GOT-FOCUS-IN');
    expect(await quit(t)).toEqual({ exitCode: 0 });
    expect(t.output().endsWith(DISABLE_FOCUS)).toBe(true); // the child's ?1004 is reset on exit
  });

  it('gives the child the same TERM and TERM_PROGRAM plus RECAPWRAP=1 and RECAPWRAP_PID', async () => {
    const { t } = await startFixture([], [], { TERM_PROGRAM: 'rw-test-term' });
    t.write('e');
    await t.waitFor(/ENV [^\n]*\n/);
    expect(t.output()).toContain(`ENV RECAPWRAP=1 RECAPWRAP_PID=${t.pid} TERM=xterm-256color TERM_PROGRAM=rw-test-term\r\r\n`); // the child's own pty adds one CR, ours none
    await quit(t);
  });

  it('passes the window size at start and on resize', async () => {
    const { t } = await startFixture();
    t.write('s');
    await t.waitFor('SIZE 80x24');
    t.resize(120, 40);
    await t.waitFor('WINCH 120x40');
    t.write('s');
    await t.waitFor('SIZE 120x40');
    await quit(t);
  });

  it('passes a bare LF from a raw-mode child unchanged (no CR added by our side)', async () => {
    const t = runCliInPty(['sh', '-c', "stty -opost; printf 'a\\nb|'"]);
    expect(await t.exit).toEqual({ exitCode: 0 });
    expect(t.output()).toContain('a\nb|');
  });

  // stty -opost runs at the first write it could change (a line break, CR or tab) or STTY_DELAY_MS in.
  it('passes a bare LF unchanged when the first line comes after the stty delay, and when it comes at once', async () => {
    for (const wait of ['0.2', '0']) {
      const t = runCliInPty(['sh', '-c', `stty -opost; printf 'ab'; sleep ${wait}; printf 'c\\nd|'`]);
      expect(await t.exit).toEqual({ exitCode: 0 });
      expect(t.output(), `sleep ${wait}`).toContain('abc\nd|');
    }
  });

  it('leaves output processing on after a child that printed nothing (no stty ran or it was undone)', async () => {
    const script = `"$0" "$1" true; "$0" "$1" sh -c 'printf ab'; stty -a`;
    const t = spawnInPty('sh', ['-c', script, process.execPath, CLI_BIN]);
    expect(await t.exit).toMatchObject({ exitCode: 0 });
    expect(t.output()).toMatch(/(^|\s)opost(\s|$)/m);
    expect(t.output()).not.toContain('-opost');
    expect(t.output()).toContain('ab');
  });

  it('gives output processing back on exit, also when the child exits before stty -opost is done', async () => {
    // stty -opost runs beside the child's start, so a child as quick as `true` can exit first. A slow
    // stty (300 ms, named by RECAPWRAP_STTY) makes that certain: -opost must still never outlive recapwrap.
    const realStty = execFileSync('sh', ['-c', 'command -v stty'], { encoding: 'utf8' }).trim();
    const slowBin = join(dir, 'slow-stty');
    mkdirSync(slowBin, { recursive: true });
    writeFileSync(join(slowBin, 'stty'), `#!/bin/sh\nsleep 0.3\nexec ${realStty} "$@"\n`, { mode: 0o755 });
    for (const stty of ['', join(slowBin, 'stty')]) {
      const script = `for i in 1 2 3 4; do "$0" "$1" sh -c 'printf "x\\ny|"'; done; ${realStty} -a`;
      const started = Date.now();
      const t = spawnInPty('sh', ['-c', script, process.execPath, CLI_BIN], { env: { RECAPWRAP_STTY: stty } });
      expect(await t.exit).toMatchObject({ exitCode: 0 });
      expect(t.output()).toMatch(/(^|\s)opost(\s|$)/m);
      expect(t.output()).not.toContain('-opost');
      // the child's output waited for stty: its pty's CR LF reaches the terminal without a second CR
      expect(t.output()).toContain('x\r\ny|');
      expect(t.output()).not.toContain('x\r\r\ny|');
      // the slow stty was the one run: four wraps waited for it
      if (stty) expect(Date.now() - started).toBeGreaterThanOrEqual(4 * 300);
    }
  });

  it('exits with the child exit code', async () => {
    const { t } = await startFixture(['--exit', '7']);
    expect(await quit(t)).toEqual({ exitCode: 7 });
  });

  it('exits 128+N when the child dies of signal N', async () => {
    const { t } = await startFixture(['--signal', 'SIGKILL']);
    t.write('k');
    expect(await t.exit).toEqual({ exitCode: 137 });
  });

  it('Ctrl-C reaches the child as a byte, not as a signal to recapwrap', async () => {
    const { t, recorded } = await startFixture();
    t.write('\x03\x1a');
    await pollUntil(() => recorded() === '\x03\x1a', { description: 'Ctrl-C and Ctrl-Z bytes' });
    expect(await quit(t)).toEqual({ exitCode: 0 });
  });

  for (const [signal, code] of [['SIGTERM', 143], ['SIGHUP', 129]] as const) {
    it(`forwards ${signal} to the child and exits as it did (${code})`, async () => {
      const { t } = await startFixture();
      t.kill(signal);
      expect(await t.exit).toEqual({ exitCode: code });
      expect(t.output().endsWith(DISABLE_FOCUS)).toBe(true);
    });
  }

  it('prints one clear line and exits 127 for a command that does not exist', async () => {
    const t = runCliInPty(['rw-no-such-command-xyz']);
    expect(await t.exit).toEqual({ exitCode: 127 });
    expect(t.output()).toBe('recapwrap: command not found: rw-no-such-command-xyz\r\n');
  });
});
