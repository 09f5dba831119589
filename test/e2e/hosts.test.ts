// Many machines (#35) as a user meets them, through the built CLI and a real OpenSSH server on
// 127.0.0.1 (test/helpers/sshd.ts): a host with recapwrap (query mode), one without (mirror mode with
// rsync), one that prints junk, one that is down, one that accepts and never answers. Sessions found on
// another host carry `host`; a failing host costs one line naming it, never a hang or a stack trace;
// `show` of a remote session gives `ssh -t`, and `resume` lands in it on that host, in a new tmux window.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layOutSession, type LaidOut } from '../helpers/agent-homes.js';
import { assertBuilt, CLI_BIN } from '../helpers/cli-pty.js';
import { pollUntil } from '../helpers/poll.js';
import { TRANSCRIPTS_DIR } from '../helpers/shared.js';
import { accountExists, freePort, SSH_ACCOUNT, sshdUnavailable, startSshd, stopMasters, type Sshd } from '../helpers/sshd.js';
import { TmuxServer, tmuxAvailable } from '../helpers/tmux.js';
import { runBoard } from '../../src/app/live/board.js';
import { boardRemote } from '../../src/app/hosts/live-across.js';
import type { BoardHandlers, BoardRow, BoardView } from '../../src/display/board-view.js';

const why = sshdUnavailable();
if (why) console.log(`skipping the ssh hosts tests: ${why}`);

interface Item { id: string; agent: string; name: string; cwd: string; transcript: string; host?: string; resumeCommand?: string[] }

function cli(env: NodeJS.ProcessEnv, ...args: string[]): Promise<{ code: number; out: string; err: string; ms: number }> {
  const start = Date.now();
  return new Promise((resolveRun) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => resolveRun({ code: code ?? -1, out, err, ms: Date.now() - start }));
  });
}

// A fixture with its folder moved under `to` (so the session's folder exists on the host).
function moved(agent: string, root: string, to: string): string {
  const file = join(root, `${agent}.jsonl`);
  writeFileSync(file, readFileSync(join(TRANSCRIPTS_DIR, agent, 'interactive-2turns.jsonl'), 'utf8').replaceAll('/home/dev/proj', to));
  return file;
}

describe.skipIf(Boolean(why))('sessions on other machines, over ssh', () => {
  let sshd: Sshd;
  let root: string;
  let env: NodeJS.ProcessEnv;
  let remote: LaidOut;
  let local: LaidOut;
  let silent: Server;
  let accountBefore = true;

  beforeAll(async () => {
    assertBuilt();
    accountBefore = accountExists();
    sshd = await startSshd({ cliBin: CLI_BIN });
    root = mkdtempSync(join(tmpdir(), 'rw-hosts-'));
    // The host's session (claude), in a folder that exists there; this machine's (pi).
    mkdirSync(join(sshd.home, 'proj', 'claude-tui'), { recursive: true });
    remote = await layOutSession(sshd.home, 'claude', moved('claude', root, join(sshd.home, 'proj')));
    sshd.own();
    const home = join(root, 'home');
    mkdirSync(home);
    local = await layOutSession(home, 'pi', join(TRANSCRIPTS_DIR, 'pi', 'interactive-2turns.jsonl'));
    // A host that accepts connections and never says a word.
    silent = createServer(() => {});
    const silentPort = await freePort();
    await new Promise<void>((r) => silent.listen(silentPort, '127.0.0.1', r));
    const down = await freePort();
    mkdirSync(join(root, 'cfg', 'recapwrap'), { recursive: true });
    writeFileSync(join(root, 'cfg', 'recapwrap', 'config.json'), JSON.stringify({
      hosts: [
        { name: 'box', ssh: sshd.sshArgs(sshd.ports.ok) },
        { name: 'bare', ssh: sshd.sshArgs(sshd.ports.bare) },
        { name: 'junk', ssh: sshd.sshArgs(sshd.ports.junk) },
        { name: 'down', ssh: sshd.sshArgs(down) },
        { name: 'silent', ssh: sshd.sshArgs(silentPort), timeout: 1 },
        { name: 'slow', ssh: sshd.sshArgs(sshd.ports.slow), timeout: 1 },
      ],
    }));
    env = { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: join(root, 'cfg'), RECAPWRAP_STATE_DIR: join(root, 'state'), RECAPWRAP_GENERATOR: 'heuristic', TERM: 'dumb' };
  }, 60_000);

  afterAll(() => {
    silent?.close();
    if (root) stopMasters(join(root, 'state', 'ssh'));
    sshd?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
    // The machine as it was: the account is gone again when this run made it.
    if (!accountBefore) expect(accountExists()).toBe(false);
  });

  // The commands of the account running there now (`ps`), to see what a host is still running.
  const runningThere = () => spawnSync('ps', ['-u', SSH_ACCOUNT, '-o', 'args='], { encoding: 'utf8' }).stdout ?? '';

  it('search --all-hosts finds the session that lives only on a host, tagged with it; each failing host costs one line', async () => {
    const r = await cli(env, 'search', '--all-hosts', '--json', 'claude');
    expect(r.code).toBe(0);
    const hits = JSON.parse(r.out) as Item[];
    const there = hits.find((h) => h.id === remote.id);
    expect(there).toMatchObject({ host: 'box', agent: 'claude', cwd: join(sshd.home, 'proj', 'claude-tui') });
    expect(hits.filter((h) => h.id === local.id)).toEqual([]); // "claude" is not in the pi session
    const lines = r.err.trimEnd().split('\n');
    expect(lines).toHaveLength(5);
    expect(r.err).toMatch(/^recapwrap: host bare: recapwrap is not installed there/m);
    expect(r.err).toMatch(/^recapwrap: host junk: answered something that is not recapwrap's JSON$/m);
    expect(r.err).toMatch(/^recapwrap: host down: cannot connect: .*Connection refused/m);
    // A host that takes the connection and never speaks: ssh's ConnectTimeout and recapwrap's deadline are
    // both 1 s, so either says it first (both seen in full runs); each is one line naming the host.
    expect(r.err).toMatch(/^recapwrap: host silent: (?:no answer in 1 s|cannot connect: Connection timed out during banner exchange)/m);
    expect(r.err).toMatch(/^recapwrap: host slow: no answer in 1 s/m);
    expect(r.err).not.toMatch(/\bat .*\.c?js:\d+|\x1b|Traceback/);
    // The silent and slow hosts cost at most their timeouts (1 s each) beyond the others.
    expect(r.ms).toBeLessThan(8000);
  }, 30_000);

  it('a host whose recapwrap never ends costs its deadline and no more, with a shared connection: the command returns and nothing of it runs there after', async () => {
    const r = await cli(env, 'search', '--host', 'slow', 'claude');
    expect(r.err).toMatch(/^recapwrap: host slow: no answer in 1 s/m);
    expect(r.code).toBe(1);
    // The deadline (1 s) plus starting node, not the remote's end (never).
    expect(r.ms).toBeLessThan(3500);
    // The query went through a shared connection (its master's socket), which stays up for the next one.
    expect(readdirSync(join(root, 'state', 'ssh')).length).toBeGreaterThan(0);
    await pollUntil(() => !runningThere().includes('slowbin/recapwrap'), { timeoutMs: 5000, description: "the slow host's recapwrap stopped there" });
    // Again, over the master now up: the same.
    const again = await cli(env, 'sessions', '--host', 'slow');
    expect(again.err).toMatch(/^recapwrap: host slow: no answer in 1 s/m);
    expect(again.ms).toBeLessThan(3500);
    await pollUntil(() => !runningThere().includes('slowbin/recapwrap'), { timeoutMs: 5000, description: "the slow host's recapwrap stopped there" });
  }, 30_000);

  it("merges this machine's sessions (no host) with a host's, and prints the host before the name", async () => {
    const rows = JSON.parse((await cli(env, 'sessions', '--host', 'box', '--json')).out) as Item[];
    expect(rows.map((x) => [x.id, x.host])).toEqual([[remote.id, 'box']]);
    const all = await cli(env, 'sessions', '--all-hosts', '--json');
    const items = JSON.parse(all.out) as Item[];
    expect(items.find((x) => x.id === local.id)).not.toHaveProperty('host');
    expect(items.find((x) => x.id === remote.id)?.host).toBe('box');
    const plain = await cli(env, 'sessions', '--host', 'box');
    expect(plain.code).toBe(0);
    expect(plain.out).toMatch(/^box:claude-tui-\S+ +claude /m);
    // An unknown host is a usage error naming the known ones.
    const bad = await cli(env, 'sessions', '--host', 'nope');
    expect(bad).toMatchObject({ code: 2, out: '' });
    expect(bad.err).toContain('Expected `--host` to be a host of the config file (box, bare, junk, down, silent, slow), got `nope`');
  }, 30_000);

  it('show gives the ssh line that resumes it there; a host alone that is down exits 1 with its line', async () => {
    const r = await cli(env, 'show', '--host', 'box', '--json', remote.id.slice(0, 8));
    expect(r.code).toBe(0);
    const card = JSON.parse(r.out) as Item;
    expect(card.host).toBe('box');
    expect(card.resumeCommand).toEqual(['ssh', '-t', ...sshd.sshArgs(sshd.ports.ok), `cd ${join(sshd.home, 'proj', 'claude-tui')} && recapwrap claude --resume ${remote.id}`]);
    const text = await cli(env, 'show', '--host', 'box', remote.id);
    expect(text.out).toMatch(/^host: +box$/m);
    expect(text.out).toMatch(/^resume: +ssh -t -F \S+ -p \d+ rwhost@127\.0\.0\.1 'cd \S+ && recapwrap claude --resume \S+'$/m);
    // A session the host lacks: said so (exit 1), not that the host answered junk.
    const none = await cli(env, 'show', '--host', 'box', 'no-such-session-anywhere');
    expect(none).toMatchObject({ code: 1, out: '', err: 'recapwrap: no session matches "no-such-session-anywhere" on host box\n' });
    const down = await cli(env, 'search', '--host', 'down', 'claude');
    expect(down.code).toBe(1);
    expect(down.err).toMatch(/^recapwrap: host down: cannot connect/m);
  }, 30_000);

  it('mirror mode: index --host bare --pull copies the session files with rsync and indexes them tagged, paths as on the host', async () => {
    const pull = await cli(env, 'index', '--host', 'bare', '--pull');
    expect(pull.err).toBe('');
    expect(pull.code).toBe(0);
    expect(pull.out).toMatch(/^host bare: pulled 1 new or changed file; indexed 1 of 1 changed session file; 1 session in its copy$/m);
    const hits = JSON.parse((await cli(env, 'search', '--host', 'bare', '--json', 'claude')).out) as Item[];
    expect(hits.map((h) => [h.id, h.host, h.transcript])).toEqual([[remote.id, 'bare', remote.file]]);
    // Add-only: a pull again copies nothing new, and a session deleted there stays here.
    expect((await cli(env, 'index', '--host', 'bare', '--pull')).out).toMatch(/pulled 0 new or changed files/);
    // The same session on two machines (box asked, bare's copy): named as HOST:REF, never "use an id" (the same on both).
    const name = (JSON.parse((await cli(env, 'show', '--host', 'box', '--json', remote.id)).out) as Item).name;
    const twice = await cli(env, 'show', '--host', 'box', '--host', 'bare', name);
    expect(twice.code).toBe(2);
    expect(twice.err).toMatch(new RegExp(`^recapwrap: "${name}" matches sessions on 2 machines; name one as HOST:REF \\(box:${name}; this machine's without a prefix\\):$`, 'm'));
    expect(twice.err).toMatch(new RegExp(`^ {2}bare:${name} `, 'm'));
    const one = await cli(env, 'show', '--json', `bare:${name}`);
    expect(one.code).toBe(0);
    expect(JSON.parse(one.out)).toMatchObject({ id: remote.id, host: 'bare' });
    // The host has no recapwrap: its resume line runs the agent itself.
    const card = JSON.parse((await cli(env, 'show', '--host', 'bare', '--json', remote.id)).out) as Item;
    expect(card.resumeCommand?.at(-1)).toBe(`cd ${join(sshd.home, 'proj', 'claude-tui')} && claude --resume ${remote.id}`);
    // read --host reads the pulled copy (#41): the session as its file says, the header naming the host.
    const read = await cli(env, 'read', remote.id, '--host', 'bare', '--width', '80');
    expect(read.err).toBe('');
    expect(read.code).toBe(0);
    expect(read.out.split('\n')[0]).toMatch(/^claude · .+ · on bare$/);
    expect(read.out).toMatch(/^› 1\/\d+ /m);
    expect(await cli(env, 'read', remote.id, '--host', 'nocopy')).toMatchObject({ code: 1, out: '' });
  }, 60_000);

  it("ls and next --all-hosts: a host's live sessions with their state, and how to get to the one waiting there", async () => {
    // A live wrapper on the host: a process of the account there, and its state file (as a wrapper writes it).
    const sleeper = spawn('ssh', [...sshd.sshArgs(sshd.ports.ok), 'sleep 60 >/dev/null 2>&1 & echo $!'], { stdio: ['ignore', 'pipe', 'ignore'] });
    let pidText = '';
    sleeper.stdout.on('data', (d: Buffer) => (pidText += d.toString()));
    await new Promise((r) => sleeper.on('close', r));
    const pid = Number(pidText.trim());
    expect(pid).toBeGreaterThan(0);
    try {
      const stateDir = join(sshd.home, '.local', 'state', 'recapwrap');
      mkdirSync(stateDir, { recursive: true, mode: 0o700 });
      const now = Date.now();
      const iso = (ms: number) => new Date(ms).toISOString();
      writeFileSync(join(stateDir, `live-${pid}.json`), JSON.stringify({
        version: 1, pid, agent: 'claude', command: 'claude', cwd: join(sshd.home, 'proj', 'claude-tui'), sessionFile: null, sessionId: null,
        tmuxPane: '%7', state: 'waiting', stateSince: iso(now - 300_000), lastFocusAt: null,
        lastRecap: { line: 'recap: login test fixed. Next: run the suite.', stamp: 's', createdAt: iso(now) },
        attention: { event: 'waiting', since: iso(now - 300_000) }, socketPath: '/tmp/x.sock', startedAt: iso(now - 600_000), updatedAt: iso(now),
      }));
      sshd.own();
      const json = await cli(env, 'ls', '--all-hosts', '--json');
      expect(json.code).toBe(0);
      const states = JSON.parse(json.out) as Array<{ pid: number; host?: string; state: string; socketPath: string | null }>;
      expect(states.find((st) => st.pid === pid)).toMatchObject({ host: 'box', state: 'waiting', socketPath: null });
      const table = await cli(env, 'ls', '--host', 'box');
      // The host's own `ls --json` carries its attention mark (read back from the state file since b607ec1).
      expect(table.out).toMatch(/^claude@box +\S+claude-tui +waiting 5m !waiting +- +%7 +login test fixed/m);
      const next = await cli(env, 'next', '--all-hosts');
      expect(next.code).toBe(0);
      expect(next.out).toContain(`host box · claude · ${join(sshd.home, 'proj', 'claude-tui')} · waiting 5m · tmux pane %7`);
      expect(next.out).toMatch(/^get there: ssh -t -F \S+ -p \d+ rwhost@127\.0\.0\.1 'tmux attach-session -t %7 \\; select-window -t %7 \\; select-pane -t %7'$/m);
      // board --host box: the host's session is a row (agent@host), Enter shows how to get there.
      const found = boardRemote({ host: ['box'] }, env, root, 60_000);
      if ('error' in found) throw new Error(found.error);
      const seen: { rows: BoardRow[][]; cards: Array<[string, string]> } = { rows: [], cards: [] };
      let handlers!: BoardHandlers;
      const view: BoardView = { setRows: (r) => seen.rows.push([...r]), setStatus: () => {}, showCard: (t, b) => seen.cards.push([t, b]), render: () => {}, destroy: () => {} };
      const done = runBoard({ env, createView: (h) => ((handlers = h), view), remote: found.remote });
      const rows = await pollUntil(() => seen.rows.find((r) => r.some((x) => x.agent === 'claude@box')), { description: "the host's row", timeoutMs: 15_000 });
      const row = rows.find((x) => x.agent === 'claude@box') as BoardRow;
      expect(row).toMatchObject({ key: `box:${pid}`, pane: '%7' });
      handlers.onEnter(row);
      expect(seen.cards[0]?.[1]).toMatch(/login test fixed[\s\S]*get there: ssh -t .*tmux attach-session -t %7/);
      handlers.onQuit();
      expect(await done).toBe(0);
    } finally {
      process.kill(pid);
    }
  }, 30_000);

  it('the MCP tools take host: search_sessions, list_sessions, get_session on box; a host down is a tool error', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI_BIN, 'mcp'], env: env as Record<string, string>, stderr: 'pipe' });
    const client = new Client({ name: 'recapwrap-hosts-e2e', version: '1.0.0' });
    await client.connect(transport);
    try {
      const body = (r: unknown) => JSON.parse(((r as CallToolResult).content[0] as { text: string }).text) as Record<string, unknown>;
      const found = body(await client.callTool({ name: 'search_sessions', arguments: { query: 'claude', host: 'box' } }));
      expect(found).toMatchObject({ host: 'box', count: 1, sessions: [{ id: remote.id, host: 'box', agent: 'claude' }] });
      const listed = body(await client.callTool({ name: 'list_sessions', arguments: { host: 'box', since: '30d' } }));
      expect(listed).toMatchObject({ host: 'box', sessions: [{ id: remote.id, host: 'box' }] });
      const card = body(await client.callTool({ name: 'get_session', arguments: { session: remote.id, host: 'box' } }));
      expect(card).toMatchObject({ id: remote.id, host: 'box', folder: join(sshd.home, 'proj', 'claude-tui') });
      expect(card.resumeCommand).toEqual(expect.arrayContaining(['ssh', '-t']));
      const down = (await client.callTool({ name: 'search_sessions', arguments: { query: 'claude', host: 'down' } })) as CallToolResult;
      expect(down.isError).toBe(true);
      expect((down.content[0] as { text: string }).text).toMatch(/^host down: cannot connect/);
      // A host that never answers: a tool error at its deadline, and nothing of it left running there.
      const slowStart = Date.now();
      const slow = (await client.callTool({ name: 'search_sessions', arguments: { query: 'claude', host: 'slow' } })) as CallToolResult;
      expect(slow.isError).toBe(true);
      expect((slow.content[0] as { text: string }).text).toMatch(/^host slow: no answer in 1 s/);
      expect(Date.now() - slowStart).toBeLessThan(2500);
      await pollUntil(() => !runningThere().includes('slowbin/recapwrap'), { timeoutMs: 5000, description: "the slow host's recapwrap stopped there" });
      const unknown = (await client.callTool({ name: 'list_sessions', arguments: { host: 'nope' } })) as CallToolResult;
      expect((unknown.content[0] as { text: string }).text).toContain('Expected `host` to be a host of the config file (box, bare, junk, down, silent, slow), got `nope`');
    } finally {
      await client.close();
    }
  }, 30_000);

  it('resume REF --host box, inside tmux, opens a new window named after the session, in that session on that host', async () => {
    if (!tmuxAvailable()) return;
    const tmux = TmuxServer.create('rw-hosts');
    try {
      tmux.newSession({ name: 'main', command: ['sh', '-c', 'sleep 60'] });
      const socket = tmux.run(['display-message', '-p', '-t', 'main', '#{socket_path}']).trim();
      const r = await cli({ ...env, TMUX: `${socket},1,0` }, 'resume', remote.id, '--host', 'box');
      expect(r.err).toMatch(/^recapwrap: resuming in a new tmux window claude-tui-\S+ on host box with: ssh -t /m);
      expect(r.code).toBe(0);
      const name = JSON.parse((await cli(env, 'show', '--host', 'box', '--json', remote.id)).out).name as string;
      expect(tmux.run(['list-windows', '-t', 'main', '-F', '#{window_name}']).split('\n')).toContain(name);
      const screen = await pollUntil(() => {
        const text = tmux.capturePane(`main:${name}`);
        return text.includes('fake claude --resume') && text;
      }, { timeoutMs: 15_000, description: 'the fake claude on the host, resumed' });
      expect(screen).toContain(`fake claude --resume ${remote.id}`);
      expect(screen).toContain(`in ${join(sshd.home, 'proj', 'claude-tui')}`);

      // Two more sessions there: one whose folder is gone, one whose folder it may not enter.
      const another = async (id: string, under: string) => {
        const file = join(root, `${id}.jsonl`);
        writeFileSync(file, readFileSync(join(TRANSCRIPTS_DIR, 'claude', 'interactive-2turns.jsonl'), 'utf8').replaceAll('/home/dev/proj', join(sshd.home, under)).replaceAll(remote.id, id));
        await layOutSession(sshd.home, 'claude', file);
      };
      const goneId = '0e0e0e0e-1111-4222-8333-444444444444';
      const lockedId = '0f0f0f0f-1111-4222-8333-444444444444';
      await another(goneId, 'gone');
      await another(lockedId, 'locked');
      const locked = join(sshd.home, 'locked', 'claude-tui');
      mkdirSync(locked, { recursive: true });
      sshd.own();
      chownSync(locked, 0, 0);
      chmodSync(locked, 0o700);
      const windows = () => tmux.run(['list-windows', '-t', 'main', '-F', '#{window_id}']).trim().split('\n');
      const before = windows();
      const gone = await cli({ ...env, TMUX: `${socket},1,0` }, 'resume', goneId, '--host', 'box');
      expect(gone.code).toBe(1);
      expect(gone.err).toMatch(new RegExp(`^recapwrap: host box: the folder of \\S+, ${join(sshd.home, 'gone', 'claude-tui')}, is not there \\(moved or deleted\\); nothing was resumed$`, 'm'));
      expect(windows()).toEqual(before);
      // cd fails there after the check: the window stays, with the error and the exit status.
      const failed = await cli({ ...env, TMUX: `${socket},1,0` }, 'resume', lockedId, '--host', 'box');
      expect(failed.code).toBe(0);
      const opened = windows().filter((w) => !before.includes(w));
      expect(opened).toHaveLength(1);
      const kept = await pollUntil(() => {
        const text = tmux.capturePane(opened[0] as string);
        return text.includes('press Enter to close') && text;
      }, { timeoutMs: 15_000, description: 'the failed resume kept on screen' });
      expect(kept).toMatch(/cd: .*(can't cd|Permission denied)/);
      expect(kept).toMatch(/\[recapwrap: this ended with exit status [1-9]\d*; press Enter to close the window\]/);
      tmux.run(['send-keys', '-t', opened[0] as string, 'Enter']);
      await pollUntil(() => !windows().includes(opened[0] as string), { timeoutMs: 5000, description: 'the window closed after Enter' });
    } finally {
      tmux.kill();
    }
  }, 60_000);

  // Last: it forgets the host's session the tests above use.
  it('name and note HOST:REF are kept there; forget --host box REF forgets it there (its own recapwrap) and a pull honours the forgotten list: the copy drops it and never copies it again', async () => {
    // Your name and note of a host's session are kept there, by its recapwrap (HOST:REF).
    const named = await cli(env, 'name', `box:${remote.id}`, 'walrus-on-box');
    expect(named).toMatchObject({ code: 0, out: `named claude session ${remote.id} on host box: walrus-on-box\n` });
    const noted = await cli(env, 'note', 'box:walrus-on-box', 'tried it from another machine');
    expect(noted).toMatchObject({ code: 0, out: `noted walrus-on-box (claude ${remote.id}) on host box: tried it from another machine\n` });
    expect(JSON.parse((await cli(env, 'show', '--json', 'box:walrus-on-box')).out)).toMatchObject({ id: remote.id, name: 'walrus-on-box', note: 'tried it from another machine' });
    // bare's copy (the same home, pulled above) still has it.
    expect((JSON.parse((await cli(env, 'search', '--host', 'bare', '--json', 'claude')).out) as Item[]).map((h) => h.id)).toContain(remote.id);
    const forgot = await cli(env, 'forget', '--host', 'box', '--yes', remote.id);
    expect(forgot.err).toBe('');
    expect(forgot).toMatchObject({ code: 0, out: `forgot "${remote.id}" on host box; it is not indexed again (nor copied by a pull)\n` });
    const ids = async (host: string) => (JSON.parse((await cli(env, 'search', '--host', host, '--json', 'claude')).out || '[]') as Item[]).map((h) => h.id);
    expect(await ids('box')).not.toContain(remote.id);
    // The next pull reads the host's forgotten list: not copied, and taken out of the copy (row and file).
    const copied = () => readdirSync(join(root, 'state', 'hosts', 'bare', 'home', '.claude', 'projects'), { recursive: true }).map(String);
    expect(copied().some((f) => f.endsWith(`${remote.id}.jsonl`))).toBe(true);
    const pull = await cli(env, 'index', '--host', 'bare', '--pull');
    expect(pull.code).toBe(0);
    expect(await ids('bare')).not.toContain(remote.id);
    expect(copied().some((f) => f.endsWith(`${remote.id}.jsonl`))).toBe(false);
    // Again: still not copied (rsync leaves it out).
    expect((await cli(env, 'index', '--host', 'bare', '--pull')).out).toMatch(/pulled 0 new or changed files/);
    expect(copied().some((f) => f.endsWith(`${remote.id}.jsonl`))).toBe(false);
    // HOST:REF, and the host's own refusal said as it is, exit as there.
    const none = await cli(env, 'forget', 'box:no-such-session-there', '--yes');
    expect(none).toMatchObject({ code: 1, out: '', err: 'recapwrap: host box: no session is named or has the id "no-such-session-there"; nothing forgotten\n' });
  }, 60_000);
});
