// A new user's report: after `forget codex-switch-list`, the old name silently found
// codex-switch-list-them-again (show, and note wrote there); and `name` gave a session a name another
// session held in another folder, so that name became ambiguous. Real CLI processes on laid-out fixtures.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layOutSession } from '../helpers/agent-homes.js';
import { assertBuilt, CLI_BIN } from '../helpers/cli-pty.js';
import { TRANSCRIPTS_DIR } from '../helpers/shared.js';

interface Row { id: string; agent: string; cwd: string; name: string; note?: string; headline: string }

let root: string;
let env: NodeJS.ProcessEnv;

function cli(...args: string[]): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [CLI_BIN, ...args], { env, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

beforeAll(async () => {
  assertBuilt();
  root = mkdtempSync(join(tmpdir(), 'rw-loose-'));
  const home = join(root, 'home');
  mkdirSync(home);
  env = { PATH: process.env.PATH, HOME: home, RECAPWRAP_STATE_DIR: join(root, 'state'), RECAPWRAP_GENERATOR: 'heuristic', TERM: 'dumb' };
  for (const f of ['codex/new-switch/first.jsonl', 'codex/new-switch/second.jsonl', 'pi/interactive-2turns.jsonl', 'pi/print-2turns.jsonl']) {
    await layOutSession(home, f.startsWith('codex') ? 'codex' : 'pi', join(TRANSCRIPTS_DIR, f));
  }
  expect(cli('index').code).toBe(0);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a name that only partly matches (bug: the forgotten name found another session)', () => {
  it('is refused by every command that writes or launches, which names the session it would have taken', () => {
    expect(cli('forget', 'codex-switch-list', '--yes').code).toBe(0);
    const meant = 'no session named "codex-switch-list"; did you mean "codex-switch-list-them-again"? (give its full name)';
    const note = cli('note', 'codex-switch-list', 'note meant for the forgotten one');
    expect(note).toMatchObject({ code: 1, out: '', err: `recapwrap: ${meant}\n` });
    expect(cli('name', 'codex-switch-list', 'renamed').err).toBe(`recapwrap: ${meant}\n`);
    expect(cli('resume', '@@codex-switch-list')).toMatchObject({ code: 1, err: `recapwrap: ${meant}\n` });
    expect(cli('index', '--summarize', '--session', 'codex-switch-list').err).toBe(`recapwrap: ${meant}\n`);
    // --json: stdout is still one JSON object.
    expect(JSON.parse(cli('note', 'codex-switch-list', 'x', '--json').out)).toEqual({ error: meant, code: 1 });
    expect(JSON.parse(cli('resume', '@@codex-switch-list', '--json').out)).toEqual({ error: meant, code: 1 });
    // Nothing was written to the other one; its full name still works.
    const other = JSON.parse(cli('show', 'codex-switch-list-them-again', '--json').out) as Row;
    expect(other.name).toBe('codex-switch-list-them-again');
    expect(other.headline).not.toContain('note meant');
    expect(cli('note', 'codex-switch-list-them-again', 'kept').code).toBe(0);
    // `resume WORDS` is still a query (it lists, it launches nothing).
    expect(cli('resume', 'codex-switch-list', '--json').err).not.toContain('did you mean');
  });

  it('is still shown and read by the commands that only read, which say it is the closest match', () => {
    const said = 'recapwrap: no session named "codex-switch-list"; showing "codex-switch-list-them-again"\n';
    const shown = cli('show', 'codex-switch-list');
    expect(shown).toMatchObject({ code: 0, err: said });
    expect(shown.out.split('\n')[0]).toMatch(/^codex-switch-list-them-again {2}\(codex /);
    const json = cli('show', 'codex-switch-list', '--json');
    expect(json.err).toBe(said);
    expect((JSON.parse(json.out) as Row).name).toBe('codex-switch-list-them-again');
    const read = cli('read', 'codex-switch-list', '--width', '80');
    expect(read.code).toBe(0);
    expect(read.err).toBe('recapwrap: no session named "codex-switch-list"; reading "codex-switch-list-them-again"\n');
    // An exact name says nothing more.
    expect(cli('show', 'codex-switch-list-them-again').err).toBe('');
  });
});

describe('a name the user gives (bug: two sessions of one name)', () => {
  it('is refused when another session holds it in any folder, saying which', () => {
    const rows = JSON.parse(cli('sessions', '--agent', 'pi', '--json').out) as Row[];
    const print = rows.find((r) => r.cwd.endsWith('pi-print')) as Row;
    const tui = rows.find((r) => r.cwd.endsWith('pi-tui')) as Row;
    const taken = cli('name', tui.id.slice(0, 10), print.name);
    expect(taken).toMatchObject({ code: 1, out: '' });
    expect(taken.err).toBe(`recapwrap: the name ${print.name} is taken by pi session ${print.id.slice(0, 8)} in ${print.cwd}; choose another\n`);
    expect((JSON.parse(cli('show', print.name, '--json').out) as Row).id).toBe(print.id); // still one session
    expect(cli('name', tui.id.slice(0, 10), tui.name).code).toBe(0); // its own name again
  });
});
