/**
 * The overlay-screen test rig shared by src/display/screen*.test.ts: a user terminal, a reference
 * terminal that only ever sees the agent, and an OverlayScreen in between (its copy inline, not in a
 * worker). Tests feed agent output through the output gate as the wrapper does and compare the two
 * terminals cell for cell.
 */
import { afterEach, expect, vi } from 'vitest';
import { OverlayScreen } from '../../src/display/screen.js';
import { unfinishedTailStart } from '../../src/display/stream-boundary.js';
import { VirtualTerminal } from '../fakes/virtual-terminal.js';
import { pollUntil } from './poll.js';

/** The project's captures of the five real CLIs' screens (test/fixtures/screens). */
export const SCREEN_FIXTURES = ['claude', 'codex', 'gemini', 'pi', 'qwen'].map((agent) => `${agent}-interactive.raw`);

export interface RigOptions {
  position?: 'top' | 'bottom';
  cols?: number;
  rows?: number;
  /** Default: the screen's own default (DEFAULT_BAR_ROWS). */
  barRows?: number;
  cursorAtStart?: { row: number; col: number };
  /** The screen's clock (flood detection, resize timing); default Date.now. */
  now?: () => number;
}

export type ScreenRig = ReturnType<typeof screenRig>;

const made: Array<{ dispose(): void }> = [];
/** Dispose every rig after each test; call once at the top of a test file. */
export function disposeRigsAfterEach(): void {
  afterEach(() => {
    for (const m of made.splice(0)) m.dispose();
  });
}

export function screenRig(o: RigOptions = {}) {
  const cols = o.cols ?? 100;
  const rows = o.rows ?? 30;
  const user = new VirtualTerminal(cols, rows);
  const reference = new VirtualTerminal(cols, rows);
  const writes: string[] = [];
  const logs: string[] = [];
  const screen = new OverlayScreen({
    cols,
    rows,
    position: o.position ?? 'bottom',
    barRows: o.barRows,
    write: (d) => (writes.push(d), void user.write(d)),
    cursorAtStart: o.cursorAtStart ?? { row: 0, col: 0 },
    now: o.now,
    log: (_area, message) => logs.push(message),
  });
  made.push(user, reference, screen);
  /** The agent writes a chunk: through the output gate to the user's terminal, and to the reference. */
  const agent = async (chunk: string) => {
    const before = screen.before();
    if (before) void user.write(before);
    void user.write(chunk);
    void reference.write(chunk);
    screen.after(chunk);
    await user.settled();
  };
  /** Whether the bar is on the user's terminal within 3 s (false, not a throw, so tests say what they expect). */
  const barShown = async () => {
    await pollUntil(() => screen.isVisible, { timeoutMs: 3000, intervalMs: 5 }).catch(() => false);
    await user.settled();
    return screen.isVisible;
  };
  /** The user's terminal shows exactly what the reference shows: every cell, attributes and cursor. */
  const same = async () => {
    await user.settled();
    await reference.settled();
    expect(user.snapshot()).toEqual(reference.snapshot());
  };
  /** The window is resized: both terminals reflow, the screen hears of it (the caller writes the agent's repaint). */
  const resize = async (c: number, r: number) => {
    await user.resize(c, r);
    await reference.resize(c, r);
    screen.resize(c, r);
  };
  return { user, reference, screen, agent, barShown, same, writes, logs, resize };
}

/** `data` in pieces of `size` characters. */
export function chunks(data: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < data.length; i += size) out.push(data.slice(i, i + size));
  return out;
}

/**
 * Where to stop feeding a captured screen halfway: at the end of a synchronized frame when the agent
 * uses them (never mid-frame), and never inside an escape sequence (the bar waits for the agent to
 * finish one; tested on its own).
 */
export function halfwayCut(data: string): number {
  const SYNC_END = '\x1b[?2026l';
  const frameEnd = data.lastIndexOf(SYNC_END, Math.floor(data.length / 2));
  let cut = frameEnd >= 0 ? frameEnd + SYNC_END.length : Math.floor(data.length / 2);
  while (unfinishedTailStart(Buffer.from(data.slice(0, cut), 'utf8')) >= 0) cut++;
  return cut;
}

/**
 * Run `steps` on fake timers (setTimeout and Date: the screen's throttle, settle and clock), so timing
 * windows are stepped exactly however loaded the machine is. The terminals parse on timers too, so
 * before going back to real time every timer left is run out: none is lost half-way.
 */
export async function onFakeTimers(steps: () => Promise<void>): Promise<void> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  try {
    await steps();
    for (let i = 0; i < 1000 && vi.getTimerCount() > 0; i++) await vi.runOnlyPendingTimersAsync();
  } finally {
    vi.useRealTimers();
  }
}
