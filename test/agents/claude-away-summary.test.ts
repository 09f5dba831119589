// The real Claude Code CLI writes its own recap, the away summary, while you are away (#34): under
// recapwrap (agentRecaps use, the default) the return draws no second bar and @recap holds Claude's
// words. Claude makes it 3 minutes after the last turn ended, a delay nothing outside can shorten
// (docs/agent-recaps.md), so this test waits that long.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAUDE_AWAY_SUMMARY, startAgentModelServer, type AgentModelServer } from '../fakes/agent-model-server.js';
import { agentE2eSkipped, installAgentCli } from '../helpers/agent-cli.js';
import { prepareAgentHome } from '../helpers/agent-home.js';
import { assertBuilt, CLI_BIN } from '../helpers/cli-pty.js';
import { pollUntil } from '../helpers/poll.js';
import { shellQuote, tmuxAvailable, TmuxServer } from '../helpers/tmux.js';
import { endAgentRun } from '../helpers/agent-run.js';

const read = (file: string) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
};

describe.skipIf(agentE2eSkipped() || !tmuxAvailable())("Claude Code's away summary under recapwrap (real CLI)", () => {
  let dir: string;
  let bin: string;
  let model: AgentModelServer;
  let tmux: TmuxServer;

  beforeAll(async () => {
    assertBuilt();
    bin = installAgentCli('claude');
    dir = mkdtempSync(join(tmpdir(), 'rw-agent-claude-away-'));
    model = await startAgentModelServer();
    tmux = TmuxServer.create('rw-agent-claude-away');
  }, 15 * 60_000);

  afterAll(() => endAgentRun({ tmux, model, dir }));

  it('one recap: Claude’s own, in @recap, no bar of recapwrap’s and no model call of its own', async () => {
    const home = join(dir, 'home');
    const work = join(dir, 'proj');
    mkdirSync(home);
    mkdirSync(work);
    const log = join(dir, 'debug.log');
    const env = { ...prepareAgentHome('claude', { home, model, trusted: [work] }), HOME: home, RECAPWRAP_STATE_DIR: join(dir, 'state'), RECAPWRAP_DEBUG_LOG: log, PATH: `${join(bin, '..')}:${process.env.PATH}` };
    const exports = Object.entries(env).map(([k, v]) => `export ${k}=${shellQuote(v)}`).join('\n');
    // generator agent: a recap of recapwrap's own would be a model call (`claude -p`), seen by the fake model.
    const wrapped = [process.execPath, CLI_BIN, '--away', '2', '--generator', 'agent', bin, '--allowedTools', 'Bash,Write'].map(shellQuote).join(' ');
    writeFileSync(join(dir, 'run.sh'), `${exports}\ncd ${shellQuote(work)}\n${wrapped}\n`);
    const pane = tmux.newSession({ name: 'main', cols: 120, rows: 36, command: ['sh'] });
    tmux.run(['set', '-g', 'focus-events', 'on']);
    const other = tmux.splitWindow(pane, ['sh']);
    tmux.run(['select-pane', '-t', pane]);
    tmux.attach('main', { cols: 120, rows: 36 });
    const screen = () => tmux.capturePane(pane);
    const keys = (...k: string[]) => tmux.run(['send-keys', '-t', pane, ...k]);
    const type = async (text: string) => {
      keys('-l', text);
      await new Promise((r) => setTimeout(r, 300));
      keys('Enter');
    };
    const transcript = () => {
      const root = join(home, '.claude', 'projects');
      const files = (() => {
        try {
          return readdirSync(root, { recursive: true }).map(String).filter((f) => f.endsWith('.jsonl'));
        } catch {
          return [];
        }
      })();
      return files.map((f) => read(join(root, f))).join('');
    };
    const why = () => `\n--- pane ---\n${screen()}\n--- debug log (tail) ---\n${read(log).slice(-3000)}`;
    const wait = <T>(fn: () => T, timeoutMs: number, what: string) => pollUntil(fn, { timeoutMs, description: what }).catch((e: Error) => {
      throw new Error(e.message + why());
    });

    keys('-l', `sh ${shellQuote(join(dir, 'run.sh'))}`);
    keys('Enter');
    await wait(() => /❯/.test(screen()), 90_000, 'Claude Code to be ready');
    // Two turns, each a tool call: 4 user messages (Claude's minimum is 3).
    await type('please create hello.txt');
    await wait(() => (transcript().match(/"subtype":"turn_duration"/g) ?? []).length >= 1, 90_000, 'the first turn');
    await type('now list the files with ls');
    await wait(() => (transcript().match(/"subtype":"turn_duration"/g) ?? []).length >= 2, 90_000, 'the second turn');
    const requestsBefore = model.requests.length;

    // Away: Claude writes its away summary 3 minutes after the turn ended.
    tmux.run(['select-pane', '-t', other]);
    await wait(() => transcript().includes('"subtype":"away_summary"'), 260_000, "Claude Code's away summary in its transcript");
    expect(transcript()).toContain(CLAUDE_AWAY_SUMMARY);
    const want = `recap: ${CLAUDE_AWAY_SUMMARY}`;
    const option = () => {
      try {
        return tmux.run(['show', '-pv', '-t', pane, '@recap']).trim();
      } catch {
        return '';
      }
    };
    await wait(() => option() === want, 10_000, "@recap to hold Claude's own recap");

    // Back: Claude shows its own (its "※ recap:" row); recapwrap draws nothing: no show action at all.
    tmux.run(['select-pane', '-t', pane]);
    await wait(() => /"msg":"focus in","forwarded":true/.test(read(log)), 10_000, 'the return to reach recapwrap');
    // Claude draws its row once it sees the return (later on a busy machine): waited for, not slept on.
    // Read off the pane (the raw client output has Claude's colour and cursor codes inside the row).
    await wait(() => /※ recap: .*Goal: write hello\.txt/.test(screen()), 60_000, "Claude's own recap row on the screen");
    await wait(() => /"msg":"the agent's own recap"/.test(read(log)), 10_000, "recapwrap to take the agent's own recap");
    expect(read(log)).not.toMatch(/"msg":"show"/);
    // The fake model saw Claude's own side call and nothing of recapwrap's (no `claude -p` recap).
    const after = model.requests.slice(requestsBefore).map((r) => JSON.stringify(r.body));
    expect(after.some((b) => b.includes('stepped away'))).toBe(true);
    expect(after.some((b) => b.includes('<<<TRANSCRIPT'))).toBe(false);
    expect(option()).toBe(want);
    keys('-l', '/exit');
    await new Promise((r) => setTimeout(r, 300));
    keys('Enter');
    // The agent and the wrapper gone before the folder is removed.
    await wait(() => /"msg":"recap machinery stopped"/.test(read(log)), 30_000, 'the wrapper to exit');
  }, 8 * 60_000);
});
