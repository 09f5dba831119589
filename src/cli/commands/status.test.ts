import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { liveState } from '../../../test/helpers/live-state.js';
import { composeRecap } from '../../recap/compose.js';
import { displayWidth } from '../../util/text-width.js';
import { parseStatusArgs, runStatus } from './status.js';

describe('status fast-path arguments', () => {
  it('takes --pane and --format, spaced or with =', () => {
    expect(parseStatusArgs([])).toEqual({ pane: undefined, format: 'plain' });
    expect(parseStatusArgs(['--pane', '%7', '--format', 'tmux'])).toEqual({ pane: '%7', format: 'tmux' });
    expect(parseStatusArgs(['--format=tmux', '--pane=%3'])).toEqual({ pane: '%3', format: 'tmux' });
    expect(parseStatusArgs(['--width', '60'])).toEqual({ pane: undefined, format: 'plain', width: '60' });
  });
  it('hands anything else to the full CLI (help, unknown flags, missing or repeated values)', () => {
    for (const argv of [['--help'], ['-h'], ['--pane'], ['--pane', '--format', 'tmux'], ['--pane', '%1', '--pane', '%2'], ['extra'], ['--verbose']]) {
      expect(parseStatusArgs(argv), argv.join(' ')).toBeUndefined();
    }
  });
});

describe('runStatus over real state files', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const stateDir = (states: object[]): string => {
    const dir = mkdtempSync(join(tmpdir(), 'rw-status-'));
    dirs.push(dir);
    states.forEach((s, i) => writeFileSync(join(dir, `live-${1000 + i}.json`), JSON.stringify(s)));
    return dir;
  };
  // `over` may give a partial lastRecap ({ line } only): status reads nothing else of it.
  const live = (over: Record<string, unknown>): object => ({ ...liveState({ cwd: '/p', tmuxPane: '%1', startedAt: '2026-11-22T10:00:00Z' }), ...over });

  it('prints the recap of the asked pane, # doubled for tmux', () => {
    const dir = stateDir([live({ tmuxPane: '%1', lastRecap: { line: 'recap: one' } }), live({ tmuxPane: '%2', lastRecap: { line: 'recap: #2 done' } })]);
    const env = { RECAPWRAP_STATE_DIR: dir };
    expect(runStatus({ pane: '%2', format: 'tmux' }, env, '/p')).toEqual({ out: 'recap: ##2 done\n', code: 0 });
    expect(runStatus({ pane: '%2', format: 'plain' }, env, '/p')).toEqual({ out: 'recap: #2 done\n', code: 0 });
    expect(runStatus({ pane: '%9', format: 'plain' }, env, '/p')).toEqual({ out: '', code: 0 });
  });
  it('without a pane takes the newest wrapper in this folder', () => {
    const dir = stateDir([
      live({ tmuxPane: null, startedAt: '2026-11-22T09:00:00Z', lastRecap: { line: 'recap: older' } }),
      live({ tmuxPane: null, startedAt: '2026-11-22T11:00:00Z', lastRecap: { line: 'recap: newer' } }),
      live({ tmuxPane: null, startedAt: '2026-11-22T10:00:00Z', lastRecap: { line: 'recap: middle' } }),
      // A plain command started later in the folder (`recapwrap bash`) has no recap and hides none (#28).
      live({ tmuxPane: null, startedAt: '2026-11-22T11:30:00Z', agent: null, command: 'bash', lastRecap: null }),
    ]);
    expect(runStatus({ format: 'plain' }, { RECAPWRAP_STATE_DIR: dir }, '/p').out).toBe('recap: newer\n');
  });
  it('--width composes the line for that many cells, label and next step kept (#17)', () => {
    const line = 'recap: waiting for your answer; changed src/cli.ts and src/duration.ts, npm test passed after two fixes. Next: run the release script.';
    const dir = stateDir([live({ tmuxPane: '%1', lastRecap: { line } })]);
    const compose = (l: string, cells: number) => composeRecap({ line: l }, cells);
    for (const width of [40, 60, 80]) {
      const out = runStatus({ pane: '%1', format: 'plain', width: String(width) }, { RECAPWRAP_STATE_DIR: dir }, '/p', compose).out.trimEnd();
      expect(displayWidth(out)).toBeLessThanOrEqual(width);
      expect(out).toMatch(/^recap: waiting/);
      expect(out).toContain('Next: ');
    }
    expect(runStatus({ pane: '%1', format: 'plain', width: '10' }, { RECAPWRAP_STATE_DIR: dir }, '/p', compose).code).toBe(2);
  });
  it('rejects an unknown format with exit 2', () => {
    expect(runStatus({ format: 'json' }, { RECAPWRAP_STATE_DIR: stateDir([]) }, '/p')).toMatchObject({ code: 2, out: expect.stringContaining('plain or tmux') });
  });
});
