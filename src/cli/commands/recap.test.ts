import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TRANSCRIPTS_DIR } from '../../../test/helpers/shared.js';
import { startModelServer, type ModelServer } from '../../../test/fakes/model-server.js';
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
    expect(r).toEqual({ out: 'done — list files with ls: Hello.txt is written and folder is listed. Listing files. Next: nothing pending.\n', err: '', code: 0 });
  });

  it('prints the Recap JSON shape and a card', async () => {
    const json = JSON.parse((await runRecap({ session: FILE, generator: 'heuristic', format: 'json' }, env)).out) as Record<string, unknown>;
    // The shared shape, plus the heuristic's parts (an extra field: composition by width).
    expect(Object.keys(json)).toEqual(['line', 'headline', 'done', 'next', 'artifacts', 'status', 'language', 'generator', 'session', 'stamp', 'createdAt', 'parts']);
    expect(json.line).toBe('recap: done — list files with ls: Hello.txt is written and folder is listed. Listing files. Next: nothing pending.');
    expect(json).toMatchObject({ status: 'idle', language: 'en', generator: { type: 'heuristic' }, session: { agent: 'pi', id: '01a208c8-f9f9-7327-8f3d-28359f1049e4', file: FILE } });
    const card = (await runRecap({ session: FILE, generator: 'heuristic', format: 'card' }, env, 100)).out;
    expect(card).toContain('What happened\n  • Hello.txt is written and folder is listed.');
    expect(card).toContain('Next\n  • nothing pending');
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

  it('--width composes the line for that many cells, keeping the state and the next step', async () => {
    for (const width of [30, 45, 71, 151]) {
      const r = await runRecap({ session: FILE, generator: 'heuristic', width: String(width) }, env, 200);
      const line = r.out.replace(/\n$/, '');
      expect(displayWidth(line), `width ${width}`).toBeLessThanOrEqual(width);
      expect(line.startsWith('done'), `width ${width}`).toBe(true);
      expect(line, `width ${width}`).toContain('Next:');
    }
    // Default: the terminal's width when stdout is one, else 220.
    expect(displayWidth((await runRecap({ session: FILE, generator: 'heuristic' }, env, 40)).out.trim())).toBeLessThanOrEqual(40);
    expect((await runRecap({ session: FILE, generator: 'heuristic' }, env, undefined)).out.trim()).toBe('done — list files with ls: Hello.txt is written and folder is listed. Listing files. Next: nothing pending.');
    expect(await runRecap({ session: FILE, width: '0' }, env)).toEqual({ out: '', err: 'recapwrap: Expected the `--width` option to be an integer from 1 to 1000, got `0`\n', code: 2 });
    expect((await runRecap({ session: FILE, width: 'wide' }, env)).code).toBe(2);
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
