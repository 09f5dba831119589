// The attention wiring around the real rule machine and channels, with a fake wrap run (its
// collaborator): what reaches the terminal, when, and what the state file is told.
import { describe, expect, it } from 'vitest';
import type { Session, TranscriptEvent } from '../../transcripts/types.js';
import { attentionActivityOf, startAttention, type AttentionMark } from './attention-wiring.js';

const START = Date.parse('2026-11-23T10:00:00Z');
// Outside tmux the OSC path has no await: everything a report causes is done once the microtasks it
// queued have run, which one turn of the event loop guarantees (no clock involved).
const settled = () => new Promise((resolve) => setImmediate(resolve));

function fakeWrap() {
  const listeners = { focus: new Set<(f: boolean) => void>(), input: new Set<(d: string) => void>(), output: new Set<(c: Buffer) => void>() };
  const written: string[] = [];
  const add = <T>(set: Set<T>, l: T) => (set.add(l), { dispose: () => set.delete(l) });
  return {
    written,
    wrap: {
      onFocus: (l: (f: boolean) => void) => add(listeners.focus, l),
      onInput: (l: (d: string) => void) => add(listeners.input, l),
      onOutputBytes: (l: (c: Buffer) => void) => add(listeners.output, l),
      writeToTerminal: (d: string) => written.push(d),
    },
    focus: (f: boolean) => listeners.focus.forEach((l) => l(f)),
    // The agent prints a chunk: the terminal gets it, then the listeners see it (as in wrap-run.ts).
    output: (s: string) => {
      written.push(s);
      listeners.output.forEach((l) => l(Buffer.from(s, 'utf8')));
    },
    listeners,
  };
}

function session(events: TranscriptEvent[]): Session {
  return { agent: 'pi', id: 's1', file: '/s/one.jsonl', events, stamp: String(events.length), skipped: 0 };
}
const user = { kind: 'user', text: 'go', sourceId: 'u1', ts: START + 1000 } as const;
const question = { kind: 'assistant', text: 'Shall I drop it?', sourceId: 'a1', ts: START + 2000 } as const;
const apiError = { kind: 'error', text: 'overloaded', sourceId: 'e1', ts: START + 3000 } as const;

describe('attentionActivityOf', () => {
  it('an idle turn that ended on an error is errored; the turn is named by its last event', () => {
    expect(attentionActivityOf('idle', session([user, apiError]))).toEqual({ state: 'errored', turn: '/s/one.jsonl#e1', at: START + 3000 });
    expect(attentionActivityOf('waiting', session([user, question]))).toEqual({ state: 'waiting', turn: '/s/one.jsonl#a1', at: START + 2000 });
    expect(attentionActivityOf('idle', session([]))).toEqual({ state: 'idle', turn: '/s/one.jsonl', at: undefined });
  });
});

describe('startAttention', () => {
  const options = { notify: 'bell,osc', notifyMinSeconds: 30, idleSeconds: 120 };

  it('away: rings and sends the desktop notification at a stream boundary, and marks the state file', async () => {
    const f = fakeWrap();
    const marks: Array<AttentionMark | null> = [];
    const a = startAttention({ wrap: f.wrap, options, env: { TERM_PROGRAM: 'ghostty' }, cwd: '/home/u/billing-api', agent: 'claude', startedAt: START, recapLine: () => 'recap: Asked whether to drop the table. Next: answer.', onMark: (m) => marks.push(m), log: () => {} });
    a.report('working', session([user]));
    f.focus(false);
    f.output('\x1b[38;2;1;2'); // the agent is in the middle of a colour
    a.report('waiting', session([user, question]));
    await settled();
    expect(f.written).toEqual(['\x1b[38;2;1;2']);
    f.output(';3mok');
    expect(f.written).toEqual(['\x1b[38;2;1;2', ';3mok', '\x07\x1b]777;notify;claude · billing-api;waiting for you: Asked whether to drop the table.\x07']);
    expect(marks).toEqual([{ event: 'waiting', since: expect.any(String) }]);
    f.focus(true);
    expect(marks.at(-1)).toBeNull();
    await a.dispose();
    expect(f.listeners.output.size + f.listeners.focus.size + f.listeners.input.size).toBe(0);
  });

  it('focused: writes nothing and marks nothing; notify=none: no output listener at all', async () => {
    const f = fakeWrap();
    const marks: Array<AttentionMark | null> = [];
    const a = startAttention({ wrap: f.wrap, options, env: {}, cwd: '/w', agent: 'pi', startedAt: START, recapLine: () => undefined, onMark: (m) => marks.push(m), log: () => {} });
    f.focus(true);
    a.report('working', session([user]));
    a.report('idle', session([user, apiError]));
    expect(f.written).toEqual([]);
    expect(marks).toEqual([]);
    await a.dispose();
    const g = fakeWrap();
    const b = startAttention({ wrap: g.wrap, options: { ...options, notify: 'none' }, env: {}, cwd: '/w', agent: 'pi', startedAt: START, recapLine: () => undefined, log: () => {} });
    expect(g.listeners.output.size).toBe(0);
    await b.dispose();
  });

  it('an unknown terminal gets the bell but no desktop sequence', async () => {
    const f = fakeWrap();
    const a = startAttention({ wrap: f.wrap, options, env: { TERM: 'xterm-256color' }, cwd: '/w', agent: 'pi', startedAt: START, recapLine: () => undefined, log: () => {} });
    a.report('working', session([user]));
    f.focus(false);
    a.report('idle', session([user, apiError]));
    await settled();
    expect(f.written).toEqual(['\x07']);
    await a.dispose();
  });
});
