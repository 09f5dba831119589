import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codexAdapter } from '../../transcripts/codex/index.js';
import { AGENT_IDS } from '../../transcripts/types.js';
import type { AnnouncedState, OutputSignal } from '../../types.js';
import { SCREENS_DIR } from '../../../test/helpers/shared.js';
import { readOutputSignal } from './wrap-run.js';

const signal = codexAdapter.outputSignal as OutputSignal;
const marker = Buffer.from(signal.marker, 'latin1');
const read = (text: string) => readOutputSignal(Buffer.from(text, 'latin1'), marker, signal.parse);

describe('output signal (the wrapper core reads what the adapter declares)', () => {
  it("reads Codex's OSC 7501 busy state; the last one in a chunk wins; clear withdraws it", () => {
    expect(read('\x1b]7501;state=working\x07')).toBe('working');
    expect(read('\x1b]7501;state=done:app=codex\x1b\\')).toBe('done');
    expect(read('x\x1b]7501;state=working\x07 y \x1b]7501;state=idle\x07')).toBe('idle');
    expect(read('\x1b]7501;state=clear\x1b\\')).toBeNull();
    expect(read('\x1b]7501;state=sleepy\x07')).toBeUndefined();
    expect(read('\x1b]7501;?\x07')).toBeUndefined();
    expect(read('plain output')).toBeUndefined();
  });

  it('follows the real Codex screen capture: each turn announced, cleared on exit', () => {
    const capture = readFileSync(join(SCREENS_DIR, 'codex-interactive.raw'));
    const seen: Array<AnnouncedState | null> = [];
    let state: AnnouncedState | undefined;
    // Chunks cut before every ESC, so each holds one escape sequence (a pty delivers output in pieces).
    let from = 0;
    for (let i = capture.indexOf(0x1b, 1); from < capture.length; i = capture.indexOf(0x1b, from + 1)) {
      const end = i === -1 ? capture.length : i;
      const next = readOutputSignal(capture.subarray(from, end), marker, signal.parse);
      if (next !== undefined) {
        seen.push(next);
        state = next ?? undefined;
      }
      from = end;
    }
    expect(seen).toEqual(['idle', 'working', 'idle', 'working', 'done', 'idle', 'working', 'done', 'idle', null]);
    expect(state).toBeUndefined();
  });

  it('the wrapper core names no agent and no agent escape sequence', () => {
    const core = readFileSync(new URL('./wrap-run.ts', import.meta.url), 'utf8');
    for (const id of AGENT_IDS) expect(core).not.toMatch(new RegExp(`\\b${id}\\b`, 'i'));
    expect(core).not.toContain('7501');
  });
});
