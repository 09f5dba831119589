// The tmux display on a private server: pane options for status lines, display-message on the
// attached client, and recap text that tries to run a tmux command or inject a style does neither.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearPaneRecapOptions, escapeForTmux, setPaneRecapOptions, tmuxDisplayMessage } from '../../src/display/tmux.js';
import { TmuxRecapDisplay } from '../../src/display/tmux-display.js';
import { viewRecapLine } from '../../src/app/wrap/live-recap.js';
import { displayWidth } from '../../src/util/text-width.js';
import { VirtualTerminal } from '../fakes/virtual-terminal.js';
import { holdsFor, pollUntil } from '../helpers/poll.js';
import { TmuxServer, tmuxAvailable } from '../helpers/tmux.js';
import { tmuxE2e } from '../helpers/tmux-e2e.js';

const hasTmux = tmuxAvailable();

describe.skipIf(!hasTmux)('tmux display', () => {
  const setup = tmuxE2e('rw-disp', { built: false });
  let pane: string;
  let target: { pane: string; serverArgs: string[] };
  beforeAll(() => {
    const { server } = setup;
    pane = server.newSession({ name: 'main', command: ['sleep', '600'] });
    target = { pane, serverArgs: ['-L', server.socket, '-f', '/dev/null'] };
    server.run(['set', '-g', 'status-right-length', '200']);
    server.run(['set', '-g', 'status-right', '[#{@recap_state}] #{@recap}']);
  });

  it('sets @recap, @recap_state and @recap_age in one call and clears them', async () => {
    const { server } = setup;
    expect(await setPaneRecapOptions(target, { recap: 'recap: added a flag. Next: docs.', state: 'idle', age: 'just now' })).toBe(true);
    expect(server.run(['show', '-pv', '-t', pane, '@recap']).trim()).toBe('recap: added a flag. Next: docs.');
    expect(server.run(['show', '-pv', '-t', pane, '@recap_state']).trim()).toBe('idle');
    expect(server.run(['show', '-pv', '-t', pane, '@recap_age']).trim()).toBe('just now');
    expect(await clearPaneRecapOptions(target)).toBe(true);
    expect(server.run(['show', '-p', '-t', pane]).includes('@recap')).toBe(false);
  });

  it('a transcript cannot run a tmux command or expand formats through @recap or display-message', async () => {
    const { dir, server } = setup;
    const marker = join(dir, 'pwned');
    // A #() job of our own beside the hostile text on main's status line: once it has run, so has any
    // job that status line started (they start together, when the line is drawn).
    const canary = join(dir, 'canary');
    server.run(['set', '-t', 'main', 'status-left', `#(touch ${canary})`]);
    const hostile = `done #(touch ${marker}) #{pane_id} #[fg=red]x\x1b]2;title\x07 ;kill-server`;
    expect(await setPaneRecapOptions(target, { recap: hostile })).toBe(true);
    const client = server.attach('main', { cols: 200, rows: 10 });
    await tmuxDisplayMessage(target, hostile, 2000);
    // Expanding the option the way a user's status line might, even with E:, must not run anything.
    server.run(['display-message', '-p', '-t', pane, '#{E:@recap}']);
    await pollUntil(() => client.output().includes('done'), { description: 'the status line on the client' });
    await pollUntil(() => existsSync(canary), { timeoutMs: 5000, description: 'our own #() job to have run' });
    server.run(['set', '-u', '-t', 'main', 'status-left']);
    // Jobs run asynchronously: a short look past the canary, failing the moment the marker appears.
    await holdsFor(() => !existsSync(marker), { forMs: 200, description: 'no job from the hostile text' });
    const stored = server.run(['show', '-pv', '-t', pane, '@recap']).trim();
    expect(stored).toBe(escapeForTmux(hostile));
    expect(stored).not.toContain('\x1b');
    expect(server.run(['display-message', '-p', '-t', pane, '#{E:@recap}']).trim()).toBe(`done #(touch ${marker}) #{pane_id} ##[fg=red]x ;kill-server`); // `##[` stays for the status renderer, which draws it as a literal `#[`
    expect(server.run(['list-sessions']).includes('main')).toBe(true);
    client.kill();
  });

  it('display-message shows the recap on the attached client', async () => {
    const { server } = setup;
    const client = server.attach('main', { cols: 120, rows: 10 });
    await pollUntil(() => client.output().length > 0, { description: 'client drawn' });
    const display = new TmuxRecapDisplay(target);
    display.show(viewRecapLine('recap: wrote hello.txt. Next: run the tests.'));
    display.setState('waiting');
    await pollUntil(() => client.output().includes('recap: wrote hello.txt. Next: run the tests.'), { description: 'the message on the client' });
    await pollUntil(() => server.run(['show', '-pv', '-t', pane, '@recap_state']).trim() === 'waiting', { description: '@recap_state' });
    await display.dispose();
    expect(server.run(['show', '-p', '-t', pane]).includes('@recap')).toBe(false);
    client.kill();
  });

  // #17: display-message fits the client's width while @recap keeps the full line. #19.13: only clients
  // that have the pane on screen get the message, labelled with whose it is when it is not their pane.
  describe('per client', () => {
    const LONG =
      'recap: migrated four of the seven billing tables to the v2 schema and the invoices table still fails its foreign key constraint. Next: fix the foreign key on line 142 and rerun the migration tests.';
    const COLS = 60;
    let agentPane: string;
    let otherPane: string;
    let client: ReturnType<TmuxServer['attach']>;
    let screen: VirtualTerminal;
    let fed = 0;
    const statusRow = async () => {
      const out = client.output();
      if (out.length > fed) {
        await screen.write(out.slice(fed));
        fed = out.length;
      }
      await screen.settled();
      return screen.row(screen.rows - 1);
    };
    const t = () => ({ pane: agentPane, serverArgs: ['-L', setup.server.socket, '-f', '/dev/null'] });
    beforeAll(async () => {
      const { server } = setup;
      agentPane = server.newSession({ name: 'multi', cols: COLS, rows: 10, command: ['sleep', '600'] });
      otherPane = server.splitWindow(agentPane, ['sleep', '600']);
      server.run(['new-window', '-d', '-t', 'multi', 'sleep 600']);
      server.run(['set', '-t', 'multi', 'status-right', '']);
      server.run(['set', '-t', 'multi', 'status-left', '']);
      client = server.attach('multi', { cols: COLS, rows: 10 });
      screen = new VirtualTerminal(COLS, 10);
      await pollUntil(() => server.run(['list-clients', '-F', '#{client_name}']).trim().length > 0, { description: 'the client to attach' });
    });
    afterAll(() => {
      client.kill();
      screen.dispose();
    });

    it('@recap holds the full line; the message on the client is composed for its width and keeps Next:', async () => {
      const { server } = setup;
      server.run(['select-window', '-t', 'multi:0']);
      server.run(['select-pane', '-t', agentPane]);
      const display = new TmuxRecapDisplay(t(), { whose: { agent: 'pi', folder: 'billing' } });
      const view = viewRecapLine(LONG);
      display.show(view);
      await pollUntil(async () => (await statusRow()).startsWith('recap: '), { description: 'the message on the status line' });
      const row = await statusRow();
      expect(row.trimEnd()).toBe(display.messageFor(view, COLS, true));
      expect(displayWidth(row)).toBeLessThanOrEqual(COLS);
      expect(row).toContain('Next: ');
      expect(server.run(['show', '-pv', '-t', agentPane, '@recap']).trim()).toBe(LONG);
      // A clear that is not a key (the turn under a "working: …" line ended) takes the message off.
      display.clear('other');
      await pollUntil(async () => !(await statusRow()).startsWith('recap'), { timeoutMs: 3000, description: 'the message to go' });
      await display.dispose();
    });

    it('labels the recap with the agent and folder when the pane is on screen but not the current one', async () => {
      const { server } = setup;
      server.run(['select-window', '-t', 'multi:0']);
      server.run(['select-pane', '-t', otherPane]);
      const display = new TmuxRecapDisplay(t(), { whose: { agent: 'pi', folder: 'billing' } });
      display.show(viewRecapLine(LONG));
      await pollUntil(async () => (await statusRow()).startsWith('recap (pi · billing): '), { description: 'the labelled message' });
      const row = await statusRow();
      expect(displayWidth(row)).toBeLessThanOrEqual(COLS);
      expect(row).toContain('Next: ');
      display.clear('other');
      await pollUntil(async () => !(await statusRow()).startsWith('recap'), { timeoutMs: 3000, description: 'the message to go' });
      await display.dispose();
    });

    it('shows no message to a client looking at another window, or when another pane is zoomed', async () => {
      const { server } = setup;
      for (const arrange of [
        () => server.run(['select-window', '-t', 'multi:1']),
        () => {
          server.run(['select-window', '-t', 'multi:0']);
          server.run(['select-pane', '-t', otherPane]);
          server.run(['resize-pane', '-Z', '-t', otherPane]);
        },
      ]) {
        arrange();
        const display = new TmuxRecapDisplay(t(), { whose: { agent: 'pi', folder: 'billing' } });
        const line = `recap: hidden ${Math.random().toString(36).slice(2)}. Next: nothing.`;
        display.show(viewRecapLine(line));
        await pollUntil(() => server.run(['show', '-pv', '-t', agentPane, '@recap']).trim() === line, { description: '@recap set' });
        // Stays: nothing shows that a message was NOT sent. It would be up within a few ms of the
        // option; look for far longer, failing the moment it shows.
        await holdsFor(async () => !(await statusRow()).includes('recap'), { forMs: 700, intervalMs: 50, description: 'no message on the client' });
        expect(client.output()).not.toContain('hidden');
        await display.dispose();
      }
      server.run(['resize-pane', '-Z', '-t', otherPane]);
    });
  });
});
