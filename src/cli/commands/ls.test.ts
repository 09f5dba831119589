import { describe, expect, it } from 'vitest';
import { displayWidth } from '../../util/text-width.js';
import { liveState } from '../../../test/helpers/live-state.js';
import type { LiveState } from '../../display/state-file.js';
import { formatSince, shortenDir } from '../../util/age.js';
import { renderLs } from './ls-table.js';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const state = (over: Partial<LiveState>): LiveState => liveState({
  pid: 1, agent: 'claude', command: 'claude', cwd: '/home/u/proj', tmuxPane: '%3', stateSince: '2026-11-22T11:55:00Z', lastFocusAt: '2026-11-22T11:59:30Z',
  lastRecap: { line: 'recap: 日本語のテキスト👍 wrote app.ts. Next: run the tests.', stamp: 's', createdAt: '' }, startedAt: '', updatedAt: '', ...over,
});

describe('ls rendering', () => {
  it('says how to start when nothing runs', () => {
    expect(renderLs([], 80, NOW)).toContain('recapwrap demo');
  });
  it('shows state with its age, last look, pane, and the recap fitted to the width (CJK, emoji), no label', () => {
    const out = renderLs([state({ startedAt: '2026-11-22T11:00:00Z' }), state({ pid: 2, agent: null, command: 'vim', state: 'working', lastFocusAt: null, tmuxPane: null, lastRecap: null, startedAt: '2026-11-22T10:00:00Z' })], 70, NOW, '/home/u');
    const lines = out.split('\n');
    expect(lines[1]).toMatch(/^claude\s+~\/proj\s+idle 5m\s+30s\s+%3\s+日本語/);
    // A command that is not an agent: listed as a command for as long as it runs, no recap (#28).
    expect(lines[2]).toMatch(/^vim\s+~\/proj\s+command 2h\s+-\s+-$/);
    for (const l of lines) expect(displayWidth(l)).toBeLessThanOrEqual(70);
  });

  it('keeps the next step in a narrow terminal, and prints whole lines when there is no terminal (#18)', () => {
    const line = 'recap: "add a --verbose flag" — waiting for your answer; changed src/cli.ts, npm test passed. Next: answer: Next I would document it in the README — want me to?';
    const s = state({ lastRecap: { line, stamp: 's', createdAt: '' } });
    const narrow = renderLs([s], 100, NOW, '/home/u').split('\n')[1] as string;
    expect(displayWidth(narrow)).toBeLessThanOrEqual(100);
    expect(narrow).toContain('Next: ');
    expect(narrow).not.toContain('recap: ');
    const piped = renderLs([s], Number.POSITIVE_INFINITY, NOW, '/home/u').split('\n')[1] as string;
    expect(piped.endsWith('Next: answer: Next I would document it in the README — want me to?')).toBe(true);
    expect(piped).toContain('"add a --verbose flag" — waiting for your answer');
  });

  it('gives way column by column in a narrow terminal (looked, pane, folder), never wrapping a row; the recap stays', () => {
    const line = 'recap: "add a --verbose flag" — waiting for your answer. Next: ok to run npm test again?';
    const s = state({ cwd: '/home/u/code/a-rather-long-project-name', lastRecap: { line, stamp: 's', createdAt: '' } });
    for (const cols of [40, 50, 60, 70]) {
      const rows = renderLs([s], cols, NOW, '/home/u').split('\n');
      for (const row of rows) expect(displayWidth(row), `${cols}: ${row}`).toBeLessThanOrEqual(cols);
      expect(rows[0], `${cols}`).toMatch(/^AGENT\s.*STATE\s.*RECAP$/);
      expect(rows[1], `${cols}`).toMatch(/^claude\s.*(waiting|idle|working)/);
    }
    const at40 = renderLs([s], 40, NOW, '/home/u').split('\n');
    expect(at40[0]).not.toMatch(/LOOKED|PANE|DIR/);
    expect(renderLs([s], 200, NOW, '/home/u').split('\n')[0]).toMatch(/^AGENT\s+DIR\s+STATE\s+LOOKED\s+PANE\s+RECAP$/);
  });

  it('shows a session that wants you (#21)', () => {
    const out = renderLs([state({ state: 'waiting', attention: { event: 'waiting', since: '2026-11-22T11:55:00Z' } })], 120, NOW, '/home/u');
    expect(out.split('\n')[1]).toMatch(/^claude\s+~\/proj\s+waiting 5m !waiting\s+30s\s+%3\s+/);
  });
  it('formats ages and shortens folders', () => {
    expect(formatSince('2026-11-22T11:00:00Z', NOW)).toBe('1h');
    expect(formatSince(null, NOW)).toBe('-');
    expect(shortenDir('/home/u/a/very/long/path/to/some/project/folder', '/home/u', 20)).toBe('…some/project/folder');
  });
});
