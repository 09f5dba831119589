import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  checkAgentSettings, checkAgents, checkPrivateInternals, checkStateDir, checkTmux, createDoctorDeps, doctorExitCode, renderDoctorReport,
} from './doctor.js';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));
const temp = () => (dir = mkdtempSync(join(tmpdir(), 'rw-doctor-')));

describe('doctor checks', () => {
  it('finds agents on PATH and warns when there are none', () => {
    const d = temp();
    const bin = join(d, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'claude'), '#!/bin/sh\n');
    chmodSync(join(bin, 'claude'), 0o755);
    writeFileSync(join(bin, 'pi'), '#!/bin/sh\n');
    chmodSync(join(bin, 'pi'), 0o755);
    writeFileSync(join(bin, 'codex'), 'not executable');
    const results = checkAgents({ PATH: bin });
    expect(results.find((r) => r.name === 'agent claude')?.detail.startsWith(join(bin, 'claude'))).toBe(true);
    const pi = checkAgents({ PATH: bin, HOME: d }, '/work/proj').find((r) => r.name === 'agent pi');
    expect(pi?.detail).toBe(`${join(bin, 'pi')}; sessions here: ${join(d, '.pi', 'agent', 'sessions', '--work-proj--')}`);
    expect(results.find((r) => r.name === 'agent codex')?.status).toBe('skip');
    expect(checkAgents({ PATH: join(d, 'empty') }).at(-1)).toMatchObject({ name: 'agents', status: 'warn', detail: 'none of pi, qwen, claude, codex, gemini is on PATH' });
    expect(results.map((r) => r.name)).toEqual(['agent pi', 'agent qwen', 'agent claude', 'agent codex', 'agent gemini']);
  });

  it('finds an agent the way `recapwrap <agent>` would run it: past a folder of its name, empty and relative PATH entries from cwd', () => {
    const d = temp();
    for (const sub of ['bin', 'dirs', 'work']) mkdirSync(join(d, sub));
    mkdirSync(join(d, 'dirs', 'claude'));
    writeFileSync(join(d, 'bin', 'claude'), '#!/bin/sh\n');
    chmodSync(join(d, 'bin', 'claude'), 0o755);
    writeFileSync(join(d, 'work', 'pi'), '#!/bin/sh\n');
    chmodSync(join(d, 'work', 'pi'), 0o755);
    const results = Object.fromEntries(checkAgents({ PATH: `${join(d, 'dirs')}::../bin`, HOME: d }, join(d, 'work')).map((r) => [r.name, r]));
    expect(results['agent claude']).toMatchObject({ status: 'ok' });
    expect(results['agent claude']?.detail.startsWith(`${join(d, 'bin', 'claude')};`)).toBe(true);
    expect(results['agent pi']?.detail.startsWith(`${join(d, 'work', 'pi')};`)).toBe(true);
    expect(results['agent codex']).toMatchObject({ status: 'skip', detail: 'not on PATH' });
  });

  it("says per agent whether its own recap is on and what recapwrap does about it (#34)", () => {
    const d = temp();
    const work = join(d, 'work');
    mkdirSync(work);
    const lines = (env: Record<string, string>) => Object.fromEntries(checkAgentSettings({ HOME: d, ...env }, work).map((r) => [r.name, r]));
    let r = lines({});
    expect(Object.keys(r)).toEqual(['qwen recap', 'claude recap', 'codex recap']);
    expect(r['claude recap']).toMatchObject({ status: 'ok', detail: 'away summary on (default); used: no second bar while it is fresh' });
    expect(r['qwen recap']).toMatchObject({ status: 'ok', detail: "away recap off (default); recapwrap's bar (one you ask the agent for is used)" });
    expect(r['codex recap']?.detail).toBe("conversation recap on (default); no bar of recapwrap's where it recaps");
    // Settings: Claude's awaySummaryEnabled, the environment over it; Qwen's showSessionRecap and its threshold (QWEN_HOME moves it); Codex's config.toml.
    mkdirSync(join(d, '.claude'));
    writeFileSync(join(d, '.claude', 'settings.json'), JSON.stringify({ awaySummaryEnabled: false }));
    mkdirSync(join(d, '.qwen'));
    writeFileSync(join(d, '.qwen', 'settings.json'), JSON.stringify({ general: { showSessionRecap: true, sessionRecapAwayThresholdMinutes: 2 } }));
    mkdirSync(join(d, '.codex'));
    writeFileSync(join(d, '.codex', 'config.toml'), 'model = "x"\n[tui]\nauto_recap = false # no thanks\n');
    r = lines({});
    expect(r['claude recap']?.detail).toMatch(/^away summary off \(awaySummaryEnabled: false in .*settings\.json\); recapwrap's bar/);
    expect(r['qwen recap']?.detail).toMatch(/^away recap on \(general\.showSessionRecap: true in .*, after 2 min away\); used/);
    expect(r['codex recap']?.detail).toMatch(/^conversation recap off \(tui\.auto_recap = false in /);
    expect(lines({ CLAUDE_CODE_ENABLE_AWAY_SUMMARY: '1' })['claude recap']?.detail).toMatch(/^away summary on \(CLAUDE_CODE_ENABLE_AWAY_SUMMARY=1\)/);
    expect(lines({ HOME: join(d, 'elsewhere'), QWEN_HOME: join(d, '.qwen') })['qwen recap']?.detail).toMatch(/^away recap on/);
    // agentRecaps: replace turns Claude's off through its switch; Qwen has none (it is used); both warns where two recaps show.
    writeFileSync(join(d, '.claude', 'settings.json'), '{}');
    r = lines({ RECAPWRAP_AGENT_RECAPS: 'replace' });
    expect(r['claude recap']?.detail).toMatch(/turned off where recapwrap starts it \(CLAUDE_CODE_ENABLE_AWAY_SUMMARY=0\)/);
    expect(r['qwen recap']?.detail).toMatch(/no switch to turn it off for one run: used/);
    r = lines({ RECAPWRAP_AGENT_RECAPS: 'both' });
    expect(r['claude recap']).toMatchObject({ status: 'warn', fix: expect.stringContaining('--agent-recaps use') });
    expect(r['codex recap']).toMatchObject({ status: 'ok' }); // off in its config.toml: one recap
  });

  it('flags a state folder others can read', () => {
    const d = temp();
    const state = join(d, 'state');
    expect(checkStateDir({ RECAPWRAP_STATE_DIR: state }).status).toBe('ok');
    mkdirSync(state, { mode: 0o755 });
    chmodSync(state, 0o755);
    expect(checkStateDir({ RECAPWRAP_STATE_DIR: state })).toMatchObject({ status: 'warn', fix: `chmod 700 ${state}` });
    chmodSync(state, 0o700);
    expect(checkStateDir({ RECAPWRAP_STATE_DIR: state }).status).toBe('ok');
  });

  // #28 point 4: doctor fails where the wrapper refuses the folder, with the fix for what it is.
  it('fails on a state folder the wrapper refuses: writable by others, a plain file, a link, under a file', () => {
    const d = temp();
    const open = join(d, 'open');
    mkdirSync(open);
    chmodSync(open, 0o777);
    expect(checkStateDir({ RECAPWRAP_STATE_DIR: open })).toEqual({ name: 'state dir', status: 'fail', detail: `${open} is writable by other users (mode 777): recapwrap runs agents without recaps`, fix: `chmod 700 ${open}` });
    const file = join(d, 'file');
    writeFileSync(file, '');
    const asFile = checkStateDir({ RECAPWRAP_STATE_DIR: file });
    expect(asFile).toMatchObject({ status: 'fail', detail: `${file} is a file, not a folder: recapwrap runs agents without recaps` });
    expect(asFile.fix).toContain(`mv ${file} ${file}.bak`);
    expect(asFile.fix).not.toContain('chmod');
    expect(checkStateDir({ RECAPWRAP_STATE_DIR: join(file, 'state') })).toMatchObject({ status: 'fail', detail: expect.stringContaining(`${file} is a file`) });
    symlinkSync(open, join(d, 'link'));
    expect(checkStateDir({ RECAPWRAP_STATE_DIR: join(d, 'link') })).toMatchObject({ status: 'fail', detail: expect.stringContaining('symbolic link') });
    // A claims folder open to others is refused by the wrapper too.
    const good = join(d, 'good');
    mkdirSync(join(good, 'claims'), { recursive: true });
    chmodSync(good, 0o700);
    chmodSync(join(good, 'claims'), 0o777);
    expect(checkStateDir({ RECAPWRAP_STATE_DIR: good })).toMatchObject({ status: 'fail', fix: `chmod 700 ${join(good, 'claims')}` });
    expect(checkStateDir({ RECAPWRAP_STATE_DIR: join(d, 'missing', 'deeper') }).status).toBe('ok');
  });

  it('reports the private node-pty and xterm accesses: all ok with the installed (pinned) versions', async () => {
    const result = await checkPrivateInternals();
    expect(result).toMatchObject({ name: 'private internals', status: 'ok' });
    for (const name of ['nodePtyFork', 'nodePtyMaster', 'nodePtyPtsName', 'nodePtyClose', 'xtermCore']) expect(result.detail).toContain(name);
  });

  it('warns, with the fix, when a private access fell back (recapwrap still runs)', async () => {
    const result = await checkPrivateInternals(async () => ({
      nodePtyFork: 'ok',
      nodePtyMaster: 'fallback: no _fd/_socket; input goes through node-pty write()',
      nodePtyPtsName: 'ok',
      nodePtyClose: 'ok',
      xtermCore: 'fallback: no _core saved cursor',
    }));
    expect(result).toMatchObject({ status: 'warn', fix: expect.stringContaining('package.json') });
    expect(result.detail).toBe('nodePtyMaster fallback: no _fd/_socket; input goes through node-pty write(); xtermCore fallback: no _core saved cursor');
    expect(doctorExitCode([result])).toBe(0);
  });

  it('exit code is 1 only when a check failed', () => {
    expect(doctorExitCode([{ name: 'a', status: 'warn', detail: '' }])).toBe(0);
    expect(doctorExitCode([{ name: 'a', status: 'fail', detail: '' }])).toBe(1);
    expect(renderDoctorReport([{ name: 'a', status: 'fail', detail: 'x', fix: 'do y' }])).toContain('fix: do y');
    // A check quoting a folder or a settings value a transcript or a clone chose: one clean line each (#40).
    const hostile = renderDoctorReport([{ name: 'state\x1b]0;t\x07', status: 'warn', detail: 'folder /tmp/x\x1b]52;c;ZQ==\x07\nrecapwrap: forged', fix: 'rm\x1b[2J it' }]);
    expect(hostile).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
    expect(hostile.split('\n').filter((l) => l.startsWith('recapwrap: forged'))).toEqual([]);
  });
});

const hasTmux = (() => {
  try {
    execFileSync('tmux', ['-V']);
    return true;
  } catch {
    if (process.env.CI) throw new Error('tmux is required under CI (.ci/run installs it)');
    return false;
  }
})();

describe.skipIf(!hasTmux)('doctor tmux checks on a private server', () => {
  const socket = `rw-doctor-${process.pid}`;
  let socketPath = '';
  beforeAll(() => {
    execFileSync('tmux', ['-L', socket, '-f', '/dev/null', 'new-session', '-d', '-x', '80', '-y', '24']);
    socketPath = execFileSync('tmux', ['-L', socket, 'display', '-p', '#{socket_path}'], { encoding: 'utf8' }).trim();
  });
  afterAll(() => {
    try {
      execFileSync('tmux', ['-L', socket, 'kill-server']);
    } catch {}
    // tmux leaves the socket file behind when its server ends (as test/helpers/tmux.ts's kill() says).
    if (socketPath) rmSync(socketPath, { force: true });
  });

  it('reports focus-events off with the fix, then on', async () => {
    const env = { ...process.env, TMUX: `${socketPath},1,0` };
    execFileSync('tmux', ['-L', socket, 'set', '-g', 'focus-events', 'off']);
    const off = await checkTmux(createDoctorDeps(env));
    expect(off.find((r) => r.name === 'tmux focus-events')).toMatchObject({ status: 'warn', fix: expect.stringContaining('focus-events on') });
    execFileSync('tmux', ['-L', socket, 'set', '-g', 'focus-events', 'on']);
    const on = await checkTmux(createDoctorDeps(env));
    expect(on.find((r) => r.name === 'tmux focus-events')?.status).toBe('ok');
    expect(on.find((r) => r.name === 'tmux allow-passthrough')).toMatchObject({ fix: expect.stringContaining('allow-passthrough on') });
    execFileSync('tmux', ['-L', socket, 'set', '-g', 'allow-passthrough', 'on']);
    expect((await checkTmux(createDoctorDeps(env))).find((r) => r.name === 'tmux allow-passthrough')).toBeUndefined();
  });

  it('outside tmux only reports the version', async () => {
    const env = { ...process.env };
    delete env.TMUX;
    const results = await checkTmux(createDoctorDeps(env));
    expect(results.map((r) => r.name)).toEqual(['tmux']);
  });
});

describe('doctor report in a terminal (#18 point 8)', () => {
  const results = [
    { name: 'terminal focus reporting', status: 'skip' as const, detail: 'not probed (tmux focus-events is off, so no report can arrive (fix below))' },
    {
      name: 'tmux focus-events',
      status: 'warn' as const,
      detail: 'off: tmux does not tell panes when you switch to them, so recaps fall back to the idle timer',
      fix: "tmux set -g focus-events on   (and add 'set -g focus-events on' to ~/.tmux.conf), or run recapwrap --tmux-focus",
    },
    { name: 'state dir', status: 'ok' as const, detail: '/home/someone/.local/state/recapwrap (mode 700, created on first run, private to you)' },
  ];
  it('wraps every line to the terminal width at word boundaries, continuation lines indented', () => {
    for (const cols of [50, 80, 100]) {
      const out = renderDoctorReport(results, cols);
      const lines = out.split('\n');
      for (const l of lines) expect(l.length, l).toBeLessThanOrEqual(cols);
      expect(lines.filter((l) => l.startsWith(' ')).length).toBeGreaterThan(0);
      // No word was split (where every word fits a line): the words read back the same.
      const words = (s: string) => s.split(/\s+/).filter(Boolean).join(' ');
      expect(words(out)).toBe(words(renderDoctorReport(results)));
    }
  });
  it('leaves a word longer than a line whole (a path in a fix must stay usable)', () => {
    const path = '/a/very/deep/folder/that/holds/the/state/of/recapwrap/and/more';
    const out = renderDoctorReport([{ name: 'state dir', status: 'warn', detail: 'readable by others', fix: `chmod 700 ${path}` }], 40);
    expect(out).toContain(path);
  });
  it('does not wrap when the output is not a terminal', () => {
    const out = renderDoctorReport(results);
    expect(out.split('\n')[1]).toBe(`! ${'tmux focus-events'.padEnd(24)}  ${results[1]!.detail}`);
  });
});
