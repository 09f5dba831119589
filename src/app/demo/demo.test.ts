import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { layOutSession } from '../../../test/helpers/agent-homes.js';
import { DEMO_IDLE_SECONDS, demoInstructions, describeDemoSession, planDemo, wrapWords } from './demo.js';

let base: string | undefined;
afterEach(() => {
  if (base) rmSync(base, { recursive: true, force: true });
  base = undefined;
});

describe('recapwrap demo plan', () => {
  it('runs the heuristic in a throwaway project, its pi sessions in the state folder and memory as set, with a short idle fallback', () => {
    base = mkdtempSync(join(tmpdir(), 'rw-demo-plan-'));
    const plan = planDemo(base, { HOME: base, RECAPWRAP_STATE_DIR: join(base, 'state') });
    expect(plan.root.startsWith(join(base, 'recapwrap-demo-'))).toBe(true);
    expect(plan.project).toBe(join(plan.root, 'myproj'));
    expect(plan.env.PI_CODING_AGENT_DIR).toBe(join(base, 'state', 'demo'));
    expect(plan.env.RECAPWRAP_DEMO_WORKSPACE).toBe(plan.project);
    // Memory is not turned off for the demo (#37: its picker opened empty): the user's setting holds.
    expect(plan.env).not.toHaveProperty('RECAPWRAP_MEMORY');
    expect(readdirSync(join(base, 'state', 'demo', 'sessions'))).toHaveLength(1); // made before the agent starts
    expect(plan.argv.join(' ')).toContain(`--generator heuristic --away 5 --idle ${DEMO_IDLE_SECONDS} -- `);
    expect(existsSync(plan.project)).toBe(true);
  });

  it('says what will happen where: idle timer in a default tmux, focus return elsewhere; lines fit a halved pane', () => {
    const off = demoInstructions({ kind: 'tmux', focusEvents: 'off' });
    expect(off).toContain(`${DEMO_IDLE_SECONDS} s after it finishes`);
    expect(off).toContain('tmux set -g focus-events on');
    expect(off).toContain('changes no setting');
    expect(demoInstructions({ kind: 'tmux', focusEvents: 'on' })).toContain('prefix + arrow');
    // #43.9: inside tmux the recap is tmux's message, not a line in the pane.
    for (const focusEvents of ['on', 'off'] as const) {
      const text = demoInstructions({ kind: 'tmux', focusEvents }).replace(/\s+/g, ' ');
      expect(text).toContain("appears in tmux's message line at the bottom of the window");
      expect(text).not.toContain('in this pane');
    }
    expect(demoInstructions({ kind: 'terminal' })).toContain('switch to another window or tab');
    for (const where of [{ kind: 'tmux', focusEvents: 'off' }, { kind: 'tmux', focusEvents: 'on' }, { kind: 'terminal' }] as const) {
      for (const line of demoInstructions(where).split('\n')) expect(line.length, line).toBeLessThanOrEqual(78);
      // A halved pane (#28 point 7): word-wrapped to its width, every word whole, the same words in order.
      const narrow = demoInstructions(where, 40);
      for (const line of narrow.split('\n')) expect(line.length, line).toBeLessThanOrEqual(39);
      expect(narrow.split(/\s+/).join(' ')).toBe(demoInstructions(where).split(/\s+/).join(' '));
    }
    // Continuation lines keep the item's indent.
    expect(wrapWords('  1. Type a task there and press Enter (or just Enter); it works a moment.', 30)).toBe('  1. Type a task there and\n     press Enter (or just\n     Enter); it works a\n     moment.');
  });
});

describe('the line a demo ends with', () => {
  // Every demo's session has the same automatic name (each in its own throwaway folder): the line gives
  // a reference that finds this one alone, so `show NAME` being ambiguous after a second demo is no dead end.
  it('names the session of that folder by an id prefix that finds it alone', async () => {
    const root = mkdtempSync(join(tmpdir(), 'rw-demo-ref-'));
    try {
      const env = { HOME: root, RECAPWRAP_STATE_DIR: join(root, 'state'), RECAPWRAP_GENERATOR: 'heuristic' };
      const fixtures = join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'transcripts', 'pi');
      const tui = await layOutSession(root, 'pi', join(fixtures, 'interactive-2turns.jsonl'));
      await layOutSession(root, 'pi', join(fixtures, 'print-2turns.jsonl'));
      const line = await describeDemoSession(env, tui.cwd);
      expect(line).toMatch(/^recapwrap demo: its session is pi-tui-create: recapwrap show 01a208c9-?\w* \(or read, resume\)$/);
      expect(await describeDemoSession(env, join(root, 'no-session-here'))).toBeUndefined();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
