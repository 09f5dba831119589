// The reference picker end to end in a private tmux server with a client attached on a real pty: a
// full-screen fake agent (alternate screen, bracketed paste, a saved cursor) runs under recapwrap; the
// pick key opens the picker in a tmux popup over the pane (seen on the client's screen, never in the
// pane), a search finds a session of the index (a real pi transcript in a throwaway home), Enter pastes
// its reference block as exactly one bracketed paste with no CR, and Esc leaves the pane byte-identical.
// The agent records every byte it receives: it never gets the pick key nor a key of the picker. With
// the overlay display the picker is drawn in the pane from the bar's screen copy, as outside tmux.
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import type { Terminal as HeadlessTerminal } from '@xterm/headless';
import { describe, expect, it } from 'vitest';
import { holdsFor, pollUntil } from '../helpers/poll.js';
import { REPO_DIR } from '../helpers/shared.js';
import { shellQuote, tmuxAvailable, type TmuxClient } from '../helpers/tmux.js';
import { tmuxE2e, wrapperCommand } from '../helpers/tmux-e2e.js';
import { requestControl } from '../../src/display/control-socket.js';
import { isProcessAlive } from '../../src/util/process.js';

const hasTmux = tmuxAvailable();
const AGENT = join(REPO_DIR, 'test', 'fixtures', 'bin', 'fullscreen-agent.mjs');
const TRANSCRIPT = join(REPO_DIR, 'test', 'fixtures', 'transcripts', 'pi', 'interactive-2turns.jsonl');
const PICK_KEY = '\x1c'; // the default pickKey, Ctrl-\, as the client's terminal sends it
const PICK_KEY_NAME = 'C-\\'; // the same for send-keys (straight to the pane)
const { Terminal } = createRequire(import.meta.url)('@xterm/headless') as { Terminal: typeof HeadlessTerminal };
const COLS = 100;
const ROWS = 30;

// What the attached client's terminal shows (tmux draws popups there, not in the pane).
function clientScreen(client: TmuxClient, cols: number, rows: number): () => Promise<string> {
  const term = new Terminal({ cols, rows, allowProposedApi: true });
  let fed = 0;
  return async () => {
    const out = client.output();
    const chunk = out.slice(fed);
    fed = out.length;
    await new Promise<void>((resolve) => term.write(chunk, resolve));
    const buffer = term.buffer.active;
    return Array.from({ length: rows }, (_, i) => buffer.getLine(buffer.viewportY + i)?.translateToString(true) ?? '').join('\n');
  };
}

// The pane's command with a folder put first on PATH (tmux's own -e does not reach PATH here).
function withPathFirst(command: string[], folder: string | undefined): string[] {
  if (!folder) return command;
  const [sh, flag, script] = command as [string, string, string];
  return [sh, flag, `PATH=${shellQuote(folder)}:"$PATH"; export PATH; ${script}`];
}

function threadsOf(pid: number): number {
  return readdirSync(`/proc/${pid}/task`).length;
}

describe.skipIf(!hasTmux)('reference picker in tmux', () => {
  const wrappers: number[] = [];
  const setup = tmuxE2e('rw-picker', {
    // The wrappers remove their state files as the server dies: wait for them before the folder goes.
    afterKill: () => pollUntil(() => wrappers.every((pid) => !isProcessAlive(pid)), { timeoutMs: 10_000, description: 'the wrappers to exit' }).catch(() => undefined),
  });
  let n = 0;

  // A wrapper running the full-screen agent in a fresh session with a client attached, with a home whose pi folder holds one session.
  async function start(options: { wrapArgs?: string[]; agentArgs?: string[]; pathFirst?: string } = {}) {
    const { dir, server } = setup;
    const base = join(dir, `run-${++n}`);
    const home = join(base, 'home');
    const piSessions = join(home, '.pi', 'agent', 'sessions', '--home-dev-proj-pi-tui--');
    mkdirSync(piSessions, { recursive: true });
    const transcript = join(piSessions, '2026-11-23T14-22-08-561Z_01a208c9-20ac-75b4-b286-fdc8465df4a0.jsonl');
    copyFileSync(TRANSCRIPT, transcript);
    const record = join(base, 'input.bin');
    const debugLog = join(base, 'debug.log');
    const args = [...(options.wrapArgs ?? []), '--agent', 'pi', '--', AGENT, '--record', record, ...(options.agentArgs ?? [])];
    const session = `p${n}`;
    const pane = server.newSession({
      name: session,
      cols: COLS,
      rows: ROWS,
      command: withPathFirst(wrapperCommand(join(base, 'work'), args, { mkdir: true }), options.pathFirst),
      env: { HOME: home, RECAPWRAP_STATE_DIR: join(base, 'state'), RECAPWRAP_DEBUG_LOG: debugLog },
    });
    const pid = Number(server.run(['display-message', '-p', '-t', pane, '#{pane_pid}']).trim());
    wrappers.push(pid);
    // One row more than the window for the status line, so the pane keeps its size.
    const client = server.attach(session, { cols: COLS, rows: ROWS + 1 });
    const shown = clientScreen(client, COLS, ROWS + 1);
    await pollUntil(() => server.capturePane(pane).includes('status: READY'), { description: 'the agent to draw' });
    await pollUntil(async () => (await shown()).includes('status: READY'), { description: 'the client to show the agent' });
    const screen = () => server.capturePane(pane, { escapes: true });
    const cursor = () => server.run(['display', '-p', '-t', pane, '#{cursor_x},#{cursor_y}']).trim();
    const received = () => (existsSync(record) ? readFileSync(record, 'latin1') : '');
    const type = (data: string) => client.write(data);
    const plain = () => server.capturePane(pane);
    const log = () => (existsSync(debugLog) ? readFileSync(debugLog, 'utf8') : '');
    const socket = join(base, 'state', 'sockets', `${pid}.sock`);
    return { pane, pid, transcript, screen, cursor, received, type, plain, shown, log, client, socket };
  }

  it('Enter in the popup pastes the chosen session as one bracketed paste (no CR); the pane never changes', async () => {
    const a = await start();
    const before = a.screen();
    const cursorBefore = a.cursor();
    a.type(PICK_KEY);
    await pollUntil(async () => (await a.shown()).includes('✦ session:') && (await a.shown()).includes('pi-tui'), { description: 'the popup with the session' });
    // tmux draws the popup on the client: the pane itself is untouched.
    expect(a.screen()).toBe(before);
    a.type('hello');
    await pollUntil(async () => /session: hello/.test(await a.shown()) && /\b1 session(?!s)/.test(await a.shown()), { description: 'the search' });
    a.type('\r');
    await pollUntil(() => a.received().includes('\x1b[201~'), { description: 'the paste to reach the agent' });
    const got = a.received();
    // Exactly one bracketed paste and nothing else: no pick key, no typed query, no Enter.
    expect(got.startsWith('\x1b[200~')).toBe(true);
    expect(got.endsWith('\x1b[201~')).toBe(true);
    expect(got.split('\x1b[200~')).toHaveLength(2);
    expect(got).not.toContain('\r');
    expect(got).toMatch(/^\x1b\[200~Earlier session @@\S+ \(pi, 2026-11-23 14:22 UTC\)\n/);
    expect(got).toContain('folder: /home/dev/proj/pi-tui\n');
    expect(got).toContain(`transcript: ${a.transcript}`);
    await pollUntil(async () => !(await a.shown()).includes('✦ session:'), { description: 'the popup to close' });
    expect(a.screen()).toBe(before);
    expect(a.cursor()).toBe(cursorBefore);
    await holdsFor(() => a.received() === got, { forMs: 300, description: 'nothing more to reach the agent' });
  });

  it('Esc closes the popup: capture-pane -e is byte-identical and the agent receives nothing', async () => {
    const a = await start();
    const before = a.screen();
    const cursorBefore = a.cursor();
    a.type(PICK_KEY);
    await pollUntil(async () => (await a.shown()).includes('✦ session:') && (await a.shown()).includes('pi-tui'), { description: 'the popup' });
    a.type('create');
    a.type('\x1b[B\x1b[A');
    await pollUntil(async () => (await a.shown()).includes('session: create'), { description: 'the query' });
    a.type('\x1b');
    await pollUntil(async () => !(await a.shown()).includes('✦ session:') && (await a.shown()).includes('status: READY'), { description: 'the popup to go' });
    expect(a.screen()).toBe(before);
    expect(a.cursor()).toBe(cursorBefore);
    expect(a.received()).toBe('');
    // Keys go to the agent again.
    a.type('x');
    await pollUntil(() => a.received() === 'x', { description: 'a key to reach the agent' });
  });

  it('keys typed right after the pick key go to the picker, not the agent', async () => {
    const a = await start();
    a.type(`${PICK_KEY}hello`); // one read: the key and the query before the popup can exist
    await pollUntil(async () => /session: hello/.test(await a.shown()), { description: 'the early keys in the popup query' });
    a.type('\x03'); // Ctrl-C cancels too
    await pollUntil(async () => !(await a.shown()).includes('✦ session:'), { description: 'the popup to go' });
    await holdsFor(() => a.received() === '', { forMs: 300, description: 'the agent to get nothing' });
  });

  it("the agent's output goes on under the popup, and the pane is the agent's after it", async () => {
    const a = await start({ agentArgs: ['--tick', '40'] });
    const tickOf = () => Number(/tick (\d+)/.exec(a.plain())?.[1] ?? 0);
    await pollUntil(() => tickOf() > 2, { description: 'the agent to tick' });
    a.type(PICK_KEY);
    await pollUntil(async () => (await a.shown()).includes('✦ session:'), { description: 'the popup' });
    const atOpen = tickOf();
    // Nothing is held for a popup: the counter moves in the pane while the popup is up.
    await pollUntil(() => tickOf() > atOpen + 5, { description: 'ticks while the popup is up' });
    a.type('\x1b');
    await pollUntil(async () => !(await a.shown()).includes('✦ session:'), { description: 'the popup to go' });
    expect(a.plain()).toContain('status: READY');
    expect(a.received()).toBe('');
  });

  it("the agent's exit ends the wrapper and closes the popup, with nothing pasted", async () => {
    const a = await start();
    setup.server.run(['set-option', '-w', '-t', a.pane, 'remain-on-exit', 'on']); // the client stays, and so would the popup
    a.type(PICK_KEY);
    await pollUntil(async () => (await a.shown()).includes('✦ session:'), { description: 'the popup' });
    const agentPid = Number(execFileSync('ps', ['-o', 'pid=', '--ppid', String(a.pid)], { encoding: 'utf8' }).trim().split('\n')[0]);
    expect(agentPid).toBeGreaterThan(0);
    process.kill(agentPid, 'SIGTERM');
    await pollUntil(() => !isProcessAlive(a.pid), { description: 'the wrapper to exit' });
    await pollUntil(async () => !(await a.shown()).includes('✦ session:'), { description: 'the popup to close' });
    expect(a.received()).toBe('');
    expect(a.log()).toContain('"outcome":"exited"');
  });

  it('a resize of the pane (a split) closes the popup with nothing pasted; keys reach the agent after', async () => {
    const a = await start();
    a.type(PICK_KEY);
    await pollUntil(async () => (await a.shown()).includes('✦ session:') && (await a.shown()).includes('pi-tui'), { description: 'the popup' });
    a.type('hello');
    await pollUntil(async () => /session: hello/.test(await a.shown()), { description: 'the query' });
    // -d: the agent's pane stays the active one, so the client's keys still go to it.
    setup.server.run(['split-window', '-d', '-v', '-l', '5', '-t', a.pane, 'cat']);
    await pollUntil(async () => !(await a.shown()).includes('✦ session:'), { description: 'the popup to close' });
    expect(a.log()).toContain('pane resized: popup closed');
    await holdsFor(() => a.received() === '', { forMs: 300, description: 'the agent to get nothing' });
    a.type('x');
    await pollUntil(() => a.received() === 'x', { description: 'a key to reach the agent' });
    // ...and the pick key opens a new popup.
    a.type(PICK_KEY);
    await pollUntil(async () => (await a.shown()).includes('✦ session:'), { description: 'a new popup' });
    a.type('\x1b');
    await pollUntil(async () => !(await a.shown()).includes('✦ session:'), { description: 'the popup to go' });
    expect(a.received()).toBe('x');
  });

  it('a paste over the control socket without the popup\'s token is refused, with a popup open or not', async () => {
    const a = await start();
    const paste = (token: string) => requestControl(a.socket, 'paste', 3000, { token, text: 'typed by someone else' });
    expect(await paste('0'.repeat(32))).toMatchObject({ ok: false, error: expect.stringContaining('no picker popup') });
    a.type(PICK_KEY);
    await pollUntil(async () => (await a.shown()).includes('✦ session:'), { description: 'the popup' });
    expect(await paste('0'.repeat(32))).toMatchObject({ ok: false });
    expect(await requestControl(a.socket, 'pick', 3000, { token: 'x' })).toMatchObject({ ok: false });
    a.type('\x1b');
    await pollUntil(async () => !(await a.shown()).includes('✦ session:'), { description: 'the popup to go' });
    expect(a.received()).toBe('');
  });

  it('before tmux 3.2 (no display-popup) the pick key says so in tmux and sends the agent nothing', async () => {
    // A tmux that calls itself 3.1 (`tmux -V`) and is the real one for everything else.
    const bin = join(setup.dir, 'old-tmux');
    mkdirSync(bin, { recursive: true });
    const real = execFileSync('sh', ['-c', 'command -v tmux'], { encoding: 'utf8' }).trim();
    writeFileSync(join(bin, 'tmux'), `#!/bin/sh\n[ "$1" = -V ] && { echo 'tmux 3.1c'; exit 0; }\nexec '${real}' "$@"\n`);
    chmodSync(join(bin, 'tmux'), 0o755);
    const a = await start({ pathFirst: bin });
    const before = a.screen();
    a.type(PICK_KEY);
    await pollUntil(async () => (await a.shown()).includes('needs tmux 3.2'), { description: 'the message on the client' });
    expect(a.log()).toContain('popup unavailable');
    expect(a.screen()).toBe(before);
    a.type('x');
    await pollUntil(() => a.received() === 'x', { description: 'the next key to reach the agent' });
  });

  it('an agent without bracketed paste gets the block as one line, with no CR or LF', async () => {
    const a = await start({ agentArgs: ['--no-paste'] });
    a.type(PICK_KEY);
    await pollUntil(async () => (await a.shown()).includes('pi-tui'), { description: 'the popup' });
    a.type('\r');
    await pollUntil(() => a.received().includes('transcript: '), { description: 'the text to reach the agent' });
    await pollUntil(() => a.received().endsWith('.jsonl'), { description: 'all of it' });
    expect(a.received()).not.toMatch(/[\r\n\x1b]/);
    expect(a.received()).toMatch(/^Earlier session @@\S+ \(pi, .*\) \| folder: \/home\/dev\/proj\/pi-tui \| headline: /);
  });

  it('a wrapper in tmux with the default pick key starts no screen copy and no worker thread for it', async () => {
    const plain = await start();
    const none = await start({ wrapArgs: ['--pick-key', 'none'] });
    const overlay = await start({ wrapArgs: ['--display', 'overlay'] });
    // The control: the overlay display sets up its screen copy (in the wrapper's own thread since #29),
    // which logs where the cursor was before the agent started; a tmux wrapper must not.
    await pollUntil(() => overlay.log().includes('"msg":"cursor at start"'), { description: 'the overlay wrapper to set up its copy' });
    expect(plain.log()).toContain('"msg":"attached"');
    expect(plain.log()).not.toContain('cursor at start');
    expect(plain.log()).not.toContain('screen copy');
    // Equal once both have settled (libuv's pool starts on first use); a worker would stay one more for good.
    if (!existsSync('/proc/self/task')) console.log('skip: thread count check (no /proc on this system)');
    else await pollUntil(() => threadsOf(plain.pid) === threadsOf(none.pid), { description: 'as many threads as with --pick-key none' });
    // ...and its pick key still opens the picker (in a popup), which pastes nothing on Esc.
    plain.type(PICK_KEY);
    await pollUntil(async () => (await plain.shown()).includes('✦ session:'), { description: 'the popup' });
    plain.type('\x1b');
    await pollUntil(async () => !(await plain.shown()).includes('✦ session:'), { description: 'the popup to go' });
    expect(plain.received()).toBe('');
  });

  describe('with the overlay display (the bar\'s screen copy), the picker is drawn in the pane', () => {
    it('Esc leaves the pane byte-identical and sends the agent nothing', async () => {
      const a = await start({ wrapArgs: ['--display', 'overlay'] });
      const before = a.screen();
      setup.server.run(['send-keys', '-t', a.pane, PICK_KEY_NAME]);
      await pollUntil(() => a.plain().includes('✦ session:') && a.plain().includes('pi-tui'), { description: 'the picker' });
      setup.server.run(['send-keys', '-t', a.pane, 'Escape']);
      await pollUntil(() => !a.plain().includes('✦ session:'), { description: 'the picker to go' });
      expect(a.screen()).toBe(before);
      expect(a.received()).toBe('');
    });

    it("the agent's output while it is up is held, then goes out in order: the screen is the agent's", async () => {
      const a = await start({ wrapArgs: ['--display', 'overlay'], agentArgs: ['--tick', '40'] });
      const tickOf = () => Number(/tick (\d+)/.exec(a.plain())?.[1] ?? 0);
      await pollUntil(() => tickOf() > 2, { description: 'the agent to tick' });
      const keys = (...k: string[]) => setup.server.run(['send-keys', '-t', a.pane, ...k]);
      keys(PICK_KEY_NAME);
      await pollUntil(() => a.plain().includes('✦ session:'), { description: 'the picker' });
      const frozen = tickOf();
      // The ticks are held while the picker is up: the top row must not move (nothing else can show it).
      await holdsFor(() => tickOf() === frozen, { forMs: 400, description: 'the held output not to reach the screen' });
      keys('Escape');
      await pollUntil(() => tickOf() > frozen + 10, { description: 'the held and new ticks to go out' });
      expect(a.plain()).not.toContain('✦ session:');
      expect(a.plain()).toContain('status: READY');
      expect(a.received()).toBe('');
    });

    it('a resize closes it: the agent redraws for the new size and gets no key', async () => {
      const a = await start({ wrapArgs: ['--display', 'overlay'] });
      const keys = (...k: string[]) => setup.server.run(['send-keys', '-t', a.pane, ...k]);
      keys(PICK_KEY_NAME);
      await pollUntil(() => a.plain().includes('✦ session:') && a.plain().includes('pi-tui'), { description: 'the picker' });
      setup.server.run(['send-keys', '-t', a.pane, '-l', 'cre']);
      a.client.kill(); // the client would hold the window at its own size
      setup.server.run(['resize-window', '-t', a.pane, '-x', '90', '-y', '26']);
      await pollUntil(() => !a.plain().includes('✦ session:') && a.plain().includes('status: READY'), { description: 'the picker to go and the agent to redraw' });
      expect(a.received()).toBe('');
      setup.server.run(['send-keys', '-t', a.pane, '-l', 'x']); // the picker let go of the keys
      await pollUntil(() => a.received() === 'x', { description: 'a key to reach the agent' });
    });
  });
});
