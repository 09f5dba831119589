import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { liveState, writeLiveState } from '../../../test/helpers/live-state.js';
import { pollUntil } from '../../../test/helpers/poll.js';
import { TRANSCRIPTS_DIR } from '../../../test/helpers/shared.js';
import { columnWidths, layoutRow, type BoardRow, type BoardView } from '../../display/board-view.js';
import { displayWidth, truncateToWidth } from '../../util/text-width.js';
import { composeRecap } from '../../recap/compose.js';
import { renderLs } from '../../cli/commands/ls-table.js';
import type { LiveState } from '../../display/state-file.js';
import { boardRows, runBoard } from './board.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rw-board-unit-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const state = (over: Partial<LiveState>) => liveState({ cwd: '/w/app', ...over });

describe('board', () => {
  it('lays rows out in cells, CJK and emoji counted as two', () => {
    const line = layoutRow({ agent: 'claude', dir: '~/プロジェクト/アプリ', state: 'working 3m', looked: '5m', pane: '%12', recap: 'recap: 修正しました 🎉 and more text' }, 80);
    expect(displayWidth(line)).toBeLessThanOrEqual(80);
    expect(line.startsWith('claude   ~/プロジェクト/アプリ')).toBe(true);
    expect(displayWidth(layoutRow({ agent: 'pi', dir: 'x', state: 's', looked: '-', pane: '-', recap: '漢'.repeat(100) }, 60))).toBeLessThanOrEqual(60);
  });

  it('rows are ordered newest first as in ls, sanitized, without the recap: label', () => {
    const states = [state({ pid: 1, startedAt: '2026-11-22T09:00:00Z' }), state({ pid: 2, startedAt: '2026-11-22T10:00:00Z', lastRecap: { line: 'recap: \x1b[31mred\x1b[0m', stamp: 's', createdAt: '' } }), state({ pid: 3, startedAt: '2026-11-22T09:30:00Z' })];
    const rows = boardRows(states, Date.now(), '/home/u');
    expect(rows.map((r) => r.key)).toEqual(['2', '3', '1']);
    expect(rows[0]!.recap).toBe('red');
    // ls prints the same order (#18: ls sorted newest first, board oldest first).
    const ls = renderLs(states, 200, Date.now(), '/home/u').split('\n').slice(1);
    expect(ls.map((l) => l.includes('red'))).toEqual([true, false, false]);
  });

  it('composes the recap for the column it gets, keeping the next step', () => {
    const recap = 'Added a --verbose flag in src/cli.ts and all 12 tests pass, then looked at the logger and the README. Next: document it in the README.';
    const row = { agent: 'pi', dir: '~/p', state: 'idle 1m', looked: '2m', pane: '%1', recap };
    // Columns as wide as their content: at 80 columns a short folder leaves room for the next step.
    const fitted = layoutRow(row, 80, (text, cells) => composeRecap({ line: text }, cells), columnWidths([row]));
    expect(displayWidth(fitted)).toBeLessThanOrEqual(80);
    expect(fitted).toContain('Next: ');
    for (const cols of [100, 140]) {
      const line = layoutRow({ agent: 'pi', dir: '~/p', state: 'idle 1m', looked: '2m', pane: '%1', recap }, cols, (text, cells) => composeRecap({ line: text }, cells));
      expect(displayWidth(line)).toBeLessThanOrEqual(cols);
      expect(line).toContain('Next: ');
      expect(line).not.toContain('recap:');
    }
  });

  it('in a narrow terminal gives the recap the cells of the last look, the pane and the folder, as ls does', () => {
    const row = { agent: 'claude', dir: '~/code/a-long-project', state: 'waiting 31s', looked: '2m', pane: '%12', recap: 'waiting for you: ok to run npm test again?' };
    const titles = { agent: 'AGENT', dir: 'DIR', state: 'STATE', looked: 'LOOKED', pane: 'PANE', recap: 'RECAP' };
    const at40 = columnWidths([row], 40);
    expect(layoutRow(titles, 40, truncateToWidth, at40)).toMatch(/^AGENT\s+STATE\s+RECAP$/);
    const line = layoutRow(row, 40, truncateToWidth, at40);
    expect(displayWidth(line)).toBeLessThanOrEqual(40);
    expect(line).toMatch(/^claude\s+waiting 31s\s+waiting for you/);
    expect(layoutRow(titles, 120, truncateToWidth, columnWidths([row], 120))).toMatch(/^AGENT\s+DIR\s+STATE\s+LOOKED\s+PANE\s+RECAP$/);
  });

  it('sessions that wait for you come first, with why and since when (#21)', () => {
    const now = Date.parse('2026-11-22T12:00:00Z');
    const rows = boardRows(
      [
        state({ pid: 1, startedAt: '2026-11-22T09:00:00Z', state: 'working' }),
        state({ pid: 2, startedAt: '2026-11-22T10:00:00Z', state: 'idle', attention: { event: 'done', since: '2026-11-22T11:50:00Z' } }),
        state({ pid: 3, startedAt: '2026-11-22T11:00:00Z', state: 'waiting', stateSince: '2026-11-22T11:58:00Z', attention: { event: 'waiting', since: '2026-11-22T11:58:00Z' } }),
      ],
      now,
      '/home/u',
    );
    expect(rows.map((r) => r.key)).toEqual(['3', '2', '1']);
    expect(rows[0]!.state).toBe('waiting 2m !waiting');
    expect(rows[1]!.state).toMatch(/^idle .* !done$/);
    expect(rows[2]!.state).toMatch(/^working /);
  });

  it('outside tmux, Enter shows the session’s card; q quits with 0', async () => {
    const stateDir = join(dir, 'state');
    mkdirSync(stateDir);
    writeLiveState(stateDir, state({ sessionFile: join(TRANSCRIPTS_DIR, 'pi/print-2turns.jsonl') }));
    const seen: { rows: BoardRow[][]; cards: Array<[string, string]>; status: string[] } = { rows: [], cards: [], status: [] };
    let handlers!: { onEnter(r: BoardRow): void; onRecap(r: BoardRow): void; onQuit(): void };
    const view: BoardView = { setRows: (r) => seen.rows.push([...r]), setStatus: (t) => seen.status.push(t), showCard: (t, b) => seen.cards.push([t, b]), render: () => {}, destroy: () => {} };
    const done = runBoard({ env: { RECAPWRAP_STATE_DIR: stateDir, HOME: dir }, createView: (h) => ((handlers = h), view) });
    await pollUntil(() => seen.rows.length > 0, { description: 'the first rows' });
    expect(seen.rows.at(-1)?.map((r) => r.agent)).toEqual(['pi']);
    handlers.onEnter(seen.rows.at(-1)![0]!);
    await pollUntil(() => seen.cards.length > 0, { description: 'the card' });
    expect(seen.cards[0]![0]).toBe('pi · /w/app');
    expect(seen.cards[0]![1]).toContain('What happened\n  • hello.txt is written and folder is listed.');
    // r: the status line names the session by agent and folder, never by pid (#18).
    handlers.onRecap(seen.rows.at(-1)![0]!);
    await pollUntil(() => seen.status.length >= 2, { description: 'two status lines' });
    expect(seen.status[0]).toBe('asking pi in /w/app for a fresh recap…');
    expect(seen.status[1]).toBe('pi in /w/app: not answering (its control socket is gone)');
    for (const t of seen.status) expect(t).not.toContain(String(process.pid));
    // A new state file appears: the watched folder refreshes the rows.
    writeLiveState(stateDir, state({ pid: process.ppid, agent: 'codex', startedAt: new Date(Date.now() + 1000).toISOString() }));
    await pollUntil(() => seen.rows.at(-1)?.length === 2, { description: 'the new row' });
    expect(seen.rows.at(-1)?.map((r) => r.agent)).toEqual(['codex', 'pi']);
    // A wrapped command that is not an agent: a row saying so, no recap, and no socket asked (#28).
    writeLiveState(stateDir, state({ pid: process.pid, agent: null, command: 'bash', startedAt: new Date(Date.now() + 2000).toISOString() }));
    await pollUntil(() => seen.rows.at(-1)?.[0]?.agent === 'bash', { description: 'the command row' });
    const bash = seen.rows.at(-1)![0]!;
    expect(bash.state).toMatch(/^command /);
    expect(bash.recap).toBe('');
    handlers.onEnter(bash);
    await pollUntil(() => seen.cards.length > 1, { description: 'the command card' });
    expect(seen.cards[1]).toEqual(['bash · /w/app', 'A command, not an agent: it has no transcript, so no recap.']);
    handlers.onRecap(bash);
    expect(seen.status.at(-1)).toBe('bash in /w/app is a command, not an agent: no recap');
    handlers.onQuit();
    expect(await done).toBe(0);
  });
});
