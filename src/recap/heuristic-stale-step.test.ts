// A recap never ends on a step the agent announced before it finished (#37 item 14): the demo's
// "Re-running the tests." came after "npm test passed" in the recap of a turn that had ended.
import { describe, expect, it } from 'vitest';
import { buildContext } from './context.js';
import { heuristicRecap } from './heuristic.js';
import type { RecapEvent } from './types.js';

const events: RecapEvent[] = [
  { kind: 'user', text: 'fix the failing test' },
  { kind: 'assistant', text: 'Running the test suite first.' },
  { kind: 'tool-call', name: 'bash', args: 'npm test', paths: [], command: 'npm test', callId: 'c1' },
  { kind: 'tool-result', ok: false, text: '1 failed, 11 passed', callId: 'c1' },
  { kind: 'assistant', text: 'parseDuration multiplies seconds by 1000 twice.' },
  { kind: 'tool-call', name: 'edit', args: 'src/duration.ts', paths: ['src/duration.ts'], callId: 'c2' },
  { kind: 'tool-result', ok: true, text: 'Successfully replaced text in src/duration.ts', callId: 'c2' },
  { kind: 'assistant', text: 'I fixed the double conversion in src/duration.ts but have not re-run the tests yet. Shall I run `npm test` again?' },
  { kind: 'turn-end' },
  { kind: 'user', text: 'y' },
  { kind: 'assistant', text: 'Re-running the tests.' },
  { kind: 'tool-call', name: 'bash', args: 'npm test', paths: [], command: 'npm test', callId: 'c3' },
  { kind: 'tool-result', ok: true, text: '12 passed', callId: 'c3' },
  { kind: 'assistant', text: 'All 12 tests pass now: parseDuration("90s") returns 90 after the fix in src/duration.ts.' },
  { kind: 'turn-end' },
];

describe('heuristic recap of an ended turn', () => {
  it('keeps the result and the check, and drops the step announced on the way', () => {
    const r = heuristicRecap(buildContext({ agent: 'pi', id: 's1', file: '/tmp/s1.jsonl', cwd: '/tmp/myproj', stamp: 'st', events }));
    expect(r.parts?.state).toBe('done');
    expect(r.done.join(' | ')).toContain('All 12 tests pass now');
    expect(r.done).toContain('npm test passed');
    expect(r.line).not.toMatch(/re-running/i);
  });
});
