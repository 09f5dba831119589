import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TRANSCRIPTS_DIR } from '../../../test/helpers/shared.js';
import { startModelServer, type ModelServer } from '../../../test/fakes/model-server.js';
import { liveState, writeLiveState } from '../../../test/helpers/live-state.js';
import { encodePiCwd } from '../../transcripts/pi/paths.js';
import { displayWidth } from '../../util/text-width.js';
import { runRecap } from './recap.js';

const FILE = join(TRANSCRIPTS_DIR, 'pi/print-2turns.jsonl');
let home: string;
let server: ModelServer | undefined;
let env: Record<string, string | undefined>;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'rw-recap-cmd-'));
  env = { HOME: home, PATH: process.env.PATH, XDG_STATE_HOME: join(home, 'state'), XDG_CONFIG_HOME: join(home, 'config') };
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  rmSync(home, { recursive: true, force: true });
});

describe('recapwrap recap', () => {
  it('prints the heuristic line for a session file', async () => {
    const r = await runRecap({ session: FILE, generator: 'heuristic' }, env, 200);
    expect(r).toEqual({ out: 'pi-print · done — list files with ls: hello.txt is written and folder is listed.\n', err: '', code: 0 });
  });

  it('prints the Recap JSON shape and a card', async () => {
    const json = JSON.parse((await runRecap({ session: FILE, generator: 'heuristic', format: 'json' }, env)).out) as Record<string, unknown>;
    // The shared shape, plus the heuristic's parts (an extra field: composition by width).
    expect(Object.keys(json)).toEqual(['line', 'headline', 'done', 'next', 'artifacts', 'status', 'language', 'generator', 'session', 'stamp', 'createdAt', 'parts']);
    expect(json.line).toBe('recap: pi-print · done — list files with ls: hello.txt is written and folder is listed.');
    expect(json).toMatchObject({ status: 'idle', language: 'en', generator: { type: 'heuristic' }, session: { agent: 'pi', id: '01a208c8-f9f9-7327-8f3d-28359f1049e4', file: FILE } });
    const card = (await runRecap({ session: FILE, generator: 'heuristic', format: 'card' }, env, 100)).out;
    expect(card).toContain('What happened\n  • hello.txt is written and folder is listed.');
    // No next step worth saying: the card has no Next section rather than "nothing pending" (issue 27).
    expect(card).not.toContain('nothing pending');
    expect(card).not.toContain('Next\n');
    expect(card).toContain('Artifacts\n  file    ');
  });

  it('picks the newest session of an agent for a folder', async () => {
    const dir = join(home, '.pi', 'agent', 'sessions', encodePiCwd('/work/proj'));
    mkdirSync(dir, { recursive: true });
    cpSync(FILE, join(dir, '2026-11-22T08-00-00-000Z_a.jsonl'));
    const r = await runRecap({ agent: 'pi', cwd: '/work/proj', generator: 'heuristic' }, env);
    expect(r.code).toBe(0);
    expect(r.out).toContain('list files with ls');
    expect(await runRecap({ agent: 'pi', cwd: '/work/other' }, env)).toEqual({ out: '', err: 'recapwrap: no pi session for /work/other\n', code: 1 });
  });

  it('uses an OpenAI-compatible endpoint from the environment', async () => {
    server = await startModelServer([{ text: '<recap>recap: hello.txt written and listed. Next: nothing left.</recap>' }]);
    const r = await runRecap({ session: FILE, generator: 'openai' }, { ...env, OPENAI_BASE_URL: `${server.url}/v1`, OPENAI_API_KEY: 'k' });
    expect(r).toEqual({ out: 'hello.txt written and listed. Next: nothing left.\n', err: '', code: 0 });
  });

  it('an explicit generator that fails exits 1 with one line; auto falls back', async () => {
    server = await startModelServer([{ status: 503 }]);
    const r = await runRecap({ session: FILE, generator: 'openai' }, { ...env, OPENAI_BASE_URL: `${server.url}/v1` });
    expect(r).toEqual({ out: '', err: 'recapwrap: openai generator: HTTP 503: scripted 503\n', code: 1 });
    // auto with a pi session would ask pi: with no pi on PATH it falls back to the heuristic.
    const auto = await runRecap({ session: FILE }, { ...env, PATH: '/nonexistent' });
    expect(auto.code).toBe(0);
    expect(auto.out).toContain('done — list files with ls');
  });

  // #28 point 1: reading an old session sends nothing anywhere unless a model is asked for.
  it('a past session is recapped by the heuristic; an agent CLI on PATH runs only with --generator agent or pastGenerator', async () => {
    const bin = join(home, 'bin');
    mkdirSync(bin);
    const record = join(home, 'ran.json');
    writeFileSync(join(bin, 'pi'), `#!/usr/bin/env node\nrequire('node:fs').writeFileSync(${JSON.stringify(record)}, JSON.stringify(process.argv.slice(2)));\nprocess.stdout.write('<recap>recap: stand-in model answer about hello.txt. Next: nothing.</recap>');\n`);
    chmodSync(join(bin, 'pi'), 0o755);
    const withPi = { ...env, PATH: `${bin}:${process.env.PATH}` };
    for (const format of ['line', 'card', 'json']) {
      const r = await runRecap({ session: FILE, format }, withPi, 200);
      expect(r.code, format).toBe(0);
      expect(existsSync(record), format).toBe(false);
    }
    expect((await runRecap({ session: FILE }, withPi, 200)).out).toContain('list files with ls');
    // The live wrapper's `generator` does not apply to past sessions; only pastGenerator or the flag do.
    expect(existsSync(record)).toBe(false);
    await runRecap({ session: FILE }, { ...withPi, RECAPWRAP_GENERATOR: 'agent' }, 200);
    expect(existsSync(record)).toBe(false);
    const asked = await runRecap({ session: FILE, generator: 'agent' }, withPi, 200);
    expect(asked).toEqual({ out: 'stand-in model answer about hello.txt. Next: nothing.\n', err: '', code: 0 });
    expect(existsSync(record)).toBe(true);
    rmSync(record);
    rmSync(join(home, 'state'), { recursive: true, force: true }); // the cached model recap
    const configured = await runRecap({ session: FILE }, { ...withPi, RECAPWRAP_PAST_GENERATOR: 'auto' }, 200);
    expect(configured.out).toContain('stand-in model answer');
    expect(existsSync(record)).toBe(true);
  });

  it('--width composes the line for that many cells, keeping the project label and the state (no generic next step)', async () => {
    for (const width of [30, 45, 71, 151]) {
      const r = await runRecap({ session: FILE, generator: 'heuristic', width: String(width) }, env, 200);
      const line = r.out.replace(/\n$/, '');
      expect(displayWidth(line), `width ${width}`).toBeLessThanOrEqual(width);
      expect(line.startsWith(width >= 40 ? 'pi-print · done' : 'done'), `width ${width}`).toBe(true);
      expect(line, `width ${width}`).not.toContain('Next:');
    }
    // Default: the terminal's width when stdout is one, else 220.
    expect(displayWidth((await runRecap({ session: FILE, generator: 'heuristic' }, env, 40)).out.trim())).toBeLessThanOrEqual(40);
    expect((await runRecap({ session: FILE, generator: 'heuristic' }, env, undefined)).out.trim()).toBe('pi-print · done — list files with ls: hello.txt is written and folder is listed.');
    expect(await runRecap({ session: FILE, width: '0' }, env)).toEqual({ out: '', err: 'recapwrap: Expected `--width` to be a whole number of cells from 20 to 1000, got `0`\n', code: 2 });
    expect((await runRecap({ session: FILE, width: 'wide' }, env)).code).toBe(2);
  });

  it('bad input: missing file, unknown agent, bad format or generator, no session named', async () => {
    expect(await runRecap({ session: join(home, 'nope.jsonl') }, env)).toEqual({ out: '', err: `recapwrap: No such file: ${join(home, 'nope.jsonl')}\n`, code: 1 });
    expect((await runRecap({ agent: 'cursor' }, env)).code).toBe(2);
    expect(await runRecap({ session: FILE, format: 'xml' }, env)).toEqual({ out: '', err: 'recapwrap: Expected `--format` to be one of line, card, json, got `xml`\n', code: 2 });
    const gen = await runRecap({ session: FILE, generator: 'gpt' }, env);
    expect(gen.code).toBe(2);
    expect(gen.err).toContain('--generator');
    expect((await runRecap({}, env)).code).toBe(2);
  });

  // #18: a file with no line of the agent's format is an error, not "nothing asked yet" with exit 0.
  it('a file with no line of the agent\'s format, an empty file or a non-JSON file: one line, exit 1', async () => {
    const codex = join(home, 'rollout.jsonl');
    writeFileSync(codex, [
      JSON.stringify({ timestamp: '2026-11-22T08:00:00Z', type: 'session_meta', payload: { id: 'x', cwd: '/w' } }),
      JSON.stringify({ timestamp: '2026-11-22T08:00:01Z', type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] } }),
    ].join('\n') + '\n');
    const wrong = await runRecap({ session: codex, agent: 'claude', generator: 'heuristic' }, env);
    expect(wrong).toEqual({ out: '', err: `recapwrap: no line of ${codex} is in claude's session format (2 lines skipped); is it another agent's? try without --agent\n`, code: 1 });
    const empty = join(home, 'empty.jsonl');
    writeFileSync(empty, '');
    expect(await runRecap({ session: empty, agent: 'pi', generator: 'heuristic' }, env)).toEqual({ out: '', err: `recapwrap: ${empty} is empty: no session to recap\n`, code: 1 });
    const text = join(home, 'notes.txt');
    writeFileSync(text, 'just some notes\nnot json at all\n');
    const notJson = await runRecap({ session: text, agent: 'pi', generator: 'heuristic' }, env);
    expect(notJson.code).toBe(1);
    expect(notJson.err).toMatch(/^recapwrap: no line of .*notes\.txt is in pi's session format \(2 lines skipped\)/);
    expect(notJson.err.split('\n')).toHaveLength(2);
  });

  // #28 point 8: the message says what is wrong first: empty (with or without --agent), a line too long.
  it('an empty file says "empty" without --agent too; a line over the per-line limit says so, with its size', async () => {
    const empty = join(home, 'empty.jsonl');
    writeFileSync(empty, '\n  \n');
    expect(await runRecap({ session: empty }, env)).toEqual({ out: '', err: `recapwrap: ${empty} is empty: no session in it\n`, code: 1 });
    const long = join(home, 'long.jsonl');
    writeFileSync(long, JSON.stringify({ type: 'user', message: { role: 'user', content: 'x'.repeat(11 * 1024 * 1024) } }) + '\n');
    const r = await runRecap({ session: long, agent: 'claude' }, env);
    expect(r).toEqual({ out: '', err: `recapwrap: a line of ${long} is over the 10 MB limit per line (11.0 MB) and was not read: no session to recap\n`, code: 1 });
  });

  it('a session with a header and nothing asked yet is still a recap (exit 0)', async () => {
    const header = join(home, 'header.jsonl');
    writeFileSync(header, JSON.stringify({ type: 'session', version: 3, id: 'abc', timestamp: '2026-11-22T08:00:00Z', cwd: '/w' }) + '\n');
    const r = await runRecap({ session: header, agent: 'pi', generator: 'heuristic' }, env);
    expect(r.code).toBe(0);
  });

  it('usage errors exit 2: --pane with --session/--agent, --show without --pane, --no-llm with a model generator (#18)', async () => {
    expect(await runRecap({ pane: '%2', session: FILE }, env)).toEqual({ out: '', err: 'recapwrap: --pane and --session both name a session; give one of them\n', code: 2 });
    expect((await runRecap({ pane: '%2', agent: 'pi' }, env)).code).toBe(2);
    expect(await runRecap({ session: FILE, show: true }, env)).toEqual({ out: '', err: 'recapwrap: --show needs --pane (the live pane to show the recap in)\n', code: 2 });
    expect(await runRecap({ session: FILE, generator: 'anthropic', llm: false }, env)).toEqual({ out: '', err: '--no-llm allows no model, but --generator anthropic is one; drop one of them'.replace(/^/, 'recapwrap: ') + '\n', code: 2 });
    expect((await runRecap({ session: FILE, generator: 'heuristic', llm: false }, env)).code).toBe(0);
  });

  it('--generator openai or anthropic with no key says so without going to the network (#18)', async () => {
    // No key and the public endpoint: said at once, before any request (a request would fail another way here).
    const openai = await runRecap({ session: FILE, generator: 'openai' }, env);
    expect(openai).toEqual({ out: '', err: 'recapwrap: the openai generator has no API key: set OPENAI_API_KEY (or RECAPWRAP_OPENAI_API_KEY), or point RECAPWRAP_OPENAI_BASE_URL at a local server\n', code: 1 });
    const anthropic = await runRecap({ session: FILE, generator: 'anthropic' }, env);
    expect(anthropic.err).toBe('recapwrap: the anthropic generator has no API key: set ANTHROPIC_API_KEY (or RECAPWRAP_ANTHROPIC_API_KEY)\n');
    // A local OpenAI-compatible server needs no key.
    server = await startModelServer([{ text: '<recap>recap: local. Next: none.</recap>' }]);
    expect((await runRecap({ session: FILE, generator: 'openai' }, { ...env, OPENAI_BASE_URL: `${server.url}/v1` })).code).toBe(0);
  });

  it('--pane: a pane without recapwrap is named; card and json come from the session file that wrapper follows (#18)', async () => {
    expect(await runRecap({ pane: '%0' }, env)).toEqual({ out: '', err: 'recapwrap: no live recapwrap in pane %0\n', code: 1 });
    const stateDir = join(home, 'state', 'recapwrap');
    mkdirSync(stateDir, { recursive: true });
    writeLiveState(stateDir, liveState({ sessionFile: FILE, sessionId: 'x', tmuxPane: '%2', socketPath: join(home, 'no.sock') }));
    const json = await runRecap({ pane: '%2', format: 'json', generator: 'heuristic' }, env);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.out)).toMatchObject({ status: 'idle', session: { agent: 'pi', file: FILE } });
    const card = await runRecap({ pane: '%2', format: 'card', generator: 'heuristic' }, env, 100);
    expect(card.out).toContain('What happened\n');
    // line asks the wrapper itself, which is not answering here.
    const line = await runRecap({ pane: '%2' }, env);
    expect(line.code).toBe(1);
    expect(line.err).toMatch(/^recapwrap: cannot reach the wrapper in pane %2: /);
    // A wrapped command that is not an agent has no recap, and says so (#28 point 9).
    writeLiveState(stateDir, liveState({ pid: process.ppid, agent: null, command: 'bash', tmuxPane: '%4' }));
    expect(await runRecap({ pane: '%4' }, env)).toEqual({ out: '', err: 'recapwrap: pane %4 runs bash under recapwrap: a command, not an agent, so it has no recap\n', code: 1 });
  });
});
