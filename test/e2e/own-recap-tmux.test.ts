// One recap, not two (#34), end to end in a private tmux server: a stand-in for Claude Code that writes
// its own away summary while you are away (test/fixtures/bin/fake-agent.mjs --own-recap) runs under
// recapwrap. With agentRecaps use (the default) the return draws no second bar, and @recap, status,
// recap --pane and the session index carry the agent's words; with both, recapwrap's bar is drawn too;
// with replace, the agent is started with its recap off (CLAUDE_CODE_ENABLE_AWAY_SUMMARY=0) and
// recapwrap's bar is the recap.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isProcessAlive } from '../../src/util/process.js';
import { CLI_BIN } from '../helpers/cli-pty.js';
import { pollUntil } from '../helpers/poll.js';
import { REPO_DIR } from '../helpers/shared.js';
import { tmuxAvailable } from '../helpers/tmux.js';
import { tmuxE2e, wrapperCommand } from '../helpers/tmux-e2e.js';

const FAKE_AGENT = join(REPO_DIR, 'test', 'fixtures', 'bin', 'fake-agent.mjs');
const OWN = 'Goal: count the demo runs for the report. Next action: confirm the 178 runs with the user.';

describe.skipIf(!tmuxAvailable())("the agent's own recap in tmux (#34)", () => {
  const wrappers: number[] = [];
  const setup = tmuxE2e('rw-own', {
    afterKill: async () => {
      for (const pid of wrappers) await pollUntil(() => !isProcessAlive(pid), { timeoutMs: 10_000, description: 'the wrapper to exit' }).catch(() => undefined);
    },
  });

  // One run: two turns, away until the stand-in wrote its summary (or long enough), back; what the pane and tmux show.
  async function run(name: string, mode: 'use' | 'both' | 'replace') {
    const { dir, server } = setup;
    const state = join(dir, `state-${name}`);
    const work = join(dir, `work-${name}`);
    const log = join(dir, `debug-${name}.log`);
    const env = { CLAUDE_CONFIG_DIR: join(dir, `claude-${name}`), RECAPWRAP_STATE_DIR: state, RECAPWRAP_DEBUG_LOG: log, RECAPWRAP_DRAFT_DEBOUNCE_MS: '200', FAKE_AGENT_OWN_RECAP_MS: '800' };
    const pane = server.newSession({
      name,
      cols: 140,
      rows: 24,
      command: wrapperCommand(work, ['--agent', 'claude', '--away', '1', '--generator', 'heuristic', '--agent-recaps', mode, '--', process.execPath, FAKE_AGENT, '--format', 'claude', '--own-recap', OWN, '--script', 'turn count the demo runs;turn list them again'], { mkdir: true }),
      env,
    });
    wrappers.push(Number(server.run(['display-message', '-p', '-t', pane, '#{pane_pid}']).trim()));
    server.run(['set', '-g', 'focus-events', 'on']);
    const other = server.splitWindow(pane, ['cat']);
    server.run(['select-pane', '-t', pane]);
    const client = server.attach(name, { cols: 140, rows: 30 });
    await pollUntil(() => /idle · 2 turns/.test(server.capturePane(pane)), { timeoutMs: 20_000, description: 'the stand-in to finish two turns' });
    const option = () => {
      try {
        return server.run(['show', '-pv', '-t', pane, '@recap']).trim();
      } catch {
        return '';
      }
    };
    server.run(['select-pane', '-t', other]);
    const leftAt = Date.now();
    await pollUntil(() => server.capturePane(pane).includes('FOCUS out'), { description: 'the focus-out to reach the agent' });
    if (mode === 'replace') await new Promise((r) => setTimeout(r, 2500)); // the stand-in would have written its summary by now
    else await pollUntil(() => server.capturePane(pane).includes('※ recap:'), { timeoutMs: 10_000, description: "the agent's own recap, made while away" });
    await pollUntil(() => Date.now() - leftAt > 1500, { description: 'time away past --away 1' });
    const seen = client.output().length;
    server.run(['select-pane', '-t', pane]);
    await pollUntil(() => server.capturePane(pane).includes('FOCUS in'), { description: 'the focus-in to reach the agent' });
    const cli = (...args: string[]) => execFileSync(process.execPath, [CLI_BIN, ...args], { encoding: 'utf8', env: { ...process.env, ...env, TMUX_PANE: '' } });
    return { pane, option, client, seen, cli, log, state, server };
  }

  it('use: no second bar; @recap, status, recap --pane and the index hold the agent’s words; no model asked', async () => {
    const r = await run('use', 'use');
    const want = `recap: ${OWN}`;
    await pollUntil(() => r.option() === want, { timeoutMs: 10_000, description: "@recap to hold the agent's recap" });
    // Give a bar every chance to appear: none does.
    await new Promise((res) => setTimeout(res, 1500));
    // (The agent's own "※ recap:" row may be redrawn; a bar of recapwrap's would read "recap: …" on its own.)
    expect(r.client.output().slice(r.seen).replace(/※ recap: /g, '')).not.toContain('recap: ');
    expect(r.cli('status', '--pane', r.pane).trim()).toBe(want);
    const json = JSON.parse(r.cli('recap', '--pane', r.pane, '--format', 'json')) as { line: string; generator: unknown };
    expect(json).toMatchObject({ line: want, generator: { type: 'agent', agent: 'claude', own: true } });
    const debug = readFileSync(r.log, 'utf8');
    expect(debug).toMatch(/"msg":"the agent's own recap"/);
    expect(debug).not.toMatch(/"msg":"show"/);
    expect(debug).not.toMatch(/"actions":"draft"/);
    // The session index's card (written by the wrapper's memory worker at the new state).
    const card = await pollUntil(() => {
      try {
        const list = JSON.parse(r.cli('sessions', '--agent', 'claude', '--json')) as Array<{ id: string; line?: string }>;
        const id = list[0]?.id;
        if (!id) return undefined;
        const shown = JSON.parse(r.cli('show', id, '--json')) as { line?: string; generator?: unknown };
        return shown.line === want ? shown : undefined;
      } catch {
        return undefined;
      }
    }, { timeoutMs: 15_000, description: "the index card to carry the agent's recap" });
    expect(card.generator).toEqual({ type: 'agent', agent: 'claude', own: true });
  });

  it('both: recapwrap’s bar is drawn as well, with its own recap', async () => {
    const r = await run('both', 'both');
    await pollUntil(() => /"msg":"show","reason":"focus-return"/.test(readFileSync(r.log, 'utf8')), { timeoutMs: 10_000, description: "recapwrap's bar on the return" });
    await pollUntil(() => /^recap: /.test(r.option()), { timeoutMs: 10_000, description: "@recap to hold recapwrap's recap" });
    expect(r.option()).not.toContain('Goal: count the demo runs');
  });

  it('replace: the agent runs with its recap off (its own switch), recapwrap’s bar is the recap', async () => {
    const r = await run('replace', 'replace');
    await pollUntil(() => /"msg":"show","reason":"focus-return"/.test(readFileSync(r.log, 'utf8')), { timeoutMs: 10_000, description: "recapwrap's bar on the return" });
    await pollUntil(() => /^recap: /.test(r.option()), { timeoutMs: 10_000, description: "@recap to hold recapwrap's recap" });
    expect(r.server.capturePane(r.pane)).not.toContain('※ recap:');
    expect(r.option()).not.toContain('Goal: count the demo runs');
    const files = readdirSync(join(setup.dir, 'claude-replace', 'projects'), { recursive: true }).map(String).filter((f) => f.endsWith('.jsonl'));
    expect(files).toHaveLength(1);
    expect(readFileSync(join(setup.dir, 'claude-replace', 'projects', files[0] as string), 'utf8')).not.toContain('away_summary');
  });
});
