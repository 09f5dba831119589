// Attention end to end in a private tmux server (#21): a fake agent that writes a real pi transcript
// runs under recapwrap in window 0. Asked a question while you look at it: nothing. You switch to window
// 1; the agent asks again: the away pane's window gets tmux's bell flag and @recap_attention=waiting
// (pane and window), the user's notify command runs once with the event; coming back clears the marks.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pollUntil } from '../helpers/poll.js';
import { REPO_DIR } from '../helpers/shared.js';
import { tmuxAvailable, shellQuote } from '../helpers/tmux.js';
import { isProcessAlive } from '../../src/util/process.js';
import { tmuxE2e, wrapperCommand } from '../helpers/tmux-e2e.js';

const hasTmux = tmuxAvailable();
const FAKE_AGENT = join(REPO_DIR, 'test', 'fixtures', 'bin', 'fake-agent.mjs');

describe.skipIf(!hasTmux)('attention in tmux', () => {
  let wrapperPid: number | undefined;
  const setup = tmuxE2e('rw-attn', {
    afterKill: async () => {
      if (wrapperPid) await pollUntil(() => !isProcessAlive(wrapperPid as number), { timeoutMs: 10_000, description: 'the wrapper to exit' }).catch(() => undefined);
    },
  });

  it('marks and rings the away pane’s window when the agent asks, never while you look, and clears on return', async () => {
    const { dir, server } = setup;
    const workspace = join(dir, 'work');
    const events = join(dir, 'events.txt');
    const stateDir = join(dir, 'state');
    const debugLogFile = join(dir, 'debug.log');
    // A first session keeps the server up while focus-events is set before the wrapper starts.
    server.newSession({ name: 'main', cols: 120, rows: 24, command: ['cat'] });
    server.run(['set', '-g', 'focus-events', 'on']);
    const pane = server.run([
      'new-window', '-d', '-P', '-F', '#{pane_id}', '-t', 'main:1',
      '-e', `PI_CODING_AGENT_DIR=${join(dir, 'pi-agent')}`,
      '-e', `RECAPWRAP_STATE_DIR=${stateDir}`,
      '-e', `RECAPWRAP_DEBUG_LOG=${debugLogFile}`,
      '-e', `RECAPWRAP_NOTIFY=auto,command:printf '%s %s\\n' "$RECAPWRAP_EVENT" "$RECAPWRAP_AGENT" >> ${shellQuote(events)}`,
      ...wrapperCommand(workspace, ['--agent', 'pi', '--away', '600', '--generator', 'heuristic', '--', FAKE_AGENT], { mkdir: true }),
    ]).trim();
    wrapperPid = Number(server.run(['display-message', '-p', '-t', pane, '#{pane_pid}']).trim());
    server.run(['select-window', '-t', 'main:1']);
    const client = server.attach('main', { cols: 120, rows: 30 });
    await pollUntil(() => server.capturePane(pane).includes('[fake-agent pi]'), { timeoutMs: 20_000, description: 'the fake agent to draw' });
    const debugLog = () => (existsSync(debugLogFile) ? readFileSync(debugLogFile, 'utf8') : '');
    const attention = (flag: '-p' | '-w', target: string) => {
      try {
        return server.run(['show', flag, '-v', '-t', target, '@recap_attention']).trim();
      } catch {
        return '';
      }
    };
    const liveState = () => {
      const name = readdirSync(stateDir).find((n) => n.startsWith('live-') && n.endsWith('.json'));
      return name ? (JSON.parse(readFileSync(join(stateDir, name), 'utf8')) as { state: string; attention?: { event: string } | null }) : undefined;
    };
    await pollUntil(() => debugLog().includes('focus in'), { timeoutMs: 20_000, description: 'the wrapper to see its pane focused' });
    const say = (line: string) => {
      server.run(['send-keys', '-t', pane, '-l', line]);
      server.run(['send-keys', '-t', pane, 'Enter']);
    };

    // Focused: the agent asks a question while you look at it. Nothing.
    say('prompt add a verbose flag');
    say('done Shall I also add a quiet flag?');
    await pollUntil(() => liveState()?.state === 'waiting', { timeoutMs: 20_000, description: 'the session to wait (focused)' });
    await pollUntil(() => debugLog().includes('"reason":"focused"'), { description: 'the transition to be seen and not notified' });
    expect(attention('-p', pane)).toBe('');
    expect(attention('-w', pane)).toBe('');
    expect(liveState()?.attention ?? null).toBeNull();
    expect(existsSync(events)).toBe(false);

    // Away: another window; the agent asks again.
    const bellsBefore = (client.output().match(/\x07/g) ?? []).length;
    server.run(['select-window', '-t', 'main:0']);
    await pollUntil(() => debugLog().includes('focus out'), { description: 'the wrapper to see its pane lose focus' });
    expect(server.run(['display-message', '-p', '-t', pane, '#{window_bell_flag}']).trim()).toBe('0');
    say('prompt yes please');
    say('done Which name should the quiet flag have?');
    await pollUntil(() => attention('-p', pane) === 'waiting', { timeoutMs: 20_000, description: '@recap_attention=waiting on the pane' });
    expect(attention('-w', pane)).toBe('waiting');
    await pollUntil(() => server.run(['display-message', '-p', '-t', pane, '#{window_bell_flag}']).trim() === '1', { description: 'tmux to flag the window’s bell' });
    expect(liveState()?.attention?.event).toBe('waiting');
    await pollUntil(() => existsSync(events) && readFileSync(events, 'utf8'), { description: 'the notify command to run' });
    expect(readFileSync(events, 'utf8')).toBe('waiting pi\n');
    // The agent's screen got no stray bytes: its last line is intact.
    expect(server.capturePane(pane)).toMatch(/^OK done\n\[fake-agent pi\] idle · 2 turns >\n$/m);
    // tmux's own bell to the client is its business (bell-action any); this only shows it happened.
    expect((client.output().match(/\x07/g) ?? []).length).toBeGreaterThanOrEqual(bellsBefore);

    // Back: focusing the pane clears the marks.
    server.run(['select-window', '-t', 'main:1']);
    await pollUntil(() => attention('-p', pane) === '' && attention('-w', pane) === '', { description: 'the marks to clear on focus' });
    await pollUntil(() => liveState()?.attention === null, { description: 'the state file to drop the mark' });
    expect(readFileSync(events, 'utf8')).toBe('waiting pi\n');

    say('quit');
    await pollUntil(() => readdirSync(stateDir).filter((n) => n.startsWith('live-')).length === 0, { timeoutMs: 20_000, description: 'the state file to go' });
  });
});
