// `recapwrap recap --pane` against a live wrapper in a private tmux server (#18 point 9): --format card
// and json are honoured, --session beside --pane is a usage error, and tmux.conf.example's prefix+R on
// a pane without recapwrap shows the real reason as a tmux message, not run-shell's "returned 1" view.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_BIN } from '../helpers/cli-pty.js';
import { pollUntil } from '../helpers/poll.js';
import { REPO_DIR } from '../helpers/shared.js';
import { shellQuote, tmuxAvailable } from '../helpers/tmux.js';
import { tmuxE2e, wrapperCommand } from '../helpers/tmux-e2e.js';

const hasTmux = tmuxAvailable();
const DEMO_AGENT = join(REPO_DIR, 'bin', 'demo-agent.js');

describe.skipIf(!hasTmux)('recap --pane', () => {
  const setup = tmuxE2e('rw-rpane');
  let env: Record<string, string>;
  beforeAll(() => {
    const { dir } = setup;
    // `recapwrap` on PATH, as the key binding calls it.
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'recapwrap'), `#!/bin/sh\nexec ${shellQuote(process.execPath)} ${shellQuote(CLI_BIN)} "$@"\n`);
    chmodSync(join(bin, 'recapwrap'), 0o755);
    env = { PATH: `${bin}:${process.env.PATH}`, HOME: join(dir, 'home'), PI_CODING_AGENT_DIR: join(dir, 'pi'), RECAPWRAP_STATE_DIR: join(dir, 'state'), RECAPWRAP_DEMO_STEP_MS: '100' };
  });
  afterAll(() => {
    const { dir, server } = setup;
    server.kill();
    rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  });

  const cli = (args: string[]) => spawnSync(process.execPath, [CLI_BIN, ...args], { encoding: 'utf8', env: { ...process.env, ...env, TMUX: '', TMUX_PANE: '' } });

  it('honours --format card and json, and refuses --session beside --pane', async () => {
    const { dir, server } = setup;
    const work = join(dir, 'work');
    mkdirSync(work);
    const pane = server.newSession({ name: 'main', cols: 120, rows: 24, command: wrapperCommand(work, ['--agent', 'pi', '--generator', 'heuristic', '--', DEMO_AGENT]), env });
    await pollUntil(() => server.capturePane(pane).includes('demo agent'), { timeoutMs: 10_000, description: 'the demo agent' });
    server.run(['send-keys', '-t', pane, 'Enter']);
    await pollUntil(() => server.capturePane(pane).includes('want me to?'), { timeoutMs: 15_000, description: 'the turn to end' });
    const json = await pollUntil(() => {
      const r = cli(['recap', '--pane', pane, '--format', 'json', '--generator', 'heuristic']);
      return r.status === 0 ? r.stdout : undefined;
    }, { timeoutMs: 10_000, description: 'a JSON recap of the pane' });
    const recap = JSON.parse(json) as { line: string; session: { agent: string; file: string }; status: string };
    expect(recap.session.agent).toBe('pi');
    expect(recap.line).toContain('src/cli.ts');
    const card = cli(['recap', '--pane', pane, '--format', 'card', '--generator', 'heuristic']);
    expect(card.status).toBe(0);
    expect(card.stdout).toContain('What happened');
    expect(card.stdout).toContain('Next\n');
    const line = cli(['recap', '--pane', pane]);
    expect(line.status).toBe(0);
    expect(line.stdout).toMatch(/^recap: /);
    const both = cli(['recap', '--pane', pane, '--session', '/x.jsonl']);
    expect({ code: both.status, err: both.stderr }).toEqual({ code: 2, err: 'recapwrap: --pane and --session both name a session; give one of them\n' });
  });

  it('prefix+R from tmux.conf.example on a pane without recapwrap shows why, with no view mode', async () => {
    const { dir, server } = setup;
    const plain = server.run(['new-window', '-d', '-P', '-F', '#{pane_id}', '-t', 'main', 'sh']).trim();
    const bind = readFileSync(join(REPO_DIR, 'tmux.conf.example'), 'utf8').split('\n').find((l) => l.startsWith('bind R '));
    expect(bind).toBeDefined();
    const confFile = join(dir, 'bind.conf');
    writeFileSync(confFile, `${bind}\n`);
    server.run(['source-file', confFile]);
    for (const [k, v] of Object.entries(env)) server.run(['set-environment', '-g', k, v]);
    server.run(['select-window', '-t', plain]);
    const client = server.attach('main', { cols: 120, rows: 24 });
    await pollUntil(() => client.output().length > 0, { description: 'the client to draw' });
    const seen = client.output().length;
    client.write('\x02R'); // prefix (C-b) then R
    await pollUntil(() => client.output().slice(seen).includes(`no live recapwrap in pane ${plain}`), { timeoutMs: 10_000, description: 'the reason as a tmux message' });
    // The job ends after the message: give run-shell time to open its view mode, had it a reason to.
    const inMode = () => execFileSync('tmux', ['-L', server.socket, 'display-message', '-p', '-t', plain, '#{pane_in_mode}'], { encoding: 'utf8' }).trim();
    const shownAt = Date.now();
    await pollUntil(() => inMode() === '1' || Date.now() - shownAt > 3000, { description: 'the binding to finish' });
    expect(inMode()).toBe('0');
    expect(client.output().slice(seen)).not.toContain('returned 1');
  });
});
