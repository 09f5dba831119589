// The real Qwen Code CLI with its own away recap on (general.showSessionRecap, threshold 0.05 min): it
// makes its recap when you come back, after recapwrap has its own (#34). Under recapwrap (agentRecaps
// use) the return draws no bar of recapwrap's (Qwen's rule covers it), and once Qwen's recap is in its
// session file it replaces recapwrap's in @recap. Qwen counts only prompts typed between turns, so each
// prompt waits for the previous answer.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FINAL_ANSWER, startAgentModelServer, type AgentModelServer } from '../fakes/agent-model-server.js';
import { agentE2eSkipped, installAgentCli } from '../helpers/agent-cli.js';
import { prepareAgentHome } from '../helpers/agent-home.js';
import { assertBuilt, CLI_BIN } from '../helpers/cli-pty.js';
import { pollUntil } from '../helpers/poll.js';
import { shellQuote, tmuxAvailable, TmuxServer } from '../helpers/tmux.js';
import { endAgentRun } from '../helpers/agent-run.js';

/** What the fake model answers a request without tools (Qwen's recap side query), inside its tags. */
const QWEN_RECAP = 'the agent wrote hello.txt for you (fake model). Next: check hello.txt.';

const read = (file: string) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
};

describe.skipIf(agentE2eSkipped() || !tmuxAvailable())("Qwen Code's away recap under recapwrap (real CLI)", () => {
  let dir: string;
  let bin: string;
  let model: AgentModelServer;
  let tmux: TmuxServer;

  beforeAll(async () => {
    assertBuilt();
    bin = installAgentCli('qwen');
    dir = mkdtempSync(join(tmpdir(), 'rw-agent-qwen-away-'));
    model = await startAgentModelServer();
    tmux = TmuxServer.create('rw-agent-qwen-away');
  }, 15 * 60_000);

  afterAll(() => endAgentRun({ tmux, model, dir }));

  it("no bar of recapwrap's on a return Qwen recaps itself; Qwen's words replace recapwrap's in @recap", async () => {
    const home = join(dir, 'home');
    const work = join(dir, 'proj');
    mkdirSync(home);
    mkdirSync(work);
    const agentEnv = prepareAgentHome('qwen', { home, model, trusted: [work] });
    const log = join(dir, 'debug.log');
    // Its own recap on, after 3 s away (the user's settings file; recapwrap only reads it).
    const settingsFile = join(home, '.qwen', 'settings.json');
    const settings = JSON.parse(readFileSync(settingsFile, 'utf8')) as { general?: object };
    writeFileSync(settingsFile, JSON.stringify({ ...settings, general: { ...settings.general, showSessionRecap: true, sessionRecapAwayThresholdMinutes: 0.05 } }));
    const env = { ...agentEnv, HOME: home, RECAPWRAP_STATE_DIR: join(dir, 'state'), RECAPWRAP_DEBUG_LOG: log, RECAPWRAP_DRAFT_DEBOUNCE_MS: '200', PATH: `${join(bin, '..')}:${process.env.PATH}` };
    const exports = Object.entries(env).map(([k, v]) => `export ${k}=${shellQuote(v)}`).join('\n');
    const wrapped = [process.execPath, CLI_BIN, '--away', '2', '--generator', 'heuristic', bin].map(shellQuote).join(' ');
    writeFileSync(join(dir, 'run.sh'), `${exports}\ncd ${shellQuote(work)}\n${wrapped}\n`);
    const pane = tmux.newSession({ name: 'main', cols: 120, rows: 36, command: ['sh'] });
    tmux.run(['set', '-g', 'focus-events', 'on']);
    const other = tmux.splitWindow(pane, ['sh']);
    tmux.run(['select-pane', '-t', pane]);
    tmux.attach('main', { cols: 120, rows: 36 });
    const screen = () => tmux.capturePane(pane);
    const keys = (...k: string[]) => tmux.run(['send-keys', '-t', pane, ...k]);
    const transcript = () => {
      const root = join(home, '.qwen', 'projects');
      try {
        return readdirSync(root, { recursive: true }).map(String).filter((f) => f.endsWith('.jsonl')).map((f) => read(join(root, f))).join('');
      } catch {
        return '';
      }
    };
    const answers = () =>
      transcript().split('\n').filter((l) => {
        try {
          const r = JSON.parse(l) as { type?: string; message?: { parts?: Array<{ text?: string }> } };
          return r.type === 'assistant' && (r.message?.parts ?? []).some((p) => p.text === FINAL_ANSWER);
        } catch {
          return false;
        }
      }).length;
    const why = () => `\n--- pane ---\n${screen()}\n--- debug log (tail) ---\n${read(log).slice(-3000)}`;
    const wait = <T>(fn: () => T, timeoutMs: number, what: string) => pollUntil(fn, { timeoutMs, description: what }).catch((e: Error) => {
      throw new Error(e.message + why());
    });
    const option = () => {
      try {
        return tmux.run(['show', '-pv', '-t', pane, '@recap']).trim();
      } catch {
        return '';
      }
    };

    keys('-l', `sh ${shellQuote(join(dir, 'run.sh'))}`);
    keys('Enter');
    await wait(() => /Type your message/.test(screen()), 90_000, "Qwen Code's TUI to be ready");
    // Three prompts (Qwen's minimum), each a tool call and an answer.
    const prompts = ['please create hello.txt', 'now list the files with ls', 'list them once more with ls'];
    for (const [i, prompt] of prompts.entries()) {
      keys('-l', prompt);
      await new Promise((r) => setTimeout(r, 500));
      keys('Enter');
      // One answer per turn (the text also shows up in other records): a prompt typed mid-turn would not count as Qwen's.
      await wait(() => answers() > i, 90_000, `turn ${i + 1}`);
    }
    await new Promise((r) => setTimeout(r, 2000));

    // Away past both thresholds (recapwrap's 2 s, Qwen's 3 s), back.
    tmux.run(['select-pane', '-t', other]);
    await new Promise((r) => setTimeout(r, 4500));
    tmux.run(['select-pane', '-t', pane]);
    await wait(() => transcript().includes('"away_recap"'), 30_000, "Qwen Code's away recap in its session file");
    await wait(() => option() === `recap: ${QWEN_RECAP}`, 10_000, "@recap to hold Qwen's own recap");
    const debug = read(log);
    expect(debug).toMatch(/"msg":"recap without a bar"/);
    expect(debug).toMatch(/"msg":"the agent's own recap"/);
    expect(debug).not.toMatch(/"msg":"show"/);
    keys('-l', '/quit');
    await new Promise((r) => setTimeout(r, 300));
    keys('Enter');
    // The agent and the wrapper gone before the folder is removed.
    await wait(() => /"msg":"recap machinery stopped"/.test(read(log)), 30_000, 'the wrapper to exit');
  }, 5 * 60_000);
});
