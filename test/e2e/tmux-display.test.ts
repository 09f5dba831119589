// The tmux display on a private server: pane options for status lines, display-message on the
// attached client, and recap text that tries to run a tmux command or inject a style does neither.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearPaneRecapOptions, escapeForTmux, setPaneRecapOptions, tmuxDisplayMessage } from '../../src/display/tmux.js';
import { TmuxRecapDisplay } from '../../src/display/tmux-display.js';
import { pollUntil } from '../helpers/poll.js';
import { TmuxServer, tmuxAvailable } from '../helpers/tmux.js';

const hasTmux = tmuxAvailable();

describe.skipIf(!hasTmux)('tmux display', () => {
  let server: TmuxServer;
  let pane: string;
  let dir: string;
  let target: { pane: string; serverArgs: string[] };
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'rw-tmuxdisp-'));
    server = TmuxServer.create('rw-disp');
    pane = server.newSession({ name: 'main', command: ['sleep', '600'] });
    target = { pane, serverArgs: ['-L', server.socket, '-f', '/dev/null'] };
    server.run(['set', '-g', 'status-right-length', '200']);
    server.run(['set', '-g', 'status-right', '[#{@recap_state}] #{@recap}']);
  });
  afterAll(() => {
    server.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sets @recap, @recap_state and @recap_age in one call and clears them', async () => {
    expect(await setPaneRecapOptions(target, { recap: 'recap: added a flag. Next: docs.', state: 'idle', age: 'just now' })).toBe(true);
    expect(server.run(['show', '-pv', '-t', pane, '@recap']).trim()).toBe('recap: added a flag. Next: docs.');
    expect(server.run(['show', '-pv', '-t', pane, '@recap_state']).trim()).toBe('idle');
    expect(server.run(['show', '-pv', '-t', pane, '@recap_age']).trim()).toBe('just now');
    expect(await clearPaneRecapOptions(target)).toBe(true);
    expect(server.run(['show', '-p', '-t', pane]).includes('@recap')).toBe(false);
  });

  it('a transcript cannot run a tmux command or expand formats through @recap or display-message', async () => {
    const marker = join(dir, 'pwned');
    const hostile = `done #(touch ${marker}) #{pane_id} #[fg=red]x\x1b]2;title\x07 ;kill-server`;
    expect(await setPaneRecapOptions(target, { recap: hostile })).toBe(true);
    const client = server.attach('main', { cols: 200, rows: 10 });
    await tmuxDisplayMessage(target, hostile, 2000);
    // Expanding the option the way a user's status line might, even with E:, must not run anything.
    server.run(['display-message', '-p', '-t', pane, '#{E:@recap}']);
    await pollUntil(() => client.output().includes('done'), { description: 'the status line on the client' });
    await new Promise((r) => setTimeout(r, 1200)); // #() jobs run asynchronously: give one a chance to appear
    expect(existsSync(marker)).toBe(false);
    const stored = server.run(['show', '-pv', '-t', pane, '@recap']).trim();
    expect(stored).toBe(escapeForTmux(hostile));
    expect(stored).not.toContain('\x1b');
    expect(server.run(['display-message', '-p', '-t', pane, '#{E:@recap}']).trim()).toBe(`done #(touch ${marker}) #{pane_id} ##[fg=red]x ;kill-server`); // `##[` stays for the status renderer, which draws it as a literal `#[`
    expect(server.run(['list-sessions']).includes('main')).toBe(true);
    client.kill();
  });

  it('display-message shows the recap on the attached client', async () => {
    const client = server.attach('main', { cols: 120, rows: 10 });
    await pollUntil(() => client.output().length > 0, { description: 'client drawn' });
    const display = new TmuxRecapDisplay(target);
    display.show('recap: wrote hello.txt. Next: run the tests.');
    display.setState('waiting');
    await pollUntil(() => client.output().includes('recap: wrote hello.txt. Next: run the tests.'), { description: 'the message on the client' });
    await pollUntil(() => server.run(['show', '-pv', '-t', pane, '@recap_state']).trim() === 'waiting', { description: '@recap_state' });
    await display.dispose();
    expect(server.run(['show', '-p', '-t', pane]).includes('@recap')).toBe(false);
    client.kill();
  });
});
