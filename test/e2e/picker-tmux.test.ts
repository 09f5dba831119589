// The reference picker end to end in a private tmux server: a full-screen fake agent (alternate screen,
// bracketed paste, a saved cursor) runs under recapwrap; the pick key opens the picker over it, a search
// finds a session of the index (a real pi transcript in a throwaway home), Enter pastes its reference
// block as exactly one bracketed paste with no CR, and Esc leaves the pane byte-identical. The agent
// records every byte it receives: it never gets a key of the picker.
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { holdsFor, pollUntil } from '../helpers/poll.js';
import { REPO_DIR } from '../helpers/shared.js';
import { tmuxAvailable } from '../helpers/tmux.js';
import { tmuxE2e, wrapperCommand } from '../helpers/tmux-e2e.js';
import { isProcessAlive } from '../../src/util/process.js';

const hasTmux = tmuxAvailable();
const AGENT = join(REPO_DIR, 'test', 'fixtures', 'bin', 'fullscreen-agent.mjs');
const TRANSCRIPT = join(REPO_DIR, 'test', 'fixtures', 'transcripts', 'pi', 'interactive-2turns.jsonl');
const PICK_KEY = 'C-\\'; // the default pickKey, Ctrl-\ (tmux send-keys name)

describe.skipIf(!hasTmux)('reference picker in tmux', () => {
  const wrappers: number[] = [];
  const setup = tmuxE2e('rw-picker', {
    // The wrappers remove their state files as the server dies: wait for them before the folder goes.
    afterKill: () => pollUntil(() => wrappers.every((pid) => !isProcessAlive(pid)), { timeoutMs: 10_000, description: 'the wrappers to exit' }).catch(() => undefined),
  });
  let n = 0;

  // A wrapper running the full-screen agent in a fresh pane, with a home whose pi folder holds one session.
  async function start(options: { display?: string; agentArgs?: string[] } = {}) {
    const { dir, server } = setup;
    const base = join(dir, `run-${++n}`);
    const home = join(base, 'home');
    const piSessions = join(home, '.pi', 'agent', 'sessions', '--home-dev-proj-pi-tui--');
    mkdirSync(piSessions, { recursive: true });
    const transcript = join(piSessions, '2026-11-23T14-22-08-561Z_01a208c9-20ac-75b4-b286-fdc8465df4a0.jsonl');
    copyFileSync(TRANSCRIPT, transcript);
    const record = join(base, 'input.bin');
    const args = [...(options.display ? ['--display', options.display] : []), '--agent', 'pi', '--', AGENT, '--record', record, ...(options.agentArgs ?? [])];
    const pane = server.newSession({
      name: `p${n}`,
      cols: 100,
      rows: 30,
      command: wrapperCommand(join(base, 'work'), args, { mkdir: true }),
      env: { HOME: home, RECAPWRAP_STATE_DIR: join(base, 'state'), RECAPWRAP_DEBUG_LOG: join(base, 'debug.log') },
    });
    wrappers.push(Number(server.run(['display-message', '-p', '-t', pane, '#{pane_pid}']).trim()));
    await pollUntil(() => server.capturePane(pane).includes('status: READY'), { description: 'the agent to draw' });
    const screen = () => server.capturePane(pane, { escapes: true });
    const cursor = () => server.run(['display', '-p', '-t', pane, '#{cursor_x},#{cursor_y}']).trim();
    const received = () => (existsSync(record) ? readFileSync(record, 'latin1') : '');
    const keys = (...k: string[]) => server.run(['send-keys', '-t', pane, ...k]);
    const text = (t: string) => server.run(['send-keys', '-t', pane, '-l', t]);
    const plain = () => server.capturePane(pane);
    return { pane, transcript, screen, cursor, received, keys, text, plain };
  }

  it('Enter pastes the chosen session as one bracketed paste (no CR) and the screen is as before', async () => {
    const a = await start();
    const before = a.screen();
    const cursorBefore = a.cursor();
    a.keys(PICK_KEY);
    await pollUntil(() => a.plain().includes('✦ session:') && a.plain().includes('pi-tui'), { description: 'the picker with the session' });
    a.text('hello');
    await pollUntil(() => /session: hello/.test(a.plain()) && a.plain().includes('1 sessions'), { description: 'the search' });
    a.keys('Enter');
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
    await pollUntil(() => a.screen() === before, { description: 'the pane to be as before' });
    expect(a.cursor()).toBe(cursorBefore);
  });

  it('Esc leaves the pane byte-identical and sends the agent nothing', async () => {
    const a = await start();
    const before = a.screen();
    const cursorBefore = a.cursor();
    a.keys(PICK_KEY);
    await pollUntil(() => a.plain().includes('✦ session:') && a.plain().includes('pi-tui'), { description: 'the picker' });
    a.text('create');
    a.keys('Down', 'Up');
    await pollUntil(() => a.plain().includes('session: create'), { description: 'the query' });
    a.keys('Escape');
    await pollUntil(() => !a.plain().includes('✦ session:'), { description: 'the picker to go' });
    expect(a.screen()).toBe(before);
    expect(a.cursor()).toBe(cursorBefore);
    expect(a.received()).toBe('');
    // Keys go to the agent again.
    a.text('x');
    await pollUntil(() => a.received() === 'x', { description: 'a key to reach the agent' });
  });

  it('the same with the overlay display (the bar\'s screen copy) inside tmux', async () => {
    const a = await start({ display: 'overlay' });
    const before = a.screen();
    a.keys(PICK_KEY);
    await pollUntil(() => a.plain().includes('✦ session:') && a.plain().includes('pi-tui'), { description: 'the picker' });
    a.keys('Escape');
    await pollUntil(() => !a.plain().includes('✦ session:'), { description: 'the picker to go' });
    expect(a.screen()).toBe(before);
    expect(a.received()).toBe('');
  });

  it("the agent's output while it is up is held, then goes out in order: the screen is the agent's", async () => {
    const a = await start({ agentArgs: ['--tick', '40'] });
    const tickOf = () => Number(/tick (\d+)/.exec(a.plain())?.[1] ?? 0);
    await pollUntil(() => tickOf() > 2, { description: 'the agent to tick' });
    const before = a.screen().split('\n').slice(1);
    const cursorBefore = a.cursor();
    a.keys(PICK_KEY);
    await pollUntil(() => a.plain().includes('✦ session:'), { description: 'the picker' });
    const frozen = tickOf();
    // The ticks are held while the picker is up: the top row must not move (nothing else can show it).
    await holdsFor(() => tickOf() === frozen, { forMs: 400, description: 'the held output not to reach the screen' });
    a.keys('Escape');
    await pollUntil(() => tickOf() > frozen + 10, { description: 'the held and new ticks to go out' });
    // Apart from the counter, every row is as the agent drew it.
    expect(a.screen().split('\n').slice(1)).toEqual(before);
    expect(a.cursor()).toBe(cursorBefore);
    expect(a.plain()).not.toContain('✦ session:');
    expect(a.plain()).toContain('status: READY');
    expect(a.received()).toBe('');
  });

  it('a resize closes it: the agent redraws for the new size and gets no key', async () => {
    const a = await start();
    a.keys(PICK_KEY);
    await pollUntil(() => a.plain().includes('✦ session:') && a.plain().includes('pi-tui'), { description: 'the picker' });
    a.text('cre');
    setup.server.run(['resize-window', '-t', a.pane, '-x', '90', '-y', '26']);
    await pollUntil(() => !a.plain().includes('✦ session:') && a.plain().includes('status: READY'), { description: 'the picker to go and the agent to redraw' });
    expect(a.received()).toBe('');
    a.text('x'); // the picker let go of the keys
    await pollUntil(() => a.received() === 'x', { description: 'a key to reach the agent' });
  });

  it('an agent without bracketed paste gets the block as one line, with no CR or LF', async () => {
    const a = await start({ agentArgs: ['--no-paste'] });
    a.keys(PICK_KEY);
    await pollUntil(() => a.plain().includes('pi-tui'), { description: 'the picker' });
    a.keys('Enter');
    await pollUntil(() => a.received().includes('transcript: '), { description: 'the text to reach the agent' });
    await pollUntil(() => a.received().endsWith('.jsonl'), { description: 'all of it' });
    expect(a.received()).not.toMatch(/[\r\n\x1b]/);
    expect(a.received()).toMatch(/^Earlier session @@\S+ \(pi, .*\) \| folder: \/home\/dev\/proj\/pi-tui \| headline: /);
  });
});
