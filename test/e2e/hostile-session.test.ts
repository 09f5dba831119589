// A session file written to attack the terminal (issue 40 item 7): its id and its folder hold an OSC 52
// clipboard write, a title change and a newline followed by a forged `recapwrap:` line. Driven through the
// built CLI on a temp HOME (pi's layout, test/helpers/agent-homes.ts): `resume REF` (relaunch, and a
// folder that is gone), `show`, `sessions`, `search`, `resume --list`, `name`, `note`, `forget`, and a
// REF that matches nothing. No ESC (nor any other control) and no forged line reaches stdout or stderr;
// the relaunched agent still gets its exact argv.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layOutSession } from '../helpers/agent-homes.js';
import { assertBuilt, CLI_BIN } from '../helpers/cli-pty.js';
import { TRANSCRIPTS_DIR } from '../helpers/shared.js';
import { liveState, writeLiveState } from '../helpers/live-state.js';
import { findUnsafe } from '../helpers/terminal-safe.js';

// OSC 52 (write the clipboard), OSC 0 (window title), then a newline and a line that reads as ours.
const EVIL = '\x1b]52;c;ZWNobyBwd25lZA==\x07\x1b]0;owned\x07\nrecapwrap: forged';
const ID = `7a3c9e10-${EVIL}`;
const GONE_ID = '5b2d8f00-aaaa-4bbb-8ccc-0123456789ab';

let home: string;
let work: string;
let goneCwd: string;
let bin: string;
let record: string;
let file: string;

function cli(args: string[], cwd = work, env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [CLI_BIN, ...args], {
    encoding: 'utf8',
    cwd,
    input: '',
    timeout: 30_000,
    env: { PATH: `${bin}:${process.env.PATH}`, HOME: home, XDG_STATE_HOME: join(home, '.state'), XDG_CONFIG_HOME: join(home, '.config'), RECORD: record, NO_COLOR: '1', ...env },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

// Nothing a terminal acts on, and no line of ours that the file wrote.
function expectClean(r: { out: string; err: string }, what: string): void {
  for (const [stream, text] of [['stdout', r.out], ['stderr', r.err]] as const) {
    expect(findUnsafe(text), `${what}: ${stream} ${JSON.stringify(text)}`).toEqual([]);
    expect(text.split('\n').filter((l) => /^\s*recapwrap: forged/.test(l)), `${what}: ${stream} ${JSON.stringify(text)}`).toEqual([]);
  }
}

// The pi fixture with its header's id and folder replaced.
function hostileCopy(id: string, cwd: string): string {
  const lines = readFileSync(join(TRANSCRIPTS_DIR, 'pi', 'print-2turns.jsonl'), 'utf8').split('\n');
  const header = JSON.parse(lines[0] as string) as Record<string, unknown>;
  lines[0] = JSON.stringify({ ...header, id, cwd });
  const source = join(home, `source-${lines.length}-${id.length}.jsonl`);
  writeFileSync(source, lines.join('\n').split('/home/dev/proj/pi-print').join(cwd));
  return source;
}

beforeAll(async () => {
  assertBuilt();
  home = mkdtempSync(join(tmpdir(), 'rw-hostile-'));
  work = join(home, 'proj');
  goneCwd = join(home, `gone${EVIL}`);
  bin = join(home, 'bin');
  record = join(home, 'argv.json');
  mkdirSync(work);
  mkdirSync(bin);
  file = (await layOutSession(home, 'pi', hostileCopy(ID, work))).file;
  const gone = await layOutSession(home, 'pi', hostileCopy(GONE_ID, goneCwd));
  const older = new Date(Date.UTC(2026, 10, 20));
  utimesSync(gone.file, older, older);
  writeFileSync(join(bin, 'pi'), `#!/usr/bin/env node\nrequire('node:fs').writeFileSync(process.env.RECORD, JSON.stringify(process.argv.slice(2)));\nprocess.exit(7);\n`);
  chmodSync(join(bin, 'pi'), 0o755);
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('a hostile session file never reaches the terminal raw', () => {
  it('resume REF: "resuming with" is quoted and clean, and the agent gets the exact argv', () => {
    const r = cli(['resume', ID]);
    expectClean(r, 'resume REF');
    expect(r.code).toBe(7);
    expect(r.err).toMatch(/recapwrap: resuming with: pi --session /);
    expect(JSON.parse(readFileSync(record, 'utf8'))).toEqual(['--session', file]);
  });

  it('resume REF of a session whose folder is gone: one clean error, no forged line', () => {
    const r = cli(['resume', GONE_ID]);
    expectClean(r, 'folder gone');
    expect(r.code).toBe(1);
    expect(r.err).toContain('is gone');
    expect(r.err).toContain(`recapwrap resume ${GONE_ID} --cwd DIR`);
  });

  it('next prints a live session whose folder, command and pane are hostile clean', () => {
    const stateDir = join(home, 'live-state');
    mkdirSync(stateDir, { recursive: true, mode: 0o700 });
    const since = new Date(Date.now() - 60_000).toISOString();
    writeLiveState(stateDir, liveState({ cwd: goneCwd, command: `pi${EVIL}`, agent: null, tmuxPane: `%1${EVIL}`, state: 'waiting', attention: { event: 'waiting', since }, sessionFile: join(home, `missing${EVIL}.jsonl`) }));
    const r = cli(['next'], work, { RECAPWRAP_STATE_DIR: stateDir, TMUX: '', TMUX_PANE: '' });
    expectClean(r, 'next');
    expect(r.code).toBe(0);
    expect(r.out).toContain('waiting');
  });

  it('show, sessions, search, resume --list, name, note, forget and an unknown REF print it clean', () => {
    const runs: Array<[string, string[]]> = [
      ['show', ['show', ID]],
      ['show --json', ['show', ID, '--json']],
      ['sessions', ['sessions']],
      ['search', ['search', 'hello']],
      ['resume --all --list', ['resume', '--all', '--list']],
      ['resume query', ['resume', `nothing-${EVIL}`, '--list']],
      ['name', ['name', ID, 'hostile-one']],
      ['note', ['note', ID, `a note ${EVIL}`]],
      ['unknown REF', ['show', `nope-${EVIL}`]],
      ['forget', ['forget', ID, '--yes']],
    ];
    for (const [what, args] of runs) {
      const r = cli(args);
      expectClean(r, what);
      expect(r.code, `${what}: ${r.err}`).toBeLessThan(3);
    }
  });
});
