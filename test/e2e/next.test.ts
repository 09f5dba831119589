// `recapwrap next` end to end (#21): three wrapped fake agents in a private tmux server, each in its own
// window while you look at a fourth. One finishes a turn first, then two ask a question, one after the
// other. `next` (run as a key binding would, through run-shell) jumps to the question that has waited
// longest; from there, to the other. Outside tmux it prints the card; with nothing waiting it exits 1.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_BIN } from '../helpers/cli-pty.js';
import { pollUntil } from '../helpers/poll.js';
import { REPO_DIR } from '../helpers/shared.js';
import { tmuxAvailable, shellQuote } from '../helpers/tmux.js';
import { tmuxE2e, wrapperCommand } from '../helpers/tmux-e2e.js';

const hasTmux = tmuxAvailable();
const FAKE_AGENT = join(REPO_DIR, 'test', 'fixtures', 'bin', 'fake-agent.mjs');

describe.skipIf(!hasTmux)('recapwrap next', () => {
  const setup = tmuxE2e('rw-next', {
    afterKill: async () => {
      const stateDir = join(setup.dir, 'state');
      await pollUntil(() => !existsSync(stateDir) || readdirSync(stateDir).filter((n) => n.startsWith('live-')).length === 0, { timeoutMs: 10_000, description: 'the wrappers to exit' }).catch(() => undefined);
    },
  });

  it('jumps to the older of two waiting sessions, then to the other; prints the card outside tmux', async () => {
    const { dir, server } = setup;
    const stateDir = join(dir, 'state');
    server.newSession({ name: 'main', cols: 120, rows: 24, command: ['cat'] });
    server.run(['set', '-g', 'focus-events', 'on']);
    const start = (name: string): string => {
      const workspace = join(dir, name);
      mkdirSync(workspace, { recursive: true });
      return server.run([
        'new-window', '-d', '-P', '-F', '#{pane_id}', '-t', 'main', '-n', name,
        '-e', `PI_CODING_AGENT_DIR=${join(dir, 'pi-agent')}`,
        '-e', `RECAPWRAP_STATE_DIR=${stateDir}`,
        '-e', `RECAPWRAP_DEBUG_LOG=${join(dir, `${name}.log`)}`,
        ...wrapperCommand(workspace, ['--agent', 'pi', '--away', '600', '--generator', 'heuristic', '--', FAKE_AGENT]),
      ]).trim();
    };
    const panes = { a: start('a'), b: start('b'), c: start('c') };
    server.attach('main', { cols: 120, rows: 30 });
    for (const pane of Object.values(panes)) await pollUntil(() => server.capturePane(pane).includes('[fake-agent pi]'), { timeoutMs: 20_000, description: 'the agents to draw' });
    const states = () =>
      readdirSync(stateDir)
        .filter((n) => n.startsWith('live-') && n.endsWith('.json'))
        .map((n) => JSON.parse(readFileSync(join(stateDir, n), 'utf8')) as { tmuxPane: string; state: string; attention?: { event: string } | null });
    const stateOf = (pane: string) => states().find((s) => s.tmuxPane === pane);
    const say = (pane: string, line: string) => {
      server.run(['send-keys', '-t', pane, '-l', line]);
      server.run(['send-keys', '-t', pane, 'Enter']);
    };
    // c finishes a turn first (the oldest, but a finished turn ranks after questions); then a asks, then b.
    say(panes.c, 'turn fix the typo');
    await pollUntil(() => stateOf(panes.c)?.attention?.event === 'done', { timeoutMs: 20_000, description: 'c to want you (done)' });
    // A finished turn alone wants you too: `next` (outside tmux) finds it, `ls` marks it (read from the state file).
    const outside = { ...process.env, RECAPWRAP_STATE_DIR: stateDir, TMUX: '', TMUX_PANE: '' };
    const onlyDone = spawnSync(process.execPath, [CLI_BIN, 'next'], { encoding: 'utf8', env: outside });
    expect(onlyDone.stderr).toBe('');
    expect(onlyDone.stdout.split('\n')[0]).toMatch(new RegExp(`^pi · .*c · done \\d+s · tmux pane ${panes.c}$`));
    const ls = spawnSync(process.execPath, [CLI_BIN, 'ls', '--json'], { encoding: 'utf8', env: outside });
    expect((JSON.parse(ls.stdout) as Array<{ tmuxPane: string; attention?: { event: string } | null }>).find((s) => s.tmuxPane === panes.c)?.attention?.event).toBe('done');
    expect(spawnSync(process.execPath, [CLI_BIN, 'ls'], { encoding: 'utf8', env: { ...outside, COLUMNS: '160' } }).stdout).toContain('!done');
    for (const pane of [panes.a, panes.b]) {
      say(pane, 'prompt rename the flag');
      say(pane, 'done Which name do you prefer?');
      await pollUntil(() => stateOf(pane)?.attention?.event === 'waiting', { timeoutMs: 20_000, description: `${pane} to wait for you` });
    }

    const activePane = () => server.run(['display-message', '-p', '#{pane_id}']).trim();
    const next = (extra = '') => server.run(['run-shell', `RECAPWRAP_STATE_DIR=${shellQuote(stateDir)} ${shellQuote(process.execPath)} ${shellQuote(CLI_BIN)} next ${extra}`]);
    expect(activePane()).not.toBe(panes.a);
    next();
    await pollUntil(() => activePane() === panes.a, { description: 'next to jump to a (the older question)' });
    await pollUntil(() => stateOf(panes.a)?.attention === null, { description: 'a’s mark to clear once you are there' });
    next(`--from ${panes.a}`);
    await pollUntil(() => activePane() === panes.b, { description: 'next to jump to b' });

    // Outside tmux: the card of the session that waited longest (a still waits for its answer).
    const env = { ...process.env, RECAPWRAP_STATE_DIR: stateDir, TMUX: '', TMUX_PANE: '' };
    const out = execFileSync(process.execPath, [CLI_BIN, 'next'], { encoding: 'utf8', env });
    expect(out.split('\n')[0]).toMatch(new RegExp(`^pi · .*a · waiting \\d+s · tmux pane ${panes.a}$`));
    expect(out).toContain('Which name do you prefer?');

    // Nothing waits: exit 1 and one line.
    const empty = spawnSync(process.execPath, [CLI_BIN, 'next'], { encoding: 'utf8', env: { ...env, RECAPWRAP_STATE_DIR: join(dir, 'none') } });
    expect(empty.status).toBe(1);
    expect(empty.stdout).toBe('');
    expect(empty.stderr).toBe('recapwrap: no session is waiting for you\n');
  });
});
