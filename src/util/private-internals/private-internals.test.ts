// Each private access says "missing" (its documented fallback value) for an object without the private
// part, and the self-check names what works with the installed node-pty and @xterm/headless.
import type { Terminal as HeadlessTerminal } from '@xterm/headless';
import type { IPty } from 'node-pty';
import { describe, expect, it } from 'vitest';
import { probePrivateInternals } from './index.js';
import { destroyPty, hookNativeFork, loadNodePty, onPtyClose, readPtsName, readPtyMaster } from './node-pty.js';
import { loadXtermTerminal, readXtermCurrentAttributes, readXtermSavedCursor, readXtermScrollTop } from './xterm.js';

describe('private accesses fall back when the private part is missing', () => {
  it('node-pty', () => {
    const term = {} as IPty;
    expect(hookNativeFork({ spawn: loadNodePty().spawn })).toBe(false);
    expect(hookNativeFork({ spawn: loadNodePty().spawn, native: { fork: 'not a function' } })).toBe(false);
    expect(readPtyMaster(term)).toBeUndefined();
    expect(readPtyMaster({ _fd: 7, _socket: {} } as unknown as IPty)).toBeUndefined(); // a socket without `destroyed`
    expect(readPtsName(term)).toBeUndefined();
    expect(onPtyClose(term, () => undefined)).toBe(false);
    expect(destroyPty(term)).toBe(false);
  });

  it('xterm without _core', () => {
    const term = {} as HeadlessTerminal;
    expect(readXtermScrollTop(term)).toBeUndefined();
    expect(readXtermSavedCursor(term)).toBeUndefined();
    expect(readXtermCurrentAttributes(term)).toBeUndefined();
    expect(readXtermSavedCursor({ _core: { buffers: { active: { savedX: 1, savedY: 2 } } } } as unknown as HeadlessTerminal)).toBeUndefined();
  });

  it('xterm with _core: the saved cursor slot as DECSC left it', async () => {
    const term = new (loadXtermTerminal())({ cols: 20, rows: 5, allowProposedApi: true });
    await new Promise<void>((resolve) => term.write('\x1b[2;4r\x1b[3;7H\x1b[1m\x1b7\x1b[0m', resolve));
    expect(readXtermScrollTop(term)).toBe(1);
    const saved = readXtermSavedCursor(term);
    expect(saved).toMatchObject({ x: 6, y: 2 });
    expect(saved?.attributes.isBold()).toBeTruthy();
    expect(readXtermCurrentAttributes(term)?.isBold()).toBe(0);
    term.dispose();
  });
});

describe('probePrivateInternals', () => {
  it('every access works with the installed versions', async () => {
    expect(await probePrivateInternals()).toEqual({ nodePtyFork: 'ok', nodePtyMaster: 'ok', nodePtyPtsName: 'ok', nodePtyClose: 'ok', xtermCore: 'ok' });
  });

  it('names each fallback when node-pty hides its internals', async () => {
    const real = loadNodePty();
    // Only the public IPty calls the probe needs.
    const spawn: typeof real.spawn = (file, args, options) => {
      const term = real.spawn(file, args, options);
      return { onExit: term.onExit, onData: term.onData } as unknown as IPty;
    };
    const report = await probePrivateInternals({ spawn });
    expect(report.nodePtyFork).toMatch(/^fallback: /);
    expect(report.nodePtyMaster).toMatch(/^fallback: /);
    expect(report.nodePtyPtsName).toMatch(/^fallback: /);
    expect(report.nodePtyClose).toMatch(/^fallback: /);
    expect(report.xtermCore).toBe('ok');
  });
});
