// A new user's ~/.config/recapwrap/config.json was cut short: `recapwrap config` warned it cannot be read,
// but `doctor` said nothing of it and counted no warning for it. doctor reports the global file: where it
// is, whether it was read, and why not (a broken one is a warning). The built CLI, a temp home.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, CLI_BIN } from '../helpers/cli-pty.js';

const root = mkdtempSync(join(tmpdir(), 'rw-doctor-global-'));
const home = join(root, 'home');
const configDir = join(home, '.config', 'recapwrap');
const configFile = join(configDir, 'config.json');
const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, RECAPWRAP_STATE_DIR: join(root, 'state'), TERM: 'dumb', NO_COLOR: '1' };

beforeAll(() => {
  assertBuilt();
  mkdirSync(configDir, { recursive: true });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function doctor(): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI_BIN, 'doctor', '--no-interactive'], { env, cwd: home, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => resolve({ code: code ?? -1, out, err }));
  });
}
const warned = (out: string) => Number(/Usable, with (\d+) warnings?\./.exec(out)?.[1] ?? 0);

describe('bug-regression: doctor and the global config file', () => {
  it('reports a file cut short as a warning that says where it is and why it cannot be read', async () => {
    rmSync(configFile, { force: true });
    const none = await doctor();
    expect(none.out).toMatch(/- global config\s+none at .*config\.json/);
    const before = warned(none.out);

    writeFileSync(configFile, '{ "awaySeconds": 60, "hotkey": "ctrl-^" ');
    const broken = await doctor();
    expect(broken.code).toBe(0);
    expect(broken.out).toMatch(/! global config\s+.*config\.json cannot be read/);
    expect(broken.out).toMatch(/Expected ',' or '}'/);
    expect(warned(broken.out)).toBe(before + 1);

    // A bad value: the rest of the file is read, the value is not.
    writeFileSync(configFile, '{ "awaySeconds": -3 }\n');
    const bad = await doctor();
    expect(bad.out).toMatch(/! global config\s+.*config\.json: read, with problems: Expected `awaySeconds`/);
    expect(warned(bad.out)).toBe(before + 1);

    writeFileSync(configFile, '{ "awaySeconds": 60 }\n');
    const fine = await doctor();
    expect(fine.out).toMatch(/✓ global config\s+.*config\.json: read$/m);
    expect(warned(fine.out)).toBe(before);
  });
});
