import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkSummaries } from './doctor-summaries.js';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'rw-doctor-sum-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));
const env = (over: Record<string, string>) => ({ HOME: dir, XDG_CONFIG_HOME: join(dir, 'config'), PATH: process.env.PATH, ...over });

describe('doctor: what summaries will cost', () => {
  it('names the model each agent goes to, when calls are made and their bound', () => {
    const r = checkSummaries(env({ RECAPWRAP_GENERATOR: 'openai', RECAPWRAP_OPENAI_MODEL: 'gpt-sum', OPENAI_API_KEY: 'sk-test' }), dir);
    expect(r.status).toBe('ok');
    expect(r.detail).toContain('claude → openai gpt-sum');
    expect(r.detail).toContain("at a wrapper's exit and every 5 new prompts");
    expect(r.detail).toContain('at most 2 model calls per summary');
  });

  it("the default generator: each agent's own CLI and its small model, for the agents installed", () => {
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'claude'), '#!/bin/sh\n');
    chmodSync(join(bin, 'claude'), 0o755);
    const r = checkSummaries(env({ PATH: bin }), dir);
    expect(r.status).toBe('ok');
    expect(r.detail).toContain('claude → agent claude haiku');
    expect(r.detail).not.toContain('pi → agent');
    expect(r.detail).toMatch(/others: .*pi.* not installed/);
  });

  // #43.9: a ✓ said summaries would be made with no agent installed to make them.
  it('no ✓ when no agent CLI that would make them is installed', () => {
    const r = checkSummaries(env({ PATH: join(dir, 'empty') }), dir);
    expect(r.status).toBe('skip');
    expect(r.detail).toMatch(/^none sent: .*claude.* not installed/);
  });

  it('says nothing is sent when models are off', () => {
    expect(checkSummaries(env({ RECAPWRAP_LLM: '0' }), dir)).toMatchObject({ status: 'skip', detail: expect.stringContaining('none sent: model summaries are off') });
    expect(checkSummaries(env({ RECAPWRAP_MEMORY: '0' }), dir)).toMatchObject({ status: 'skip' });
  });
});
