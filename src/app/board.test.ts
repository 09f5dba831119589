import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AGENT_FIXTURES_DIR } from '../../test/helpers/shared.js';
import { layoutRow, type BoardRow, type BoardView } from '../display/board-view.js';
import { displayWidth } from '../util/text-width.js';
import { boardRows, runBoard } from './board.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rw-board-unit-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const state = (over: Record<string, unknown>) => ({
  version: 1, pid: process.pid, agent: 'pi', command: 'pi', cwd: '/w/app', sessionFile: null, sessionId: null, tmuxPane: null,
  state: 'idle', stateSince: new Date().toISOString(), lastFocusAt: null, lastRecap: null, socketPath: null,
  startedAt: new Date().toISOString(), updatedAt: new Date().toISOString(), ...over,
});

describe('board', () => {
  it('lays rows out in cells, CJK and emoji counted as two', () => {
    const line = layoutRow({ agent: 'claude', dir: '~/プロジェクト/アプリ', state: 'working 3m', looked: '5m', pane: '%12', recap: 'recap: 修正しました 🎉 and more text' }, 80);
    expect(displayWidth(line)).toBeLessThanOrEqual(80);
    expect(line.startsWith('claude  ~/プロジェクト/アプリ')).toBe(true);
    expect(displayWidth(layoutRow({ agent: 'pi', dir: 'x', state: 's', looked: '-', pane: '-', recap: '漢'.repeat(100) }, 60))).toBeLessThanOrEqual(60);
  });

  it('rows are ordered by start time and sanitized', () => {
    const rows = boardRows([state({ pid: 2, startedAt: '2026-11-22T10:00:00Z', lastRecap: { line: 'recap: \x1b[31mred\x1b[0m', stamp: 's', createdAt: '' } }), state({ pid: 1, startedAt: '2026-11-22T09:00:00Z' })] as never, Date.now(), '/home/u');
    expect(rows.map((r) => r.key)).toEqual(['1', '2']);
    expect(rows[1]!.recap).toBe('recap: red');
  });

  it('sessions that wait for you come first, with why and since when (#21)', () => {
    const now = Date.parse('2026-11-22T12:00:00Z');
    const rows = boardRows(
      [
        state({ pid: 1, startedAt: '2026-11-22T09:00:00Z', state: 'working' }),
        state({ pid: 2, startedAt: '2026-11-22T10:00:00Z', state: 'idle', attention: { event: 'done', since: '2026-11-22T11:50:00Z' } }),
        state({ pid: 3, startedAt: '2026-11-22T11:00:00Z', state: 'waiting', stateSince: '2026-11-22T11:58:00Z', attention: { event: 'waiting', since: '2026-11-22T11:58:00Z' } }),
      ] as never,
      now,
      '/home/u',
    );
    expect(rows.map((r) => r.key)).toEqual(['3', '2', '1']);
    expect(rows.map((r) => r.state).slice(0, 2)).toEqual(['!waiting 2m', '!done 10m']);
    expect(rows[2]!.state).toMatch(/^working /);
  });

  it('outside tmux, Enter shows the session’s card; q quits with 0', async () => {
    const stateDir = join(dir, 'state');
    mkdirSync(stateDir);
    writeFileSync(join(stateDir, `live-${process.pid}.json`), JSON.stringify(state({ sessionFile: join(AGENT_FIXTURES_DIR, 'pi/print-mode-2turns.jsonl') })));
    const seen: { rows: BoardRow[][]; cards: Array<[string, string]> } = { rows: [], cards: [] };
    let handlers!: { onEnter(r: BoardRow): void; onQuit(): void };
    const view: BoardView = { setRows: (r) => seen.rows.push([...r]), setStatus: () => {}, showCard: (t, b) => seen.cards.push([t, b]), render: () => {}, destroy: () => {} };
    const done = runBoard({ env: { RECAPWRAP_STATE_DIR: stateDir, HOME: dir }, createView: (h) => ((handlers = h), view) });
    await new Promise((r) => setTimeout(r, 50));
    expect(seen.rows.at(-1)?.map((r) => r.agent)).toEqual(['pi']);
    handlers.onEnter(seen.rows.at(-1)![0]!);
    for (let i = 0; i < 100 && seen.cards.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(seen.cards[0]![0]).toBe('pi · /w/app');
    expect(seen.cards[0]![1]).toContain('What happened\n  • changed hello.txt');
    // A new state file appears: the watched folder refreshes the rows.
    writeFileSync(join(stateDir, `live-${process.ppid}.json`), JSON.stringify(state({ pid: process.ppid, agent: 'codex', startedAt: new Date(Date.now() + 1000).toISOString() })));
    for (let i = 0; i < 100 && seen.rows.at(-1)?.length !== 2; i++) await new Promise((r) => setTimeout(r, 20));
    expect(seen.rows.at(-1)?.map((r) => r.agent)).toEqual(['pi', 'codex']);
    handlers.onQuit();
    expect(await done).toBe(0);
  });
});
