// `recapwrap read` (#41) over real fixture files: REF as a path, the live session of a pane (state file),
// --turn, --at, --outline, the views, a big file streamed (no counts, prompt N found while reading), a
// reader that goes away early, and the one-line errors with show's exit codes.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveState, writeLiveState } from '../../../test/helpers/live-state.js';
import { runRead, type ReadCliOptions, type ReadDeps } from './read-run.js';

const FIXTURE = resolve('test/fixtures/transcripts/pi/reader/branches.jsonl');
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rw-read-run-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

class Sink extends Writable {
  text = '';
  /** Stop taking writes after this many characters, as `head` closes its end. */
  constructor(private readonly closeAfter = Number.POSITIVE_INFINITY) {
    super();
  }
  override _write(chunk: Buffer, _enc: string, done: (error?: Error) => void): void {
    if (this.text.length >= this.closeAfter) {
      done(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      return;
    }
    this.text += chunk.toString();
    done();
  }
}

async function read(ref: string | undefined, options: ReadCliOptions = {}, over: Partial<ReadDeps> & { closeAfter?: number } = {}) {
  const out = new Sink(over.closeAfter);
  let err = '';
  const deps: ReadDeps = {
    env: { HOME: join(dir, 'home'), RECAPWRAP_STATE_DIR: join(dir, 'state'), XDG_CONFIG_HOME: join(dir, 'config') },
    cwd: dir,
    tty: false,
    stdout: out,
    stderr: (t) => {
      err += t;
    },
    ...over,
  };
  const code = await runRead(ref, options, deps);
  return { code, out: out.text, err };
}

describe('recapwrap read', () => {
  it('a transcript path, piped: plain text at 80 cells, no escape sequence', async () => {
    const r = await read(FIXTURE);
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(r.out.split('\n')[0]).toBe('pi');
    expect(r.out).toContain('\n› 1/3  ');
    expect(r.out).not.toContain('\x1b');
    expect(Math.max(...r.out.split('\n').map((l) => [...l].length))).toBeLessThanOrEqual(80);
    const colored = await read(FIXTURE, { color: true });
    expect(colored.out).toMatch(/\x1b\[[0-9;]*m› 1\/3/);
  });

  it('--turn N starts at prompt N (after the header); --at WORDS at the first message holding them', async () => {
    const r = await read(FIXTURE, { turn: '3' });
    expect(r.code).toBe(0);
    expect(r.out).not.toContain('› 1/3');
    expect(r.out).toContain('› 3/3');
    expect(r.out).toContain('counts  3 prompts');
    const at = await read(FIXTURE, { at: 'missing-dir failed' });
    expect(at.code).toBe(0);
    expect(at.out).not.toContain('› 1/3');
    expect(at.out).toContain('missing-dir');
    expect(await read(FIXTURE, { turn: '9' })).toMatchObject({ code: 1, out: '', err: 'recapwrap: no prompt 9: the session has 3 prompts\n' });
    expect(await read(FIXTURE, { at: 'zzzunknownword' })).toMatchObject({ code: 1, err: 'recapwrap: no message of this session holds "zzzunknownword"\n' });
  });

  it('--outline: a line per prompt and the branch', async () => {
    const r = await read(FIXTURE, { outline: true, width: '100' });
    expect(r.out.split('\n').filter(Boolean).map((l) => l.slice(0, 7))).toEqual(['› 1/3  ', '› 2/3  ', '━ branc', '› 3/3  ']);
  });

  it('the views: --focused has no tool line, --full the whole output', async () => {
    const focused = await read(FIXTURE, { focused: true });
    expect(focused.out).not.toContain('▸ ');
    const full = await read(FIXTURE, { full: true });
    expect(full.out).toContain('Command exited with code 2');
    expect(full.out).not.toContain('more lines (--full)');
  });

  it('no REF: the live session of this tmux pane, as its state file names it; --pane ID from outside', async () => {
    mkdirSync(join(dir, 'state'), { recursive: true });
    writeLiveState(join(dir, 'state'), liveState({ tmuxPane: '%7', sessionFile: FIXTURE, cwd: '/elsewhere' }));
    const here = await read(undefined, {}, { env: { HOME: join(dir, 'home'), RECAPWRAP_STATE_DIR: join(dir, 'state'), TMUX_PANE: '%7' } });
    expect(here.code).toBe(0);
    expect(here.out).toContain('› 1/3');
    expect((await read(undefined, { pane: '%7' })).code).toBe(0);
    expect(await read(undefined, { pane: '%99' })).toMatchObject({ code: 1, err: 'recapwrap: no live recapwrap session in pane %99 (recapwrap ls lists them)\n' });
    expect((await read(undefined)).code).toBe(2);
  });

  it('a big file is streamed: the first prompts are out although the reader stops early, --turn found while reading', async () => {
    // Over the 8 MB read whole: the fixture's turns repeated (new ids, one chain).
    const lines = (await import('node:fs')).readFileSync(FIXTURE, 'utf8').split('\n').filter(Boolean);
    const header = lines[0] as string;
    const body = lines.slice(1, 9); // the main line's first turn (prompt 1 to its answer)
    const big = join(dir, 'big.jsonl');
    const parts: string[] = [header];
    let parent: string | null = null;
    let size = 0;
    for (let i = 0; size < 9 * 1024 * 1024; i++) {
      for (const l of body) {
        const o = JSON.parse(l) as { id: string; parentId: string | null };
        o.id = `${o.id}-${i}`;
        o.parentId = parent;
        parent = o.id;
        const line = JSON.stringify(o);
        size += line.length + 1;
        parts.push(line);
      }
    }
    writeFileSync(big, `${parts.join('\n')}\n`);
    const early = await read(big, {}, { closeAfter: 2000 });
    expect(early.code).toBe(0);
    expect(early.out).toContain('› 1  ');
    expect(early.out).not.toContain('counts');
    const turn = await read(big, { turn: '5' }, { closeAfter: 2000 });
    expect(turn.out).toContain('› 5  ');
    expect(turn.out).not.toContain('› 4  ');
  });

  it('--host NAME reads the copy of that host\'s sessions pulled here, through the copy\'s own index', async () => {
    // The copy as `index --host bare --pull` leaves it: <state>/hosts/bare/{meta.json, home/…}, indexed there.
    const copy = join(dir, 'state', 'hosts', 'bare');
    const sessions = join(copy, 'home', '.pi', 'agent', 'sessions', '--home-dev-proj-pi-reader--');
    mkdirSync(sessions, { recursive: true });
    copyFileSync(FIXTURE, join(sessions, '2026-11-28T08-43-52-000Z_01a22153-4174-770c-b982-163a512f310b.jsonl'));
    writeFileSync(join(copy, 'meta.json'), JSON.stringify({ remoteHome: '/home/dev', pulledAt: new Date().toISOString() }));
    const r = await read('01a22153', { host: 'bare' });
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out.split('\n')[0]).toMatch(/^pi · .+ · on bare$/);
    expect(r.out).toContain('› 3/3');
    expect(await read('01a22153', { host: 'other' })).toMatchObject({ code: 1, err: "recapwrap: no copy of other's sessions here: read reads files of this machine; pull them first: recapwrap index --host other --pull\n" });
    expect((await read(undefined, { host: 'bare' })).code).toBe(2);
  });

  it('errors: one line each, exit codes as show', async () => {
    expect(await read(join(dir, 'missing.jsonl'))).toMatchObject({ code: 1, out: '', err: `recapwrap: No such file: ${join(dir, 'missing.jsonl')}\n` });
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '');
    expect(await read(empty)).toMatchObject({ code: 1, err: `recapwrap: ${empty} is empty: no session in it\n` });
    const folder = join(dir, 'folder');
    mkdirSync(folder);
    expect((await read(`${folder}/`)).err).toBe(`recapwrap: ${folder} is a folder, not a session file\n`);
    expect(await read(FIXTURE, { focused: true, full: true })).toMatchObject({ code: 2, err: 'recapwrap: use --focused or --full, not both\n' });
    expect((await read(FIXTURE, { width: '5' })).code).toBe(2);
    expect((await read(FIXTURE, { turn: '0' })).code).toBe(2);
    expect((await read(FIXTURE, { agent: 'vim' })).code).toBe(2);
    expect(await read(FIXTURE, { pane: '%1' })).toMatchObject({ code: 2, err: 'recapwrap: give a REF or --pane ID, not both\n' });
    // On a terminal, a pager that cannot be run is said (the text would be lost without a word).
    const noPager = await read(FIXTURE, {}, { tty: true, env: { HOME: join(dir, 'home'), PAGER: join(dir, 'no-such-pager') } });
    expect(noPager).toMatchObject({ code: 1, err: `recapwrap: the pager \`${join(dir, 'no-such-pager')}\` could not be run (exit 127); set $PAGER, or use --no-pager\n` });
    // A file named here by its bare name is read as a file, not looked up in the index.
    copyFileSync(FIXTURE, join(dir, 'mine.jsonl'));
    expect((await read('mine.jsonl')).out).toContain('› 1/3');
  });
});
