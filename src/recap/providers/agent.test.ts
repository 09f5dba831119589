// The agent provider runs whatever one-shot spec it is given and knows no agent: a made-up spec here
// (the real agents' argv is asserted through their adapters in engine.test.ts and transcripts/one-shot.test.ts).
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OneShotCommand, OneShotRun } from '../../types.js';
import { buildContext } from '../context.js';
import { agentGenerate, recapModelFor } from './agent.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rw-agent-provider-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const ctx = buildContext({ agent: 'x', id: 's', file: '/tmp/s.jsonl', cwd: '/nowhere', stamp: 'a', events: [{ kind: 'user', text: 'Add retries' }, { kind: 'assistant', text: 'Done.' }, { kind: 'turn-end' }] });

// An executable that records its argv, cwd and env, then runs `body`.
function fakeCli(body: string): string {
  const file = join(dir, 'some-cli');
  writeFileSync(file, `#!/usr/bin/env node
const fs = require('node:fs');
const args = process.argv.slice(2);
fs.writeFileSync(${JSON.stringify(join(dir, 'record.json'))}, JSON.stringify({ args, cwd: process.cwd(), extra: process.env.EXTRA, recap: process.env.RECAPWRAP_RECAP }));
${body}
`);
  chmodSync(file, 0o755);
  return file;
}
const recorded = () => JSON.parse(readFileSync(join(dir, 'record.json'), 'utf8')) as { args: string[]; cwd: string; extra?: string; recap?: string };
const settings = (command: string, oneShot: OneShotCommand, over: Partial<Parameters<typeof agentGenerate>[2]> = {}) => ({
  agent: 'some-agent', command, oneShot, timeoutMs: 5000, env: { PATH: process.env.PATH }, home: dir, ...over,
});

describe('agent provider', () => {
  it('runs the spec: its args, env and default model; reads the answer file and parses it; cleans up', async () => {
    const runs: OneShotRun[] = [];
    const spec: OneShotCommand = {
      defaultModel: 'tiny',
      args: (run) => ['ask', '--out', run.answerFile, '--model', run.model ?? '', '--id', run.sessionId, run.combinedPrompt],
      env: { EXTRA: 'yes' },
      answerFrom: 'answer-file',
      readAnswer: (out) => out.replace('ANSWER:', ''),
      cleanup: async (run) => {
        runs.push(run);
      },
    };
    const cli = fakeCli(`fs.writeFileSync(args[2], 'ANSWER:<recap>recap: it works</recap>'); process.stdout.write('noise');`);
    const result = await agentGenerate(ctx, new AbortController().signal, settings(cli, spec));
    expect(result).toEqual({ ok: true, text: 'recap: it works', model: 'tiny' });
    const { args, cwd, extra, recap } = recorded();
    expect(args.slice(0, 5)).toEqual(['ask', '--out', runs[0]!.answerFile, '--model', 'tiny']);
    expect(args[6]).toMatch(/^[0-9a-f-]{36}$/);
    expect(args[7]).toContain('Add retries');
    expect([extra, recap]).toEqual(['yes', '1']);
    // The run's temp folder (its cwd and answer file) is gone; cleanup saw the same run.
    expect(existsSync(cwd)).toBe(false);
    expect(runs).toHaveLength(1);
    expect(runs[0]!.sessionId).toBe(args[6]);
  });

  it('a projectCwd spec runs in the session folder when it exists, else in the temp folder', async () => {
    const spec: OneShotCommand = { args: (run) => [run.prompt], projectCwd: true };
    const cli = fakeCli(`process.stdout.write('<recap>recap: ok</recap>');`);
    const project = join(dir, 'project');
    mkdirSync(project);
    expect((await agentGenerate(ctx, new AbortController().signal, settings(cli, spec, { cwd: project }))).ok).toBe(true);
    expect(recorded().cwd).toBe(project);
    await agentGenerate(ctx, new AbortController().signal, settings(cli, spec, { cwd: join(dir, 'gone') }));
    expect(recorded().cwd).not.toBe(join(dir, 'gone'));
  });

  it('the user model wins; cleanup runs after a failure too', async () => {
    let cleaned = 0;
    const spec: OneShotCommand = { defaultModel: 'tiny', args: (run) => [run.model ?? ''], cleanup: async () => void cleaned++ };
    const cli = fakeCli(`process.stderr.write('bad key\\n'); process.exit(2);`);
    const result = await agentGenerate(ctx, new AbortController().signal, settings(cli, spec, { model: 'big' }));
    expect(result).toEqual({ ok: false, error: 'some-agent exited with 2: bad key', model: 'big' });
    expect(recorded().args).toEqual(['big']);
    expect(cleaned).toBe(1);
    expect(recapModelFor({}, undefined)).toBeUndefined();
  });
});
