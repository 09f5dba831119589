// #36: a session forked with the agent's own fork names its parent in the index. The real pi, Claude
// Code, Qwen Code and Codex CLIs, each in its one-off print mode against the fake model: one session,
// then a fork of it with the flags `recapwrap resume REF --fork` uses (`pi --fork FILE`, `claude`/`qwen
// --resume ID --fork-session`, `codex exec fork ID`); `recapwrap index`, then `show --json` of the new
// session names the first as its `parent`, and `show` of the first lists the fork.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePiCwd } from '../../src/transcripts/pi/paths.js';
import { startAgentModelServer, type AgentModelServer } from '../fakes/agent-model-server.js';
import { agentE2eSkipped, installAgentCli, type AgentCli } from '../helpers/agent-cli.js';
import { prepareAgentHome } from '../helpers/agent-home.js';
import { assertBuilt, CLI_BIN } from '../helpers/cli-pty.js';

function run(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<{ code: number; out: string; stdout: string }> {
  return new Promise((resolve) => {
    const child = execFile(command, args, { env, cwd, encoding: 'utf8', timeout: 180_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, out: `${stdout}${stderr}`, stdout }),
    );
    child.stdin?.end(); // print modes read a piped stdin as part of the prompt
  });
}

const jsonlUnder = (root: string): string[] =>
  (readdirSync(root, { recursive: true }) as string[]).map((f) => join(root, f)).filter((f) => f.endsWith('.jsonl') && statSync(f).isFile());

interface Card { id: string; name: string; transcript: string; parent?: string; parentName?: string; children?: Array<{ id: string }>; forkCommand?: string[] }

describe.skipIf(agentE2eSkipped())('a fork made by the real agent names its parent', () => {
  let model: AgentModelServer;
  const roots: string[] = [];

  beforeAll(async () => {
    assertBuilt();
    model = await startAgentModelServer();
  });
  afterAll(async () => {
    await model?.close();
    for (const r of roots) rmSync(r, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  });

  // A home for one agent; `twice` runs the first session and its fork and returns the two session files.
  async function world(agent: AgentCli, twice: (exe: string, env: NodeJS.ProcessEnv, work: string, home: string) => Promise<{ first: string; fork: string }>) {
    const exe = installAgentCli(agent);
    const root = mkdtempSync(join(tmpdir(), `rw-fork-${agent}-`));
    roots.push(root);
    const home = join(root, 'home');
    const work = join(root, 'proj');
    mkdirSync(home);
    mkdirSync(work);
    const prepared = prepareAgentHome(agent, { home, model, trusted: [work] });
    const env: NodeJS.ProcessEnv = {
      ...prepared, HOME: home, PATH: `${dirname(exe)}:${dirname(process.execPath)}:/usr/bin:/bin`, TERM: 'dumb', NO_COLOR: '1',
      RECAPWRAP_STATE_DIR: join(root, 'state'), RECAPWRAP_GENERATOR: 'heuristic',
    };
    const files = await twice(exe, env, work, home);
    const index = await run(process.execPath, [CLI_BIN, 'index'], env, work);
    expect(index.code, index.out).toBe(0);
    const show = async (file: string) => {
      const r = await run(process.execPath, [CLI_BIN, 'sessions', '--json', '--limit', '50'], env, work);
      const id = (JSON.parse(r.stdout) as Card[]).find((c) => c.transcript === file)?.id;
      expect(id, `${file} is not in the index:\n${r.out}`).toBeDefined();
      return JSON.parse((await run(process.execPath, [CLI_BIN, 'show', id as string, '--json'], env, work)).stdout) as Card;
    };
    return { first: await show(files.first), fork: await show(files.fork) };
  }

  function expectChain({ first, fork }: { first: Card; fork: Card }, forkCommand: string[]) {
    expect(fork.id).not.toBe(first.id);
    expect(fork.parent).toBe(first.id);
    expect(fork.parentName).toBe(first.name);
    expect(first.children?.map((c) => c.id)).toEqual([fork.id]);
    expect(first.forkCommand).toEqual(forkCommand);
  }

  it('pi --fork FILE: the new file\'s header names the first as parentSession', async () => {
    const chain = await world('pi', async (exe, env, work, home) => {
      const dir = join(home, '.pi', 'agent', 'sessions', encodePiCwd(work));
      const first = join(dir, `2026-11-27T10-00-00-000Z_${randomUUID()}.jsonl`);
      const a = await run(exe, ['--session', first, '-p', 'please create hello.txt'], env, work);
      expect(a.code, a.out).toBe(0);
      const b = await run(exe, ['--fork', first, '-p', 'now list the files with ls'], env, work);
      expect(b.code, b.out).toBe(0);
      const fork = jsonlUnder(dir).find((f) => f !== first);
      expect(fork, b.out).toBeDefined();
      return { first, fork: fork as string };
    });
    expectChain(chain, ['pi', '--fork', chain.first.transcript]);
  });

  it('claude --resume ID --fork-session: the copied answers keep the first as requestSessionId', async () => {
    const chain = await world('claude', async (exe, env, work, home) => {
      const id = randomUUID();
      const a = await run(exe, ['-p', '--session-id', id, 'List the files here'], env, work);
      expect(a.code, a.out).toBe(0);
      const b = await run(exe, ['-p', '--resume', id, '--fork-session', 'Please list them again'], env, work);
      expect(b.code, b.out).toBe(0);
      const files = jsonlUnder(join(home, '.claude', 'projects'));
      const first = files.find((f) => f.endsWith(`${id}.jsonl`));
      const fork = files.find((f) => f !== first && !f.includes('/subagents/'));
      expect(first && fork, files.join('\n')).toBeTruthy();
      return { first: first as string, fork: fork as string };
    });
    expectChain(chain, ['claude', '--resume', chain.first.id, '--fork-session']);
  });

  it('qwen --resume ID --fork-session: the copies name the first in forkedFrom', async () => {
    const chain = await world('qwen', async (exe, env, work, home) => {
      const id = randomUUID();
      const a = await run(exe, ['--yolo', '--session-id', id, 'please create hello.txt'], env, work);
      expect(a.code, a.out).toBe(0);
      const b = await run(exe, ['--yolo', '--resume', id, '--fork-session', 'now list the files with ls'], env, work);
      expect(b.code, b.out).toBe(0);
      const files = jsonlUnder(join(home, '.qwen', 'projects'));
      const first = files.find((f) => f.endsWith(`${id}.jsonl`));
      const fork = files.find((f) => f !== first);
      expect(first && fork, files.join('\n')).toBeTruthy();
      return { first: first as string, fork: fork as string };
    });
    expectChain(chain, ['qwen', '--resume', chain.first.id, '--fork-session']);
  });

  it('codex exec fork ID: the new rollout names the first as forked_from_id', async () => {
    const chain = await world('codex', async (exe, env, work, home) => {
      // (The home's config already sets approval "never" and full access.)
      const a = await run(exe, ['exec', '--skip-git-repo-check', 'List the files here'], env, work);
      expect(a.code, a.out).toBe(0);
      const [first] = jsonlUnder(join(home, '.codex', 'sessions'));
      expect(first, a.out).toBeDefined();
      const id = /([0-9a-f]{8}-[0-9a-f-]{27})\.jsonl$/.exec(first as string)?.[1] as string;
      const b = await run(exe, ['exec', '--skip-git-repo-check', 'fork', id, 'Please list them again'], env, work);
      expect(b.code, b.out).toBe(0);
      const fork = jsonlUnder(join(home, '.codex', 'sessions')).find((f) => f !== first);
      expect(fork, b.out).toBeDefined();
      return { first: first as string, fork: fork as string };
    });
    expectChain(chain, ['codex', 'fork', chain.first.id]);
  });
});
