// The agent provider runs whatever one-shot spec it is given and knows no agent: a made-up spec here
// (the real agents' argv is asserted through their adapters in engine.test.ts and transcripts/one-shot.test.ts).
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
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
  agent: 'some-agent', command, oneShot, timeoutMs: 5000, env: { PATH: process.env.PATH, RECAPWRAP_STATE_DIR: join(dir, 'state') }, home: dir, ...over,
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
    // The run's temp folder (its answer file) is gone; it ran in recapwrap's own folder; cleanup saw the same run.
    expect(existsSync(runs[0]!.tempDir)).toBe(false);
    expect(cwd).toBe(join(dir, 'state', 'model-calls'));
    expect(runs).toHaveLength(1);
    expect(runs[0]!.sessionId).toBe(args[6]);
  });

  // #40 item 12: a session's folder may be a cloned repo with the agent's own settings in it (hooks, MCP
  // servers, context files): a one-off call never runs there, and never turns the agent's trust check off.
  it("runs every call in recapwrap's private, emptied folder (0700), never the session's; a spec's prepare adds to the env", async () => {
    const spec: OneShotCommand = { args: (run) => [run.prompt], prepare: async (run) => ({ EXTRA: `trust list in ${run.tempDir} for ${run.folder}` }) };
    const cli = fakeCli(`fs.writeFileSync('left-behind', 'x'); process.stdout.write('<recap>recap: ok</recap>');`);
    const project = join(dir, 'project');
    mkdirSync(project);
    const contextOf = (cwd: string) => buildContext({ agent: 'x', id: 's', file: join(cwd, 's.jsonl'), cwd, stamp: 'a', events: [{ kind: 'user', text: 'hi' }, { kind: 'turn-end' }] });
    expect((await agentGenerate(contextOf(project), new AbortController().signal, settings(cli, spec))).ok).toBe(true);
    const folder = join(dir, 'state', 'model-calls');
    expect(recorded().cwd).toBe(folder);
    expect(recorded().extra).toMatch(new RegExp(`^trust list in .*recapwrap-recap-.* for ${folder}$`));
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect(readdirSync(folder)).toEqual(['left-behind']);
    await agentGenerate(contextOf(project), new AbortController().signal, settings(cli, spec));
    // What a run left is gone before the next (the fake writes its file again).
    expect(readdirSync(folder)).toEqual(['left-behind']);
    expect(readdirSync(project)).toEqual([]);
    // A folder that cannot be made private: no run at all.
    chmodSync(folder, 0o777);
    const refused = await agentGenerate(contextOf(project), new AbortController().signal, settings(cli, spec));
    expect(refused).toMatchObject({ ok: false, error: expect.stringContaining('writable by other users') });
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
