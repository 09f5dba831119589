// Fuzz of every adapter's parser (#19): random bytes, records cut and glued at random places, a tool-call
// argument nested 100,000 deep, `__proto__` keys. A parser never throws, skips only what it cannot read,
// keeps reading the records after it, and does it in bounded time. Seeded, so a failure is reproducible.
import { describe, expect, it } from 'vitest';
import { getAdapter } from '../../src/transcripts/registry.js';
import { AGENT_IDS, type AgentId, type SessionSnapshot, type TranscriptParser } from '../../src/transcripts/types.js';

// mulberry32: small, seeded, good enough to pick bytes and cut points.
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const T = '2026-11-22T08:00:00.000Z';
const DEEP = 100_000;
const DEEP_TEXT = '['.repeat(DEEP) + ']'.repeat(DEEP);
const HOLE = '__DEEP__';
// The session's lines with the hole replaced by JSON nested DEEP arrays deep (JSON.stringify cannot make them).
const withDeep = (lines: string[]) => lines.map((l) => l.replaceAll(`"${HOLE}"`, DEEP_TEXT).replaceAll(`\\"${HOLE}\\"`, DEEP_TEXT));

// Per agent: a small valid session (a prompt, a tool call with `args`, its result, an answer, a last prompt).
const sessions: Record<AgentId, (args: unknown, last: string) => string[]> = {
  pi: (args, last) => [
    JSON.stringify({ type: 'session', version: 3, id: 'fz', timestamp: T, cwd: '/w' }),
    JSON.stringify({ type: 'message', id: 'u1', parentId: null, timestamp: T, message: { role: 'user', content: [{ type: 'text', text: 'first prompt' }] } }),
    JSON.stringify({ type: 'message', id: 'a1', parentId: 'u1', timestamp: T, message: { role: 'assistant', content: [{ type: 'toolCall', id: 'c1', name: 'bash', arguments: args }], stopReason: 'toolUse' } }),
    JSON.stringify({ type: 'message', id: 'r1', parentId: 'a1', timestamp: T, message: { role: 'toolResult', toolCallId: 'c1', toolName: 'bash', content: [{ type: 'text', text: 'ok' }] } }),
    JSON.stringify({ type: 'message', id: 'a2', parentId: 'r1', timestamp: T, message: { role: 'assistant', content: [{ type: 'text', text: 'done' }], stopReason: 'stop' } }),
    JSON.stringify({ type: 'message', id: 'u2', parentId: 'a2', timestamp: T, message: { role: 'user', content: [{ type: 'text', text: last }] } }),
  ],
  claude: (args, last) => {
    const base = { sessionId: 'fz', cwd: '/w', timestamp: T, isSidechain: false };
    return [
      JSON.stringify({ ...base, type: 'user', uuid: 'u1', parentUuid: null, message: { role: 'user', content: 'first prompt' } }),
      JSON.stringify({ ...base, type: 'assistant', uuid: 'a1', parentUuid: 'u1', message: { role: 'assistant', model: 'm', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: args }], stop_reason: 'tool_use' } }),
      JSON.stringify({ ...base, type: 'user', uuid: 'r1', parentUuid: 'a1', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] } }),
      JSON.stringify({ ...base, type: 'assistant', uuid: 'a2', parentUuid: 'r1', message: { role: 'assistant', model: 'm', content: [{ type: 'text', text: 'done' }], stop_reason: 'end_turn' } }),
      JSON.stringify({ ...base, type: 'user', uuid: 'u2', parentUuid: 'a2', message: { role: 'user', content: last } }),
    ];
  },
  codex: (args, last) => {
    const line = (type: string, payload: object) => JSON.stringify({ timestamp: T, type, payload });
    const user = (text: string) => line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
    return [
      line('session_meta', { id: 'fz', cwd: '/w' }),
      user('first prompt'),
      line('response_item', { type: 'function_call', name: 'exec_command', arguments: JSON.stringify(args), call_id: 'c1' }),
      line('response_item', { type: 'custom_tool_call', name: 'exec', input: args, call_id: 'c2' }),
      line('response_item', { type: 'function_call_output', call_id: 'c1', output: 'ok' }),
      line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'done' }] }),
      user(last),
    ];
  },
  qwen: (args, last) => {
    const rec = (uuid: string, parentUuid: string | null, extra: object) => JSON.stringify({ uuid, parentUuid, sessionId: 'fz', timestamp: T, cwd: '/w', ...extra });
    return [
      rec('u1', null, { type: 'user', message: { role: 'user', parts: [{ text: 'first prompt' }] } }),
      rec('a1', 'u1', { type: 'assistant', message: { role: 'model', parts: [{ functionCall: { id: 'c1', name: 'run_shell_command', args } }] } }),
      rec('r1', 'a1', { type: 'tool_result', message: { role: 'user', parts: [{ functionResponse: { id: 'c1', name: 'run_shell_command', response: { output: 'ok' } } }] }, toolCallResult: { callId: 'c1', status: 'success' } }),
      rec('a2', 'r1', { type: 'assistant', message: { role: 'model', parts: [{ text: 'done' }] } }),
      rec('u2', 'a2', { type: 'user', message: { role: 'user', parts: [{ text: last }] } }),
    ];
  },
  gemini: (args, last) => [
    JSON.stringify({ sessionId: '11111111-2222-3333-4444-555555555555', projectHash: 'ab', startTime: T, lastUpdated: T, kind: 'main' }),
    JSON.stringify({ id: 'u1', timestamp: T, type: 'user', content: [{ text: 'first prompt' }] }),
    JSON.stringify({ id: 'g1', timestamp: T, type: 'gemini', content: [{ text: 'running it' }], toolCalls: [{ id: 'c1', name: 'run_shell_command', args, status: 'success', result: [{ functionResponse: { id: 'c1', name: 'run_shell_command', response: { output: 'ok' } } }] }] }),
    JSON.stringify({ id: 'g2', timestamp: T, type: 'gemini', content: [{ text: 'done' }] }),
    JSON.stringify({ id: 'u2', timestamp: T, type: 'user', content: [{ text: last }] }),
  ],
};

function feed(agent: AgentId, lines: readonly string[]): { snap: SessionSnapshot; ms: number } {
  const start = performance.now();
  const parser: TranscriptParser = getAdapter(agent).createParser();
  for (const line of lines) parser.push(line);
  const snap = parser.snapshot();
  return { snap, ms: performance.now() - start };
}
const prompts = (s: SessionSnapshot) => s.events.flatMap((e) => (e.kind === 'user' ? [e.text] : []));

describe.each(AGENT_IDS.map((a) => [a] as const))('%s parser under fuzz', (agent) => {
  const make = sessions[agent];

  it('random bytes, alone and between real records: no throw, the records still read', () => {
    const rand = prng(agent.length * 7919);
    const junk = () => {
      const bytes = Buffer.alloc(1 + Math.floor(rand() * 400));
      for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(rand() * 256);
      return bytes.toString(rand() < 0.5 ? 'utf8' : 'latin1').replace(/\n/g, ' ');
    };
    const noise = Array.from({ length: 2000 }, junk);
    expect(() => feed(agent, noise)).not.toThrow();
    const good = make({ command: 'npm test' }, 'last prompt');
    const mixed = good.flatMap((line) => [junk(), line, junk()]);
    const { snap, ms } = feed(agent, mixed);
    expect(prompts(snap)).toEqual(['first prompt', 'last prompt']);
    expect(snap.skipped).toBeGreaterThan(0);
    expect(ms).toBeLessThan(5000);
  });

  it('records cut and glued at random places: no throw, whole records after them still read', () => {
    const rand = prng(agent.length * 104729);
    const good = make({ command: 'npm test' }, 'last prompt');
    for (let round = 0; round < 200; round++) {
      const lines = good.map((line, i) => {
        if (i === good.length - 1) return line; // the last record stays whole: it must be read
        const r = rand();
        if (r < 0.3) return line.slice(0, Math.floor(rand() * line.length)); // cut short
        if (r < 0.4) return line.slice(Math.floor(rand() * line.length)); // its start lost
        return line;
      });
      // Glue a cut piece in front of the last record now and then (a crash mid-write, then the next record).
      if (rand() < 0.5) lines[lines.length - 1] = (good[1] as string).slice(0, Math.floor(rand() * (good[1] as string).length)) + (good.at(-1) as string);
      let snap: SessionSnapshot | undefined;
      expect(() => (snap = feed(agent, lines).snap)).not.toThrow();
      // Gemini's older format: a lone '{' starts a document; the rest never lose the last whole record.
      if (agent !== 'gemini') expect(prompts(snap!).at(-1)).toBe('last prompt');
    }
  });

  it('a tool-call argument nested 100,000 deep costs that entry at most', () => {
    const lines = withDeep(make({ command: HOLE }, 'last prompt'));
    expect(lines.some((l) => l.includes('[[[[[[[['))).toBe(true);
    const { snap, ms } = feed(agent, lines);
    expect(prompts(snap)).toEqual(['first prompt', 'last prompt']);
    expect(snap.events.some((e) => e.kind === 'turn-end' || e.kind === 'assistant')).toBe(true);
    expect(ms).toBeLessThan(5000);
    // The whole argument deep, not just a value in it.
    const whole = feed(agent, withDeep(make(HOLE, 'last prompt')));
    expect(prompts(whole.snap)).toEqual(['first prompt', 'last prompt']);
  });

  it('`__proto__` and constructor keys pollute nothing and break nothing', () => {
    const hostile = JSON.parse('{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}, "command": "ls"}') as unknown;
    const lines = make(hostile, 'last prompt').map((line, i) => (i % 2 === 0 ? line.replace(/^\{/, '{"__proto__":{"polluted":"yes","type":"user"},') : line));
    const { snap } = feed(agent, lines);
    expect(({} as { polluted?: string }).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(prompts(snap).at(-1)).toBe('last prompt');
  });

  it('a very long session stays bounded: first prompt kept, the middle dropped and counted', () => {
    const n = 250_000; // past the history limits (200,000 events) for every agent
    const start = performance.now();
    const parser = getAdapter(agent).createParser();
    for (const line of longSession(agent, n)) parser.push(line);
    const snap = parser.snapshot();
    const ms = performance.now() - start;
    expect(snap.events.length).toBeLessThanOrEqual(200_000);
    expect(prompts(snap)).toEqual(['first prompt', 'last prompt']);
    expect(snap.dropped ?? 0).toBeGreaterThan(0);
    expect(snap.events.filter((e) => e.kind === 'assistant').at(-1)).toMatchObject({ text: `step ${n - 1}` });
    expect(ms).toBeLessThan(60_000);
  }, 120_000);
});

// A prompt, n one-line answers chained one after the other, a last prompt, in the agent's own records.
function* longSession(agent: AgentId, n: number): Generator<string> {
  const answer = (i: number) => `step ${i}`;
  switch (agent) {
    case 'pi': {
      yield JSON.stringify({ type: 'session', version: 3, id: 'long', timestamp: T, cwd: '/w' });
      yield JSON.stringify({ type: 'message', id: 'u', parentId: null, timestamp: T, message: { role: 'user', content: [{ type: 'text', text: 'first prompt' }] } });
      let parent = 'u';
      for (let i = 0; i < n; i++) {
        yield JSON.stringify({ type: 'message', id: `e${i}`, parentId: parent, timestamp: T, message: { role: 'assistant', content: [{ type: 'text', text: answer(i) }], stopReason: 'toolUse' } });
        parent = `e${i}`;
      }
      yield JSON.stringify({ type: 'message', id: 'last', parentId: parent, timestamp: T, message: { role: 'user', content: [{ type: 'text', text: 'last prompt' }] } });
      return;
    }
    case 'claude': {
      const base = { sessionId: 'long', cwd: '/w', timestamp: T };
      yield JSON.stringify({ ...base, type: 'user', uuid: 'u', parentUuid: null, message: { role: 'user', content: 'first prompt' } });
      let parent = 'u';
      for (let i = 0; i < n; i++) {
        yield JSON.stringify({ ...base, type: 'assistant', uuid: `e${i}`, parentUuid: parent, message: { role: 'assistant', model: 'm', content: [{ type: 'text', text: answer(i) }], stop_reason: null } });
        parent = `e${i}`;
      }
      yield JSON.stringify({ ...base, type: 'user', uuid: 'last', parentUuid: parent, message: { role: 'user', content: 'last prompt' } });
      return;
    }
    case 'codex': {
      const item = (payload: object) => JSON.stringify({ timestamp: T, type: 'response_item', payload });
      yield JSON.stringify({ timestamp: T, type: 'session_meta', payload: { id: 'long', cwd: '/w' } });
      yield item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'first prompt' }] });
      for (let i = 0; i < n; i++) yield item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: answer(i) }] });
      yield item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'last prompt' }] });
      return;
    }
    case 'qwen': {
      const rec = (uuid: string, parentUuid: string | null, extra: object) => JSON.stringify({ uuid, parentUuid, sessionId: 'long', timestamp: T, cwd: '/w', ...extra });
      yield rec('u', null, { type: 'user', message: { role: 'user', parts: [{ text: 'first prompt' }] } });
      let parent = 'u';
      for (let i = 0; i < n; i++) {
        yield rec(`e${i}`, parent, { type: 'assistant', message: { role: 'model', parts: [{ text: answer(i) }] } });
        parent = `e${i}`;
      }
      yield rec('last', parent, { type: 'user', message: { role: 'user', parts: [{ text: 'last prompt' }] } });
      return;
    }
    case 'gemini': {
      yield JSON.stringify({ sessionId: '11111111-2222-3333-4444-555555555555', projectHash: 'ab', startTime: T, lastUpdated: T, kind: 'main' });
      yield JSON.stringify({ id: 'u', timestamp: T, type: 'user', content: [{ text: 'first prompt' }] });
      for (let i = 0; i < n; i++) yield JSON.stringify({ id: `e${i}`, timestamp: T, type: 'gemini', content: [{ text: answer(i) }] });
      yield JSON.stringify({ id: 'last', timestamp: T, type: 'user', content: [{ text: 'last prompt' }] });
      return;
    }
  }
}
