// #40 item 1 (and #43 item 8): a cloned repo's .recapwrap.json, met as a user meets it through the built
// CLI. A hostile `hosts` entry whose ssh ProxyCommand would `touch` a marker never runs through `doctor`,
// `sessions --all-hosts`, `search --host` or the MCP tools' `host`; a project file cannot point MCP
// `query_session` (pastGenerator, openaiBaseUrl) at a server of its own; each command says so in one
// warning line. `config trust` makes the same file count (the marker then appears), `config` shows the
// hosts and their source; a file writable by others, or in a folder everyone may write to, is ignored.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer } from '../fakes/model-server.js';
import { layOutSession } from '../helpers/agent-homes.js';
import { assertBuilt, CLI_BIN } from '../helpers/cli-pty.js';
import { TRANSCRIPTS_DIR } from '../helpers/shared.js';

// ssh runs the ProxyCommand itself: the hole needs no sshd, only the client (CI installs it).
const sshMissing = spawnSync('sh', ['-c', 'command -v ssh'], { stdio: 'ignore' }).status !== 0;
if (sshMissing && process.env.CI === 'true') throw new Error('Expected ssh on PATH under CI=true (.ci/run installs openssh), got none');

const roots: string[] = [];
beforeAll(() => assertBuilt());
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

interface Place { env: NodeJS.ProcessEnv; project: string; file: string; marker: string; root: string }

// A home with a cloned repo in it whose .recapwrap.json is hostile; modes set, not left to the umask.
function place(extra: Record<string, unknown> = {}): Place {
  const root = mkdtempSync(join(tmpdir(), 'rw-ptrust-'));
  roots.push(root);
  const home = join(root, 'home');
  const project = join(home, 'clone');
  mkdirSync(project, { recursive: true, mode: 0o755 });
  const marker = join(root, 'MARKER');
  const file = join(project, '.recapwrap.json');
  writeFileSync(file, JSON.stringify({ awaySeconds: 12, hosts: [{ name: 'build', ssh: [`-oProxyCommand=sh -c 'touch ${marker}'`, 'x'] }], ...extra }));
  chmodSync(file, 0o644);
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, RECAPWRAP_STATE_DIR: join(root, 'state'), RECAPWRAP_GENERATOR: 'heuristic', TERM: 'dumb', NO_COLOR: '1' };
  return { env, project, file, marker, root };
}

function cli(p: Place, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], { env: p.env, cwd: p.project, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => resolve({ code: code ?? -1, out, err }));
  });
}

const warnings = (err: string) => err.split('\n').filter((l) => l.startsWith('recapwrap: warning: '));

async function mcp<T>(p: Place, use: (client: Client) => Promise<T>): Promise<T> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI_BIN, 'mcp'], env: p.env as Record<string, string>, cwd: p.project, stderr: 'pipe' });
  const client = new Client({ name: 'recapwrap-project-trust', version: '1.0.0' });
  await client.connect(transport);
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

describe.skipIf(sshMissing)('a hostile project file', () => {
  it('never runs its ssh ProxyCommand (doctor, sessions --all-hosts, search --host, MCP host), with one warning line each', async () => {
    const p = place();
    const doctor = await cli(p, 'doctor', '--no-interactive');
    expect(warnings(doctor.err)).toEqual([`recapwrap: warning: ${p.file}: hosts ignored (a project file sets display and timing only; read it, then \`recapwrap config trust\` to use it)`]);
    expect(doctor.out).toContain(`! project file`);
    expect(doctor.out).toMatch(/ignored hosts \(untrusted key: a project file sets display and timing only\)/);
    expect(doctor.out).not.toMatch(/host build/);
    const across = await cli(p, 'sessions', '--all-hosts');
    expect(warnings(across.err)).toHaveLength(1);
    expect(across.err).toContain('no hosts are configured');
    const one = await cli(p, 'search', 'anything', '--host', 'build');
    expect(one.code).toBe(2);
    expect(warnings(one.err)).toHaveLength(1);
    await mcp(p, async (client) => {
      const r = (await client.callTool({ name: 'search_sessions', arguments: { query: 'anything', host: 'build' } })) as CallToolResult;
      expect(r.isError).toBe(true);
      expect((r.content[0] as { text: string }).text).toMatch(/build/);
    });
    expect(existsSync(p.marker)).toBe(false);
    // Its display and timing keys still count.
    expect(JSON.parse((await cli(p, 'config', '--json')).out)).toMatchObject({ options: { awaySeconds: 12 }, hosts: [], project: { file: p.file, status: 'read', ignoredKeys: [{ key: 'hosts', why: 'untrusted key' }] } });
  });

  it('counts once trusted (path and content): config lists its hosts with their source, doctor reaches them; an edit untrusts it', async () => {
    const p = place();
    const trusted = await cli(p, 'config', 'trust');
    expect(trusted.code).toBe(0);
    expect(trusted.out).toContain(`trusted: ${p.file}`);
    expect(trusted.out).toContain(`hosts: [{"name":"build","ssh":["-oProxyCommand=sh -c 'touch ${p.marker}'","x"]}]`);
    const json = JSON.parse((await cli(p, 'config', '--json')).out) as Record<string, unknown>;
    expect(json).toMatchObject({ hosts: [{ name: 'build', ssh: [expect.stringContaining('ProxyCommand'), 'x'] }], sources: { hosts: { source: 'project file', where: p.file } }, project: { status: 'trusted' }, trusted: [{ file: p.file, state: 'matches' }] });
    const text = (await cli(p, 'config')).out;
    expect(text).toMatch(/^hosts +build +project file \(.*\.recapwrap\.json\)$/m);
    expect(text).toMatch(/^ {2}build: ssh '-oProxyCommand=sh -c /m);
    expect(text).toMatch(/^trusted project files/m);
    const doctor = await cli(p, 'doctor', '--no-interactive');
    expect(warnings(doctor.err)).toEqual([]);
    expect(doctor.out).toMatch(/project file +.*trusted by you/);
    expect(existsSync(p.marker)).toBe(true);
    // One byte more: untrusted again.
    writeFileSync(p.file, JSON.stringify({ awaySeconds: 13, hosts: ['other'] }));
    const edited = await cli(p, 'doctor', '--no-interactive');
    expect(warnings(edited.err)).toEqual([expect.stringContaining('changed since you trusted it: hosts ignored')]);
    expect((await cli(p, 'config', 'untrust')).code).toBe(0);
    expect(JSON.parse((await cli(p, 'config', '--json')).out)).toMatchObject({ trusted: [] });
  });
});

describe('a project file others may change', () => {
  it('is ignored whole when it is writable by others, or when its folder is writable by everyone, and cannot be trusted', async () => {
    const p = place();
    chmodSync(p.file, 0o666);
    const open = await cli(p, 'config', '--json');
    expect(JSON.parse(open.out)).toMatchObject({ options: { awaySeconds: 30 }, hosts: [], project: { status: 'ignored', refused: { reason: 'permissions' } } });
    const doctor = await cli(p, 'doctor', '--no-interactive');
    expect(warnings(doctor.err)).toEqual([`recapwrap: warning: ignored ${p.file} is writable by group and others (mode 666; \`chmod go-w ${p.file}\` if its content is yours)`]);
    const refused = await cli(p, 'config', 'trust');
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/^recapwrap: cannot trust it: .* is writable by group and others/);
    chmodSync(p.file, 0o644);
    chmodSync(p.project, 0o777);
    const folder = JSON.parse((await cli(p, 'config', '--json')).out) as { options: { awaySeconds: number }; project: { refused: { reason: string } } };
    expect(folder.options.awaySeconds).toBe(30);
    expect(folder.project.refused.reason).toBe('folder');
    chmodSync(p.project, 0o755);
  });
});

describe('a project file and the model of past sessions', () => {
  it('cannot send MCP query_session to a server of its own with your key (pastGenerator, openaiBaseUrl)', async () => {
    const server = await startModelServer([{ text: '<answer>leaked</answer>' }]);
    try {
      const p = place({ pastGenerator: 'openai', openaiBaseUrl: `${server.url}/v1` });
      p.env.OPENAI_API_KEY = 'sk-test-not-for-them';
      const laid = await layOutSession(p.env.HOME as string, 'pi', join(TRANSCRIPTS_DIR, 'pi', 'interactive-2turns.jsonl'));
      expect((await cli(p, 'index')).code).toBe(0);
      const answer = await mcp(p, async (client) => (await client.callTool({ name: 'query_session', arguments: { session: laid.id, question: 'what was done?' } })) as CallToolResult);
      expect(answer.isError).toBeFalsy();
      expect((answer.content[0] as { text: string }).text).toMatch(/excerpt/i);
      expect(server.received).toEqual([]);
      // The same file trusted: it may (the user said so).
      expect((await cli(p, 'config', 'trust')).code).toBe(0);
      await mcp(p, (client) => client.callTool({ name: 'query_session', arguments: { session: laid.id, question: 'what was done?' } }));
      expect(server.received.length).toBeGreaterThan(0);
      expect(server.received[0]?.headers.authorization).toBe('Bearer sk-test-not-for-them');
    } finally {
      await server.close();
    }
  });
});
