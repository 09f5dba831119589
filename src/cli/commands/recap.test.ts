import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TRANSCRIPTS_DIR } from '../../../test/helpers/shared.js';
import { startModelServer, type ModelServer } from '../../../test/fakes/model-server.js';
import { encodePiCwd } from '../../transcripts/pi/paths.js';
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
    expect(r).toEqual({ out: 'recap: "now list the files with ls" — finished, not yet tested; changed hello.txt. Next: review the changes and run the tests.\n', err: '', code: 0 });
  });

  it('prints the Recap JSON shape and a card', async () => {
    const json = JSON.parse((await runRecap({ session: FILE, generator: 'heuristic', format: 'json' }, env)).out) as Record<string, unknown>;
    expect(Object.keys(json)).toEqual(['line', 'headline', 'done', 'next', 'artifacts', 'status', 'language', 'generator', 'session', 'stamp', 'createdAt']);
    expect(json).toMatchObject({ status: 'idle', language: 'en', generator: { type: 'heuristic' }, session: { agent: 'pi', id: '01a208c8-f9f9-7327-8f3d-28359f1049e4', file: FILE } });
    const card = (await runRecap({ session: FILE, generator: 'heuristic', format: 'card' }, env, 100)).out;
    expect(card).toContain('What happened\n  • changed hello.txt');
    expect(card).toContain('Next\n  • review the changes and run the tests');
    expect(card).toContain('Artifacts\n  file    ');
  });

  it('picks the newest session of an agent for a folder', async () => {
    const dir = join(home, '.pi', 'agent', 'sessions', encodePiCwd('/work/proj'));
    mkdirSync(dir, { recursive: true });
    cpSync(FILE, join(dir, '2026-11-22T08-00-00-000Z_a.jsonl'));
    const r = await runRecap({ agent: 'pi', cwd: '/work/proj', generator: 'heuristic' }, env);
    expect(r.code).toBe(0);
    expect(r.out).toContain('now list the files with ls');
    expect(await runRecap({ agent: 'pi', cwd: '/work/other' }, env)).toEqual({ out: '', err: 'recapwrap: no pi session for /work/other\n', code: 1 });
  });

  it('uses an OpenAI-compatible endpoint from the environment', async () => {
    server = await startModelServer([{ text: '<recap>recap: hello.txt written and listed. Next: nothing left.</recap>' }]);
    const r = await runRecap({ session: FILE, generator: 'openai' }, { ...env, OPENAI_BASE_URL: `${server.url}/v1`, OPENAI_API_KEY: 'k' });
    expect(r).toEqual({ out: 'recap: hello.txt written and listed. Next: nothing left.\n', err: '', code: 0 });
  });

  it('an explicit generator that fails exits 1 with one line; auto falls back', async () => {
    server = await startModelServer([{ status: 503 }]);
    const r = await runRecap({ session: FILE, generator: 'openai' }, { ...env, OPENAI_BASE_URL: `${server.url}/v1` });
    expect(r).toEqual({ out: '', err: 'recapwrap: openai generator: HTTP 503: scripted 503\n', code: 1 });
    // auto with a pi session would ask pi: with no pi on PATH it falls back to the heuristic.
    const auto = await runRecap({ session: FILE }, { ...env, PATH: '/nonexistent' });
    expect(auto.code).toBe(0);
    expect(auto.out).toContain('recap: "now list the files with ls"');
  });

  it('bad input: missing file, unknown agent, bad format or generator, no session named', async () => {
    expect(await runRecap({ session: join(home, 'nope.jsonl') }, env)).toEqual({ out: '', err: `recapwrap: No such file: ${join(home, 'nope.jsonl')}\n`, code: 1 });
    expect((await runRecap({ agent: 'cursor' }, env)).code).toBe(2);
    expect(await runRecap({ session: FILE, format: 'xml' }, env)).toEqual({ out: '', err: 'recapwrap: Expected the `--format` option to be one of line, card, json, got `xml`\n', code: 2 });
    const gen = await runRecap({ session: FILE, generator: 'gpt' }, env);
    expect(gen.code).toBe(2);
    expect(gen.err).toContain('--generator');
    expect((await runRecap({}, env)).code).toBe(2);
  });
});
