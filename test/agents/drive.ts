/**
 * One end-to-end scenario for every real agent CLI, driven in a private tmux server with focus-events
 * on, against the fake model on 127.0.0.1: start the agent under recapwrap from a shell, type a prompt,
 * switch to another pane while the turn completes, come back after the threshold and read the recap
 * (it must name hello.txt, the file the agent wrote); a key reaches the agent; focus reports reached
 * the agent if it asked for them; `/new` or `/clear` moves recapwrap to the new file; the agent exits
 * with its code and the shell shows no stray focus reports. Plus the `agent` generator against the
 * CLI's one-off mode. Each agent file only says how its CLI is set up.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startAgentModelServer, type AgentModelServer } from '../fakes/agent-model-server.js';
import { installAgentCli, type AgentCli } from '../helpers/agent-cli.js';
import { prepareAgentHome } from '../helpers/agent-home.js';
import { assertBuilt, CLI_BIN } from '../helpers/cli-pty.js';
import { holdsFor, pollUntil } from '../helpers/poll.js';
import { shellQuote, TmuxServer } from '../helpers/tmux.js';
import { endAgentRun } from '../helpers/agent-run.js';

export interface AgentScenario {
  agent: AgentCli;
  /** Arguments after the agent's name. */
  args?: string[];
  /** The TUI is ready for a prompt. */
  ready: RegExp;
  /** Starts a new conversation in the running agent. */
  newCommand: '/new' | '/clear';
  /** Keys (tmux send-keys arguments, one call each) that make the agent exit. */
  exitKeys: string[][];
  /** How long the agent needs after the new-conversation command before it takes typing (default 1500 ms). */
  settleAfterNewMs?: number;
  /**
   * What the agent writes to its session file when the model API fails a turn (HTTP 400, not retried);
   * when given, the scenario also fails a turn and expects the recap to say so.
   */
  apiErrorMarker?: RegExp;
  /** Whether the agent turns on focus reporting (then recapwrap must forward focus reports). */
  wantsFocus: boolean;
  /** The one-off mode still offers tools (Gemini CLI's headless mode offers read-only ones). */
  oneOffOffersTools?: boolean;
  /** Session files the one-off recap must not add to (glob root). */
  sessionRoot(home: string, work: string): string;
}

interface LiveState {
  sessionFile?: string | null;
}

function read(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function countJsonl(dir: string): number {
  try {
    return readdirSync(dir, { recursive: true }).filter((f) => /\.jsonl?$/.test(String(f))).length;
  } catch {
    return 0;
  }
}

function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<{ stdout: string; stderr: string }> {
  // Asynchronous: the fake model server lives in this process and must keep answering.
  return new Promise((resolve) => execFile(process.execPath, [CLI_BIN, ...args], { env, encoding: 'utf8', timeout: 120_000 }, (_e, stdout, stderr) => resolve({ stdout, stderr })));
}

export function defineAgentScenario(s: AgentScenario): void {
  let dir: string;
  let home: string;
  let work: string;
  let bin: string;
  let model: AgentModelServer;
  let tmux: TmuxServer;
  let env: Record<string, string>;
  const stateDir = () => join(dir, 'state');
  const debugFile = () => join(dir, 'debug.log');
  const liveState = (): LiveState => {
    try {
      const name = readdirSync(stateDir()).find((n) => n.startsWith('live-') && n.endsWith('.json'));
      return name ? (JSON.parse(read(join(stateDir(), name)) || '{}') as LiveState) : {};
    } catch {
      return {};
    }
  };

  beforeAll(async () => {
    assertBuilt();
    // Fails loudly, naming the agent, when npm cannot install it.
    bin = installAgentCli(s.agent);
    dir = mkdtempSync(join(tmpdir(), `rw-agent-${s.agent}-`));
    home = join(dir, 'home');
    work = join(dir, 'proj');
    mkdirSync(home);
    mkdirSync(work);
    model = await startAgentModelServer();
    env = {
      ...prepareAgentHome(s.agent, { home, model, trusted: [work] }),
      HOME: home,
      RECAPWRAP_STATE_DIR: stateDir(),
      RECAPWRAP_DEBUG_LOG: debugFile(),
      RECAPWRAP_DRAFT_DEBOUNCE_MS: '200',
      PATH: `${join(bin, '..')}:${process.env.PATH}`,
    };
    tmux = TmuxServer.create(`rw-agent-${s.agent}`);
  }, 15 * 60_000);

  afterAll(() => endAgentRun({ tmux, model, dir }));

  it(`${s.agent}: recap on return names the file written; keys and focus reach the agent; ${s.newCommand} is followed; clean exit`, async () => {
    const pane = tmux.newSession({ name: 'main', cols: 120, rows: 36, command: ['sh'] });
    tmux.run(['set', '-g', 'focus-events', 'on']);
    const other = tmux.splitWindow(pane, ['sh']);
    tmux.run(['select-pane', '-t', pane]);
    const client = tmux.attach('main', { cols: 120, rows: 36 });
    const screen = () => tmux.capturePane(pane);
    const recapOption = () => tmux.run(['show', '-pqv', '-t', pane, '@recap']).trim();
    const why = () => `\n--- pane ---\n${screen()}\n--- recapwrap debug log (tail) ---\n${read(debugFile()).slice(-2500)}\n--- model requests: ${model.requests.map((r) => r.path).join(' ')}`;
    const wait = <T>(fn: () => T, timeoutMs: number, what: string) =>
      pollUntil(fn, { timeoutMs, description: what }).catch((e: Error) => {
        throw new Error(e.message + why());
      });
    const keys = (...k: string[]) => tmux.run(['send-keys', '-t', pane, ...k]);
    const type = (text: string) => {
      keys('-l', text);
      keys('Enter');
    };
    // A prompt to the model: the text, then Enter once the agent has drawn it. Gemini CLI takes an Enter
    // that comes within its paste window as a new line of the draft (seen on a loaded machine even 300 ms
    // after the text): when no model request follows, the prompt is still a draft, and Enter is pressed again.
    const asked = () => model.requests.filter((q) => !/count_tokens|countTokens/.test(q.path)).length;
    const ask = async (text: string) => {
      const sent = asked();
      keys('-l', text);
      await wait(() => screen().includes(text), 20_000, `${s.agent} to draw the typed prompt`);
      for (let tries = 0; ; tries++) {
        keys('Enter');
        try {
          await pollUntil(() => asked() > sent, { timeoutMs: 10_000, description: 'a model request' });
          return;
        } catch (error) {
          if (tries >= 2) throw new Error(`${(error as Error).message}${why()}`);
        }
      }
    };

    // A launcher script sets the environment (a login shell's profile may reset what tmux passes) and
    // keeps the typed line short, so nothing on screen but the agent's own output matches `ready`.
    const exports = Object.entries(env).map(([k, v]) => `export ${k}=${shellQuote(v)}`).join('\n');
    const wrapped = [process.execPath, CLI_BIN, '--away', '2', '--generator', 'heuristic', bin, ...(s.args ?? [])].map(shellQuote).join(' ');
    writeFileSync(join(dir, 'run.sh'), `${exports}\ncd ${shellQuote(work)}\n${wrapped}\necho "EXIT=$?"\n`);
    type(`sh ${shellQuote(join(dir, 'run.sh'))}`);
    await wait(() => s.ready.test(screen()), 90_000, `${s.agent}'s TUI to be ready`);

    // A prompt, then away while the agent works.
    await ask('please create hello.txt');
    tmux.run(['select-pane', '-t', other]);
    await wait(() => /Done: hello\.txt/.test(read(liveState().sessionFile ?? '')), 90_000, `${s.agent} to finish the turn in the session file recapwrap follows`);
    expect(read(join(work, 'hello.txt')), read(liveState().sessionFile ?? '').slice(-3000)).toBe('hello from the fake model\n');
    await new Promise((r) => setTimeout(r, 2500)); // past --away 2

    // Back: the recap is shown and names the file.
    tmux.run(['select-pane', '-t', pane]);
    await wait(() => /hello\.txt/.test(recapOption()), 20_000, '@recap to name hello.txt');
    // State first, then the outcome in the agent's words (the extractive heuristic, #17).
    expect(recapOption()).toMatch(/^recap: (\S+ · )?(waiting for you|done)\b.*hello\.txt/i);
    await wait(() => /recap: (\S+ · )?(waiting for you|done)/.test(client.output()), 5000, 'the recap on the client’s screen');
    if (s.wantsFocus) {
      const log = read(debugFile());
      expect(log).toMatch(/"msg":"focus out","forwarded":true/);
      expect(log).toMatch(/"msg":"focus in","forwarded":true/);
    }

    // A key reaches the agent.
    const before = screen();
    keys('-l', 'z');
    await wait(() => screen() !== before, 5000, 'the key to reach the agent');
    keys('BSpace');

    // A new conversation: recapwrap follows the agent to its new file.
    const first = liveState().sessionFile;
    // Typed text and Enter apart: Gemini CLI takes an Enter that arrives with the text as pasted.
    keys('-l', s.newCommand);
    await wait(() => screen().includes(s.newCommand), 20_000, `${s.agent} to draw ${s.newCommand}`);
    await new Promise((r) => setTimeout(r, 300));
    keys('Enter');
    await new Promise((r) => setTimeout(r, s.settleAfterNewMs ?? 1500));
    await ask('now list the files with ls');
    await wait(() => {
      const now = liveState().sessionFile;
      return Boolean(now && now !== first && /Done: hello\.txt/.test(read(now)));
    }, 90_000, `recapwrap to follow ${s.newCommand} to the new file`);

    // The model API fails the next turn: the recap on return says so.
    if (s.apiErrorMarker) {
      const marker = s.apiErrorMarker;
      model.failNext = 400;
      await ask('and now list them again');
      tmux.run(['select-pane', '-t', other]);
      await wait(() => marker.test(read(liveState().sessionFile ?? '')), 60_000, `${s.agent} to record the failed turn`);
      await new Promise((r) => setTimeout(r, 2500));
      tmux.run(['select-pane', '-t', pane]);
      await wait(() => /API error/.test(recapOption()), 20_000, '@recap to tell of the API error');
      expect(recapOption()).toMatch(/^recap: API error( 400)?\b.*fake failure 400/);
    }

    // Exit: the shell shows the agent's exit code and no stray focus reports.
    for (const k of s.exitKeys) {
      keys(...k);
      await new Promise((r) => setTimeout(r, 400));
    }
    await wait(() => /EXIT=\d+/.test(screen()), 30_000, `${s.agent} to exit`);
    tmux.run(['select-pane', '-t', other]);
    tmux.run(['select-pane', '-t', pane]);
    expect(screen()).toMatch(/EXIT=0/);
    // The focus changes just made must not print a report at the shell prompt (nothing to wait for: a negative).
    await holdsFor(() => !/\^\[\[[IO]/.test(screen()), { forMs: 500, intervalMs: 50, description: 'no stray focus report at the shell' });
  }, 6 * 60_000);

  it(`${s.agent}: the agent generator uses the one-off mode: ${s.oneOffOffersTools ? 'read-only tools at most' : 'no tools sent'}, no session file left`, async () => {
    const files = readdirSync(s.sessionRoot(home, work), { recursive: true }).map(String).filter((f) => /\.jsonl?$/.test(f));
    // The conversation of the first test (agents keep other JSON beside it: Gemini's logs.json has the prompts too).
    const session = join(s.sessionRoot(home, work), files.find((f) => f.endsWith('.jsonl') && read(join(s.sessionRoot(home, work), f)).includes('please create hello.txt'))!);
    const before = countJsonl(s.sessionRoot(home, work));
    const sent = model.requests.length;
    const r = await runCli(['recap', '--session', session, '--generator', 'agent', '--agent', s.agent], { ...process.env, ...env });
    expect(r.stderr).toBe('');
    // The line format prints the recap text composed for the width (no `recap:` label: that is the JSON line's).
    expect(r.stdout).toMatch(/^the agent wrote hello\.txt for you \(fake model\)\. Next: check hello\.txt\.\n$/);
    const asked = model.requests.slice(sent).filter((q) => !/count_tokens|countTokens/.test(q.path));
    expect(asked.length).toBeGreaterThanOrEqual(1);
    if (!s.oneOffOffersTools) for (const q of asked) expect(q.body.tools ?? []).toEqual([]);
    expect(countJsonl(s.sessionRoot(home, work))).toBe(before);
  }, 3 * 60_000);
}
