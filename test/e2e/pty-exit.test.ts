// What the user's terminal is left with when the wrapped program ends: every byte it printed (node-pty
// loses the tail without our fix), and every mode it (or we) turned on turned off again.
import type { Terminal as HeadlessTerminal } from '@xterm/headless';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { RECORD_INPUT_FIXTURE, runCliInPty } from '../helpers/cli-pty.js';

// @xterm/headless is CommonJS without named ESM exports; its types declare only named ones.
const { Terminal } = createRequire(import.meta.url)('@xterm/headless') as { Terminal: typeof HeadlessTerminal };
const SEQ_RUNS = 20;

// Replay the bytes into a headless terminal and return its modes afterwards.
async function replay(output: string): Promise<{ modes: HeadlessTerminal['modes']; buffer: string }> {
  const term = new Terminal({ cols: 80, rows: 24, allowProposedApi: true });
  await new Promise<void>((resolve) => term.write(Buffer.from(output, 'latin1'), resolve));
  return { modes: term.modes, buffer: term.buffer.active.type };
}

// The modes a busy agent TUI turns on: alt screen, bracketed paste, SGR mouse, hidden cursor,
// kitty keyboard, focus reporting, alternate scroll.
const AGENT_MODES = '\\x1b[?1049h\\x1b[?2004h\\x1b[?1002;1006h\\x1b[?25l\\x1b[>1u\\x1b[?1004h\\x1b[?1007h';

describe('recapwrap on exit', () => {
  it(`forwards all of \`seq 1 200000\` byte for byte, ${SEQ_RUNS} runs in a row`, async () => {
    const expected = execFileSync('seq', ['1', '200000'], { encoding: 'latin1', maxBuffer: 64 << 20 });
    for (let run = 0; run < SEQ_RUNS; run++) {
      const t = runCliInPty(['seq', '1', '200000']);
      expect(await t.exit).toEqual({ exitCode: 0 });
      const out = t.output();
      expect(out.startsWith('\x1b[?1004h')).toBe(true);
      expect(out.endsWith('\x1b[?1004l')).toBe(true);
      // The child's pty turns LF into CR LF (as any terminal would); we add nothing else.
      const body = out.slice('\x1b[?1004h'.length, -'\x1b[?1004l'.length);
      expect(body.length, `run ${run}`).toBe(expected.length + (expected.match(/\n/g)?.length ?? 0));
      expect(body === expected.replace(/\n/g, '\r\n'), `run ${run}: output differs`).toBe(true);
    }
  }, 180_000);

  for (const how of ['exits normally', 'is killed (SIGKILL)'] as const) {
    it(`resets every mode the child left on when it ${how}`, async () => {
      const t = runCliInPty([process.execPath, RECORD_INPUT_FIXTURE, '--print', AGENT_MODES, '--signal', 'SIGKILL']);
      await t.waitFor('READY');
      const during = await replay(t.output());
      expect(during.modes.sendFocusMode).toBe(true);
      expect(during.modes.bracketedPasteMode).toBe(true);
      expect(during.modes.mouseTrackingMode).toBe('drag');
      expect(during.buffer).toBe('alternate');
      const mark = t.output().length;
      t.write(how === 'exits normally' ? 'q' : 'k');
      expect(await t.exit).toEqual({ exitCode: how === 'exits normally' ? 0 : 137 });
      const tail = t.output().slice(mark);
      const after = await replay(t.output());
      expect(after.modes.sendFocusMode).toBe(false);
      expect(after.modes.bracketedPasteMode).toBe(false);
      expect(after.modes.mouseTrackingMode).toBe('none');
      expect(after.buffer).toBe('normal');
      // Kitty keyboard pop on the alt screen before leaving it, cursor shown, focus reporting off last.
      expect(tail).toContain('\x1b[<1u\x1b[?1049l');
      expect(tail).toContain('\x1b[?25h');
      expect(tail).toContain('\x1b[?1007l');
      expect(tail.endsWith('\x1b[?1004l')).toBe(true);
    });
  }

  it('leaves nothing extra when the child turned nothing on', async () => {
    const t = runCliInPty(['sh', '-c', 'printf done']);
    expect(await t.exit).toEqual({ exitCode: 0 });
    expect(t.output()).toBe('\x1b[?1004hdone\x1b[?1004l');
  });

  it('exits promptly for a command that ends at once (no 200 ms socket timeout)', async () => {
    const started = Date.now();
    const t = runCliInPty(['true']);
    expect(await t.exit).toEqual({ exitCode: 0 });
    // Generous bound for a loaded 2-core box; the point is the wrapper does not hang on exit.
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
