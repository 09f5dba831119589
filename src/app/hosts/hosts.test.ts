import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pollUntil } from '../../../test/helpers/poll.js';
import { resolveConfig } from '../../config/load.js';
import { trustProjectFile } from '../../config/trust-list.js';
import { loadHosts } from './hosts.js';
import { chooseHosts, parseHosts } from './config.js';
import { parseProbe } from './doctor-hosts.js';
import { leftOutNote, mergeHits, mergeRows } from './merge.js';
import { parseRemoteList, parseRemoteObject, remoteCardSchema, remoteHitSchema, remoteLiveSchema, remoteRowSchema } from './remote-schema.js';
import { spawn } from 'node:child_process';
import { attachPaneArgv, commandLine, guardedCommand, queryArgv, resumeArgv, rsyncArgv } from './ssh-argv.js';
import { runBounded } from './transport.js';

const row = (over: Record<string, unknown> = {}) => ({
  id: 'abc-123', agent: 'claude', cwd: '/home/me/proj', project: 'proj', name: 'proj-fix-login', headline: 'proj · fix login',
  createdAt: '2026-11-20T10:00:00.000Z', updatedAt: '2026-11-21T10:00:00.000Z', transcript: '/home/me/.claude/projects/x/abc-123.jsonl',
  transcriptExists: true, counts: { prompts: 2, turns: 3, toolCalls: 1 }, status: 'idle', tags: ['ts'], generator: { type: 'heuristic' }, userNamed: false,
  ...over,
});

describe('hosts in the config file', () => {
  it('takes ssh destinations and {name, ssh} entries; reports and leaves out bad ones', () => {
    const { hosts, problems } = parseHosts(['devbox', { name: 'gpu', ssh: ['-p', '2222', '-F', '/p/ssh_config', 'me@10.0.0.5'], timeout: 2 }, '-oProxyCommand=x', { name: 'x', ssh: ['-p', '22'] }, 'devbox', 42], 'config.json');
    expect(hosts).toEqual([
      { name: 'devbox', ssh: ['devbox'], recapwrap: 'recapwrap', mirror: false },
      { name: 'gpu', ssh: ['-p', '2222', '-F', '/p/ssh_config', 'me@10.0.0.5'], recapwrap: 'recapwrap', mirror: false, timeoutSeconds: 2 },
    ]);
    expect(problems).toHaveLength(4);
    expect(problems[0]).toBe('Expected `hosts[2]` in config.json to be an ssh destination (letters, digits, . _ @ -, not starting with -), got `"-oProxyCommand=x"`');
    expect(problems[1]).toContain('to end with the destination (not an option), got `"22"`');
    expect(problems.join('\n')).toContain('devbox is named twice');
    expect(parseHosts({ devbox: true }).problems[0]).toMatch(/^Expected `hosts` in the config file to be a list/);
    expect(parseHosts(undefined)).toEqual({ hosts: [], problems: [] });
  });

  it('--host NAME picks those hosts only; --all-hosts this machine and every host', () => {
    const { hosts } = parseHosts(['a', 'b']);
    expect(chooseHosts(hosts, {})).toEqual({ local: true, hosts: [] });
    expect(chooseHosts(hosts, { host: ['b', 'b'] })).toEqual({ local: false, hosts: [hosts[1]] });
    expect(chooseHosts(hosts, { allHosts: true })).toEqual({ local: true, hosts });
    expect(chooseHosts(hosts, { host: ['c'] })).toEqual({ error: 'Expected `--host` to be a host of the config file (a, b), got `c`' });
    expect(chooseHosts([], { allHosts: true })).toHaveProperty('error');
    expect(chooseHosts(hosts, { allHosts: true, host: ['a'] })).toHaveProperty('error');
  });
});

describe('hosts in a real config file', () => {
  it("is read by the config loader (not an unknown option); a project file's only once trusted, then winning (#40 item 1)", () => {
    const root = mkdtempSync(join(tmpdir(), 'rw-hosts-cfg-'));
    try {
      mkdirSync(join(root, 'cfg', 'recapwrap'), { recursive: true });
      mkdirSync(join(root, 'home', 'proj'), { recursive: true });
      writeFileSync(join(root, 'cfg', 'recapwrap', 'config.json'), JSON.stringify({ hosts: ['devbox', { name: 'bad' }, 'x y'], hostTimeoutSeconds: 2 }));
      const env = { HOME: join(root, 'home'), XDG_CONFIG_HOME: join(root, 'cfg') };
      expect(resolveConfig({ env, cwd: join(root, 'home') }).problems).toEqual([]);
      const loaded = loadHosts(env, join(root, 'home'));
      expect(loaded.hosts.map((h) => h.name)).toEqual(['devbox', 'bad']);
      expect(loaded.options.hostTimeoutSeconds).toBe(2);
      expect(loaded.warnings).toEqual([expect.stringContaining('`hosts[2]` in ' + join(root, 'cfg', 'recapwrap', 'config.json'))]);
      writeFileSync(join(root, 'home', 'proj', '.recapwrap.json'), JSON.stringify({ hosts: ['gpu'] }));
      // A cloned repo's hosts never reach ssh: the user's own stay.
      expect(loadHosts(env, join(root, 'home', 'proj')).hosts.map((h) => h.name)).toEqual(['devbox', 'bad']);
      expect(trustProjectFile(env, join(root, 'home', 'proj'), undefined)).toMatchObject({ ok: true, unlocked: [{ key: 'hosts', value: ['gpu'] }] });
      expect(loadHosts(env, join(root, 'home', 'proj')).hosts.map((h) => h.name)).toEqual(['gpu']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('ssh command lines', () => {
  const gpu = parseHosts([{ name: 'gpu', ssh: ['-p', '2222', 'me@10.0.0.5'] }]).hosts[0]!;
  it('queries in batch mode over one shared connection, the words quoted for the remote shell', () => {
    expect(queryArgv(gpu, ['search', '--json', '--', "it's $(rm -rf ~)"], { controlDir: '/s/ssh', timeoutSeconds: 5 })).toEqual([
      'ssh', '-o', 'BatchMode=yes', '-o', 'ConnectTimeout=5', '-o', 'ServerAliveInterval=5', '-o', 'ServerAliveCountMax=2',
      '-o', 'ControlMaster=auto', '-o', 'ControlPath=/s/ssh/%C', '-o', 'ControlPersist=600', '-T', '-p', '2222', 'me@10.0.0.5',
      guardedCommand(`recapwrap search --json -- 'it'\\''s $(rm -rf ~)'`),
    ]);
    expect(queryArgv(gpu, ['ls'], { timeoutSeconds: 1 })).not.toContain('ControlMaster=auto');
  });

  it('resumes with ssh -t and cd, quoted; reaches a pane with tmux attach', () => {
    const argv = resumeArgv(gpu, "/home/me/my proj's", ['claude', '--resume', 'abc']);
    expect(argv).toEqual(['ssh', '-t', '-p', '2222', 'me@10.0.0.5', `cd '/home/me/my proj'\\''s' && recapwrap claude --resume abc`]);
    expect(commandLine(argv)).toBe(`ssh -t -p 2222 me@10.0.0.5 'cd '\\''/home/me/my proj'\\''\\'\\'''\\''s'\\'' && recapwrap claude --resume abc'`);
    expect(resumeArgv(gpu, '/p', ['pi', '--session', '/f'], false).at(-1)).toBe('cd /p && pi --session /f');
    expect(attachPaneArgv(gpu, '%3').at(-1)).toBe('tmux attach-session -t %3 \\; select-window -t %3 \\; select-pane -t %3');
  });

  it('pulls with rsync: the same ssh, only session files, no links, no deletes', () => {
    const argv = rsyncArgv(gpu, '/home/me', '/state/hosts/gpu/home', { timeoutSeconds: 5 });
    expect(argv).toContain('--no-links');
    expect(argv.some((a) => a.startsWith('--delete'))).toBe(false);
    expect(argv).toContain('--include=*.jsonl');
    expect(argv[argv.indexOf('-e') + 1]).toBe('ssh -o BatchMode=yes -o ConnectTimeout=5 -o ServerAliveInterval=5 -o ServerAliveCountMax=2 -p 2222');
    expect(argv.slice(-3)).toEqual([':/home/me/./.pi/agent/sessions', ':/home/me/./.qwen/projects', '/state/hosts/gpu/home/']);
    expect(argv).toContain('me@10.0.0.5:/home/me/./.claude/projects');
  });
});

// Whether a process runs (a zombie waiting for its reaper does not).
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

describe('a command for a host ends with this side (the guard, run by a real sh as sshd runs it: a group of its own)', () => {
  // As sshd runs a session's command: sh -c COMMAND, the first process of a new session, input a pipe.
  const runThere = (command: string) => spawn('sh', ['-c', guardedCommand(command)], { detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
  const ended = (child: ReturnType<typeof runThere>) => new Promise<number | null>((r) => child.on('exit', (code) => r(code)));

  it('passes the output and the exit code through while its input stays open', async () => {
    const child = runThere(`printf '%s' 'a b'; echo oops >&2; exit 3`);
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    expect(await ended(child)).toBe(3);
    expect(out).toBe('a b');
    child.stdin.destroy();
  });

  it('ends the command and all it started, hangups ignored, when its input closes', async () => {
    const child = runThere(`trap '' HUP; sleep 30 & echo $!; wait`);
    const exit = ended(child);
    const pid = await new Promise<number>((r) => child.stdout.once('data', (d: Buffer) => r(Number(d.toString().trim()))));
    expect(alive(pid)).toBe(true);
    const start = Date.now();
    child.stdin.end();
    await exit;
    expect(Date.now() - start).toBeLessThan(2000);
    await pollUntil(() => !alive(pid), { timeoutMs: 2000, description: 'the sleep it started ended' });
  });
});

describe('runBounded', () => {
  it('answers at the deadline even when a process it started holds the pipes, and kills its group', async () => {
    const start = Date.now();
    // sh hands its pipes to a background sleep and waits: as a shared connection's master holds them.
    const r = await runBounded(['sh', '-c', 'sleep 30 & echo $!; wait'], { timeoutMs: 500 });
    expect(r.timedOut).toBe(true);
    expect(Date.now() - start).toBeLessThan(1500);
    const pid = Number(r.stdout.trim());
    expect(pid).toBeGreaterThan(0);
    await pollUntil(() => !alive(pid), { timeoutMs: 2000, description: 'the sleep it started ended' });
  });
});

describe("a host's answer is untrusted", () => {
  it('keeps valid items, sanitized, and drops the rest (counted)', () => {
    const answer = JSON.stringify([row({ name: 'evil\x1b]0;pwned\x07-name', headline: 'a\u202eb\nc' }), row({ agent: 'bash' }), { id: 1 }, row({ updatedAt: 'yesterday' })]);
    const parsed = parseRemoteList(answer, remoteRowSchema);
    expect(parsed.ok && parsed.items.map((r) => [r.name, r.headline])).toEqual([['evil-name', 'ab c']]);
    expect(parsed.ok && parsed.dropped).toBe(3);
  });

  it('bounds sizes: long text cut, lists cut, junk and too much refused with one line', () => {
    const parsed = parseRemoteList(JSON.stringify([row({ headline: 'x'.repeat(10_000), tags: Array(500).fill('t') })]), remoteRowSchema);
    expect(parsed.ok && parsed.items[0]!.headline.length).toBe(500);
    expect(parsed.ok && parsed.items[0]!.tags.length).toBe(50);
    expect(parseRemoteList('\x1b]0;x\x07{"not": [json', remoteRowSchema)).toEqual({ ok: false, error: "answered something that is not recapwrap's JSON" });
    expect(parseRemoteList('{}', remoteRowSchema)).toMatchObject({ ok: false });
    expect(parseRemoteList('x'.repeat(9 * 1024 * 1024), remoteRowSchema)).toEqual({ ok: false, error: 'answered more than 8 MB' });
    const many = parseRemoteList(JSON.stringify(Array(1500).fill(row())), remoteRowSchema);
    // Past the most read: left out, and said as such (not as malformed).
    expect(many).toMatchObject({ ok: true, dropped: 0, beyond: 500 });
    expect(many.ok && many.items.length).toBe(1000);
    expect(many.ok && leftOutNote(many)).toBe('it answered 500 items more than the 1000 read from a host; those left out');
    const mixed = parseRemoteList(JSON.stringify([...Array(1000).fill(row()), row()].map((r, k) => (k === 3 ? { id: 1 } : r))), remoteRowSchema);
    expect(mixed.ok && leftOutNote(mixed)).toBe('1 malformed item left out; it answered 1 item more than the 1000 read from a host; those left out');
  });

  it('checks hits, cards and live states', () => {
    expect(parseRemoteList(JSON.stringify([row({ snippet: 'a \x1b[31mb', score: -2 })]), remoteHitSchema)).toMatchObject({ ok: true, items: [{ snippet: 'a b', score: -2 }] });
    const card = parseRemoteObject(JSON.stringify({ ...row(), done: ['x', 3], next: [], artifacts: [{ kind: 'file', label: 'a', locator: '/a' }, 'bad'], line: 'recap: x', language: 'en', resumeCommand: ['rm', '-rf', '/'] }), remoteCardSchema);
    expect(card).toMatchObject({ ok: true, item: { done: ['x'], artifacts: [{ kind: 'file', label: 'a', locator: '/a' }] } });
    expect(card.ok && 'resumeCommand' in card.item).toBe(false); // never taken from the host: built here
    const live = parseRemoteList(JSON.stringify([{ pid: 5, cwd: '/p', state: 'waiting', tmuxPane: '%3; rm -rf ~', socketPath: '/tmp/s', agent: 'claude', stateSince: '2026-11-21T10:00:00Z' }]), remoteLiveSchema);
    expect(live).toMatchObject({ ok: true, items: [{ pid: 5, state: 'waiting', tmuxPane: null, socketPath: null }] });
  });
});

describe('merging every machine', () => {
  it('rows newest first; hits interleaved by each index own rank', () => {
    const a = [{ updatedAt: '2026-11-01T00:00:00Z', score: -9, id: 'a1' }, { updatedAt: '2026-11-05T00:00:00Z', score: -1, id: 'a2' }];
    const b = [{ updatedAt: '2026-11-03T00:00:00Z', score: -0.001, id: 'b1', host: 'gpu' }];
    expect(mergeRows([a, b], 10).map((r) => r.id)).toEqual(['a2', 'b1', 'a1']);
    expect(mergeHits([a, b], 10).map((r) => r.id)).toEqual(['a1', 'b1', 'a2']);
    expect(mergeHits([a, b], 2).map((r) => r.id)).toEqual(['a1', 'b1']);
  });
});

describe("doctor's probe of a host", () => {
  it('reads a version and known agent names only', () => {
    expect(parseProbe('version=0.1.0\nfound=claude\nfound=rsync\nfound=evil\n')).toEqual({ version: '0.1.0', agents: ['claude'], rsync: true });
    expect(parseProbe('version=\n')).toEqual({ agents: [], rsync: false });
    expect(parseProbe('version=\x1b[2J1.0')).toMatchObject({ version: '1.0' });
  });
});
