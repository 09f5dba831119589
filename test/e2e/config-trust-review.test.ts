// A hostile review of the project-file trust model (#40 item 1), through the built CLI with real files in
// a temp home: what a cloned repo's .recapwrap.json could still make recapwrap print or run.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, CLI_BIN } from '../helpers/cli-pty.js';
import { TRANSCRIPTS_DIR } from '../helpers/shared.js';

const roots: string[] = [];
beforeAll(() => assertBuilt());
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

interface Place { env: NodeJS.ProcessEnv; home: string; root: string }

function place(): Place {
  const root = mkdtempSync(join(tmpdir(), 'rw-trust-review-'));
  roots.push(root);
  chmodSync(root, 0o755);
  const home = join(root, 'home');
  mkdirSync(home, { mode: 0o755 });
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, RECAPWRAP_STATE_DIR: join(root, 'state'), RECAPWRAP_GENERATOR: 'heuristic', TERM: 'dumb', NO_COLOR: '1' };
  return { env, home, root };
}

// A project folder under the home holding this .recapwrap.json text (mode 0644, the user's).
function project(p: Place, name: string, text: string): string {
  const dir = join(p.home, name);
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  const file = join(dir, '.recapwrap.json');
  writeFileSync(file, text);
  chmodSync(file, 0o644);
  return dir;
}

function cli(p: Place, cwd: string, args: string[], stdin: 'ignore' | 'pipe' = 'ignore'): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], { env: p.env, cwd, stdio: [stdin, 'pipe', 'pipe'] });
    if (stdin === 'pipe') child.stdin?.end();
    let out = '';
    let err = '';
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => resolve({ code: code ?? -1, out, err }));
  });
}

// ESC, the 8-bit CSI and BEL: what moves a cursor, sets a title or writes the clipboard (OSC 52).
const TERMINAL_CONTROLS = /[\x07\x1b\x9b\x9d]/;

describe('a project file that tries to reach the terminal through its warnings', () => {
  // A key named with an OSC 52 clipboard write and a title change, and a value with an 8-bit CSI.
  const hostile = '{"\\u001b]52;c;ZWNobyBwd25lZA==\\u0007\\u001b]0;PWNED\\u0007": 1, "display": "\\u009b2J"}';

  it('recap --session prints its warnings clean', async () => {
    const p = place();
    const dir = project(p, 'clone', hostile);
    const r = await cli(p, dir, ['recap', '--session', join(TRANSCRIPTS_DIR, 'codex', 'print-2turns.jsonl'), '--generator', 'heuristic']);
    expect(r.code).toBe(0);
    expect(r.err).toContain('recapwrap: warning: Unknown option');
    expect(r.err).toContain('recapwrap: warning: Expected `display`');
    expect(r.err).not.toMatch(TERMINAL_CONTROLS);
  });

  it('mcp prints its warnings clean on stderr', async () => {
    const p = place();
    const dir = project(p, 'clone', hostile);
    const r = await cli(p, dir, ['mcp'], 'pipe');
    expect(r.err).toContain('recapwrap mcp: warning: Unknown option');
    expect(r.err).not.toMatch(TERMINAL_CONTROLS);
  });
});

describe('a link to a project file trusted in its own folder', () => {
  // Trusted in `infra`: hosts reached with `ssh -F ssh_config` (relative: infra's own ssh_config). A cloned
  // repo ships `.recapwrap.json -> ../infra/.recapwrap.json` and an ssh_config of its own whose
  // ProxyCommand touches a marker: the trust must not carry into the clone.
  function setUp() {
    const p = place();
    const infra = project(p, 'infra', JSON.stringify({ hosts: [{ name: 'build', ssh: ['-F', 'ssh_config', 'build'] }] }));
    writeFileSync(join(infra, 'ssh_config'), 'Host build\n  HostName 127.0.0.1\n');
    const clone = join(p.home, 'clone');
    mkdirSync(clone, { mode: 0o755 });
    symlinkSync('../infra/.recapwrap.json', join(clone, '.recapwrap.json'));
    const marker = join(p.root, 'MARKER');
    writeFileSync(join(clone, 'ssh_config'), `Host *\n  ProxyCommand sh -c 'touch ${marker}'\n`);
    return { p, infra, clone, marker };
  }

  it('is no trusted file: config shows no hosts, doctor reaches none, one warning names the link', async () => {
    const { p, infra, clone, marker } = setUp();
    expect((await cli(p, infra, ['config', 'trust'])).code).toBe(0);
    expect(JSON.parse((await cli(p, infra, ['config', '--json'])).out)).toMatchObject({ hosts: [{ name: 'build' }], project: { status: 'trusted' } });
    const json = JSON.parse((await cli(p, clone, ['config', '--json'])).out) as Record<string, unknown>;
    expect(json).toMatchObject({ hosts: [], project: { file: join(clone, '.recapwrap.json'), status: 'read', ignoredKeys: [{ key: 'hosts', why: 'a link' }] } });
    const doctor = await cli(p, clone, ['doctor', '--no-interactive']);
    expect(doctor.err.split('\n').filter((l) => l.startsWith('recapwrap: warning: '))).toEqual([
      `recapwrap: warning: ${join(clone, '.recapwrap.json')} is a link to a file elsewhere: hosts ignored (a project file sets display and timing only, and a trust never carries through a link)`,
    ]);
    expect(doctor.out).not.toMatch(/host build/);
    expect(existsSync(marker)).toBe(false);
  });

  it('cannot be trusted through the link', async () => {
    const { p, clone } = setUp();
    const r = await cli(p, clone, ['config', 'trust']);
    expect(r.code).toBe(1);
    expect(r.err).toContain('it is a link to');
    expect(JSON.parse((await cli(p, clone, ['config', '--json'])).out)).toMatchObject({ hosts: [], trusted: [] });
  });
});

describe("a folder name a cloned repo chose", () => {
  it('recap --agent in a folder named with an 8-bit CSI and an OSC title prints the folder clean', async () => {
    const p = place();
    const dir = join(p.home, 'clone', 'x\u009b2J\u001b]0;PWNED\u0007y');
    mkdirSync(dir, { recursive: true, mode: 0o755 });
    const r = await cli(p, dir, ['recap', '--agent', 'claude']);
    expect(r.code).toBe(1);
    expect(r.err).toContain('no claude session for');
    expect(r.err).not.toMatch(TERMINAL_CONTROLS);
  });
});

const sshMissing = spawnSync('sh', ['-c', 'command -v ssh'], { stdio: 'ignore' }).status !== 0;

describe.skipIf(sshMissing)('a trusted project file naming its hosts with a relative ssh -F', () => {
  // Trusted in `proj`: `ssh -F ssh_config build`, proj's own ssh_config (its ProxyCommand touches GOOD).
  // A submodule below it (a `.git` file, a third party's repo) ships an ssh_config whose ProxyCommand
  // touches BAD. Run from the submodule, ssh must read proj's file, as the user read it when trusting.
  it('runs ssh from the trusted file\'s folder, never from the folder the command runs in (a submodule)', async () => {
    const p = place();
    const proj = project(p, 'proj', JSON.stringify({ hosts: [{ name: 'build', ssh: ['-F', 'ssh_config', 'build'] }] }));
    const good = join(p.root, 'GOOD');
    const bad = join(p.root, 'BAD');
    writeFileSync(join(proj, 'ssh_config'), `Host *\n  ProxyCommand sh -c 'touch ${good}'\n`);
    const sub = join(proj, 'vendor', 'lib');
    mkdirSync(sub, { recursive: true, mode: 0o755 });
    writeFileSync(join(sub, '.git'), 'gitdir: ../../.git/modules/lib\n');
    writeFileSync(join(sub, 'ssh_config'), `Host *\n  ProxyCommand sh -c 'touch ${bad}'\n`);
    expect((await cli(p, proj, ['config', 'trust'])).code).toBe(0);
    const doctor = await cli(p, sub, ['doctor', '--no-interactive']);
    expect(doctor.out).toMatch(/host build/);
    expect(existsSync(good)).toBe(true);
    expect(existsSync(bad)).toBe(false);
  });
});
