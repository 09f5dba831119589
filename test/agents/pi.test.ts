// The real pi CLI (installed from npm at a pinned version, outside the repo) under recapwrap, inside a
// private tmux server with focus-events on, against a fake model on 127.0.0.1: type a prompt, switch
// away while the turn completes, come back after the threshold and read the recap naming the file pi
// wrote; a key clears it and reaches pi; `/new` moves recapwrap to the new file; exit leaves the shell
// clean with pi's exit code. Then the `agent` generator against pi's one-off mode.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentModelServer, type AgentModelServer } from '../fakes/agent-model-server.js';
import { installAgentCli } from '../helpers/agent-cli.js';
import { assertBuilt, CLI_BIN } from '../helpers/cli-pty.js';
import { pollUntil } from '../helpers/poll.js';
import { shellQuote, TmuxServer, tmuxAvailable } from '../helpers/tmux.js';

const hasTmux = tmuxAvailable();

describe.skipIf(!hasTmux)('pi under recapwrap (real CLI)', () => {
  let dir: string;
  let home: string;
  let work: string;
  let piBin: string;
  let model: AgentModelServer;
  let tmux: TmuxServer;
  let env: Record<string, string>;

  beforeAll(async () => {
    assertBuilt();
    piBin = installAgentCli('pi');
    dir = mkdtempSync(join(tmpdir(), 'rw-agent-pi-'));
    home = join(dir, 'home');
    work = join(dir, 'proj');
    mkdirSync(join(home, '.pi', 'agent'), { recursive: true });
    mkdirSync(work);
    model = await startAgentModelServer();
    const provider = { baseUrl: model.baseUrl, api: 'openai-completions', apiKey: 'fake-key', compat: { supportsDeveloperRole: false, supportsReasoningEffort: false }, models: [{ id: 'fake-model', reasoning: false, contextWindow: 128000, maxTokens: 4096 }] };
    writeFileSync(join(home, '.pi', 'agent', 'models.json'), JSON.stringify({ providers: { fake: provider } }));
    writeFileSync(join(home, '.pi', 'agent', 'settings.json'), JSON.stringify({ defaultProvider: 'fake', defaultModel: 'fake-model' }));
    env = { HOME: home, PI_OFFLINE: '1', RECAPWRAP_STATE_DIR: join(dir, 'state'), RECAPWRAP_DEBUG_LOG: join(dir, 'debug.log'), RECAPWRAP_DRAFT_DEBOUNCE_MS: '200', PATH: `${join(piBin, '..')}:${process.env.PATH}` };
    tmux = TmuxServer.create('rw-agent-pi');
  }, 15 * 60_000);

  afterAll(async () => {
    tmux?.kill();
    await model?.close();
    if (dir) rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  });

  it('shows the recap on return, naming the file pi wrote; a key clears it and reaches pi; /new is followed; exit is clean', async () => {
    const shellPane = tmux.newSession({ name: 'main', cols: 120, rows: 30, command: ['sh'], env });
    tmux.run(['set', '-g', 'focus-events', 'on']);
    const otherPane = tmux.splitWindow(shellPane, ['sh'], env);
    tmux.run(['select-pane', '-t', shellPane]);
    const client = tmux.attach('main', { cols: 120, rows: 30 });
    const pane = shellPane;
    const screen = () => tmux.capturePane(pane);
    const recapOption = () => tmux.run(['show', '-pqv', '-t', pane, '@recap']).trim();
    const debug = () => `\n--- pane ---\n${screen()}\n--- debug log ---\n${safeRead(join(dir, 'debug.log')).slice(-3000)}`;

    // The environment goes on the command line: a login shell's profile may reset what tmux passes.
    const exports = Object.entries(env).map(([k, v]) => `${k}=${shellQuote(v)}`).join(' ');
    tmux.run(['send-keys', '-t', pane, '-l', `cd ${shellQuote(work)} && env ${exports} ${shellQuote(process.execPath)} ${shellQuote(CLI_BIN)} --away 2 --generator heuristic ${shellQuote(piBin)}; echo "EXIT=$?"`]);
    tmux.run(['send-keys', '-t', pane, 'Enter']);
    await pollUntil(() => /fake-model/.test(screen()), { timeoutMs: 60_000, description: `pi's TUI to start${debug()}` }).catch((e: Error) => {
      throw new Error(e.message + debug());
    });

    // Type a prompt, then switch away while pi works.
    tmux.run(['send-keys', '-t', pane, '-l', 'please create hello.txt']);
    tmux.run(['send-keys', '-t', pane, 'Enter']);
    tmux.run(['select-pane', '-t', otherPane]);
    const sessionDir = () => join(home, '.pi', 'agent', 'sessions', `--${work.replace(/^\//, '').replace(/\//g, '-')}--`);
    const sessionFiles = () => safeList(sessionDir());
    await pollUntil(() => sessionFiles().some((f) => /Done: hello\.txt/.test(safeRead(join(sessionDir(), f)))), { timeoutMs: 60_000, description: 'pi to finish the turn' });
    expect(readFileSync(join(work, 'hello.txt'), 'utf8')).toBe('hello from the fake model\n');
    await new Promise((r) => setTimeout(r, 2500)); // past --away 2

    // Come back: the recap is shown and names the file.
    tmux.run(['select-pane', '-t', pane]);
    await pollUntil(() => /hello\.txt/.test(recapOption()), { timeoutMs: 15_000, description: `@recap to name hello.txt${debug()}` });
    expect(recapOption()).toMatch(/^recap: "please create hello\.txt"/);
    await pollUntil(() => /recap: "please create hello\.txt"/.test(client.output()), { timeoutMs: 5000, description: 'the recap on the client’s screen' });

    // A key reaches pi (its editor shows it) and the agent's screen is intact.
    const beforeKey = screen();
    tmux.run(['send-keys', '-t', pane, '-l', 'z']);
    await pollUntil(() => screen() !== beforeKey && /z/.test(screen()), { timeoutMs: 5000, description: 'the key to reach pi' });
    expect(screen()).toContain('write hello.txt');
    tmux.run(['send-keys', '-t', pane, 'BSpace']);

    // /new: pi switches to a new session file, and recapwrap follows it.
    const firstFile = sessionFiles()[0];
    tmux.run(['send-keys', '-t', pane, '-l', '/new']);
    tmux.run(['send-keys', '-t', pane, 'Enter']);
    await new Promise((r) => setTimeout(r, 1000));
    tmux.run(['send-keys', '-t', pane, '-l', 'now list the files with ls']);
    tmux.run(['send-keys', '-t', pane, 'Enter']);
    await pollUntil(() => sessionFiles().length === 2, { timeoutMs: 60_000, description: 'a second session file after /new' });
    const liveState = () => {
      const name = safeList(join(dir, 'state')).find((n) => n.startsWith('live-'));
      return name ? (JSON.parse(safeRead(join(dir, 'state', name)) || '{}') as { sessionFile?: string }) : {};
    };
    await pollUntil(() => liveState().sessionFile && !liveState().sessionFile!.endsWith(firstFile!), { timeoutMs: 20_000, description: `recapwrap to follow /new${debug()}` });

    // Exit pi (Ctrl-D on an empty editor): the shell prints pi's exit code and no stray focus reports.
    await pollUntil(() => /Done: hello\.txt/.test(screen()) || /Want me to add more files/.test(screen()), { timeoutMs: 60_000, description: 'the second turn to finish' });
    tmux.run(['send-keys', '-t', pane, 'C-d']);
    await pollUntil(() => /EXIT=\d+/.test(screen()), { timeoutMs: 20_000, description: `pi to exit${debug()}` });
    tmux.run(['select-pane', '-t', otherPane]);
    tmux.run(['select-pane', '-t', pane]);
    await new Promise((r) => setTimeout(r, 500));
    expect(screen()).toMatch(/EXIT=0/);
    expect(screen()).not.toMatch(/\^\[\[[IO]/);
  }, 5 * 60_000);

  it('the agent generator asks pi in one-off mode: no tools sent, no session file left', async () => {
    const sessionsBefore = countFiles(join(home, '.pi', 'agent', 'sessions'));
    const before = model.requests.length;
    const firstFile = readdirSync(join(home, '.pi', 'agent', 'sessions'), { recursive: true }).map(String).find((f) => f.endsWith('.jsonl'))!;
    // Asynchronously: the fake model server runs in this process and must keep answering.
    const r = await runCli(['recap', '--session', join(home, '.pi', 'agent', 'sessions', firstFile), '--generator', 'agent'], { ...process.env, ...env });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('recap: the agent wrote hello.txt for you (fake model). Next: check hello.txt.\n');
    const sent = model.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body.tools ?? []).toEqual([]);
    expect(countFiles(join(home, '.pi', 'agent', 'sessions'))).toBe(sessionsBefore);
  }, 2 * 60_000);
});

function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<{ stdout: string; stderr: string; code: number | null }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI_BIN, ...args], { env, encoding: 'utf8' }, (error, stdout, stderr) => resolve({ stdout, stderr, code: error ? (typeof error.code === 'number' ? error.code : 1) : 0 }));
  });
}

function safeRead(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function safeList(d: string): string[] {
  try {
    return readdirSync(d).sort();
  } catch {
    return [];
  }
}

function countFiles(d: string): number {
  try {
    return readdirSync(d, { recursive: true }).filter((f) => String(f).endsWith('.jsonl')).length;
  } catch {
    return 0;
  }
}
