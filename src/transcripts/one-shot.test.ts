// Each adapter's one-off recap command, as data: the exact argv each agent gets (the real-agent suite,
// test/agents/, relies on these), the small default models, and where the answer is read from.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OneShotRun } from '../types.js';
import { getAdapter, listAdapters } from './registry.js';

const run = (model?: string): OneShotRun => ({
  prompt: 'PROMPT',
  systemPrompt: 'SYSTEM',
  combinedPrompt: 'SYSTEM\n\nPROMPT',
  model,
  answerFile: '/tmp/run/answer.txt',
  tempDir: '/tmp/run',
  folder: '/state/model-calls',
  sessionId: '0d7f1c2e-1111-4222-8333-444455556666',
  env: {},
  home: '/home/dev',
});
const oneShot = (id: Parameters<typeof getAdapter>[0]) => getAdapter(id).oneShot!;

describe('one-shot commands', () => {
  it('every adapter has one, and names its command', () => {
    for (const a of listAdapters()) {
      expect(a.oneShot, a.id).toBeDefined();
      expect(a.command).toBe(a.id);
    }
  });

  it('the small default models: Claude haiku, Codex gpt-6-luna, Gemini flash-lite; pi and qwen keep theirs', () => {
    expect(Object.fromEntries(listAdapters().map((a) => [a.id, a.oneShot?.defaultModel]))).toEqual({
      pi: undefined, qwen: undefined, claude: 'haiku', codex: 'gpt-6-luna', gemini: 'flash-lite',
    });
  });

  it('pi: print mode, nothing loaded, thinking off, the prompt last', () => {
    expect(oneShot('pi').args(run('small'))).toEqual(['-p', '--no-session', '--no-tools', '--no-extensions', '--no-skills', '--no-prompt-templates', '--no-context-files', '--thinking', 'off', '--system-prompt', 'SYSTEM', '--model', 'small', 'PROMPT']);
    expect(oneShot('pi').args(run())).not.toContain('--model');
  });

  it('qwen: the prompt first, before the array-valued --exclude-tools', () => {
    expect(oneShot('qwen').args(run('q'))).toEqual(['PROMPT', '--bare', '--chat-recording=false', '--max-tool-calls', '0', '--model', 'q', '--system-prompt', 'SYSTEM', '--exclude-tools', 'read_file,get_goal,update_goal,run_shell_command,write_file,edit,notebook_edit']);
  });

  it('claude: -p, no session persistence, no tools, the prompt after --', () => {
    expect(oneShot('claude').args(run('haiku'))).toEqual(['-p', '--no-session-persistence', '--tools', '', '--output-format', 'text', '--system-prompt', 'SYSTEM', '--model', 'haiku', '--', 'PROMPT']);
  });

  it('codex: exec, ephemeral, read-only, the answer in the -o file, one combined prompt', () => {
    const spec = oneShot('codex');
    expect(spec.args(run('gpt-6-luna'))).toEqual(['exec', '--ephemeral', '--skip-git-repo-check', '-s', 'read-only', '-o', '/tmp/run/answer.txt', '-m', 'gpt-6-luna', 'SYSTEM\n\nPROMPT']);
    expect(spec.answerFrom).toBe('answer-file');
  });

  it("gemini: JSON output, a pinned session id, Gemini's trust check on: a trust list of the run's own names its empty folder alone (#40 item 12)", async () => {
    const spec = oneShot('gemini');
    expect(spec.args(run('flash-lite'))).toEqual(['-p', 'SYSTEM\n\nPROMPT', '-o', 'json', '--session-id', '0d7f1c2e-1111-4222-8333-444455556666', '-m', 'flash-lite']);
    const tempDir = mkdtempSync(join(tmpdir(), 'rw-gemini-trust-'));
    try {
      const env = await spec.prepare!({ ...run(), tempDir });
      expect(env).toEqual({ GEMINI_CLI_TRUSTED_FOLDERS_PATH: join(tempDir, 'trusted-folders.json') });
      expect(JSON.parse(readFileSync(join(tempDir, 'trusted-folders.json'), 'utf8'))).toEqual({ '/state/model-calls': 'TRUST_FOLDER' });
      expect(statSync(join(tempDir, 'trusted-folders.json')).mode & 0o777).toBe(0o600);
    } finally {
      rmSync(tempDir, { recursive: true, force: true });
    }
    expect(spec.readAnswer?.('Loaded cached credentials.\n{"response":"<recap>x</recap>","stats":{}}')).toBe('<recap>x</recap>');
    expect(spec.readAnswer?.('{"stats":{}}')).toBe('');
    expect(spec.readAnswer?.('not json')).toBe('not json');
  });

  it('no agent is told to skip its own trust check; only Gemini needs a trust list or a cleanup; the others answer on stdout', () => {
    for (const a of listAdapters()) {
      // Gemini's --skip-trust, Claude's --dangerously-skip-permissions, Qwen's and Gemini's --yolo.
      expect(a.oneShot?.args(run('m')).filter((w) => /skip-trust|dangerously|^--yolo$|^-y$|approval-mode/.test(w)), a.id).toEqual([]);
      expect(a.oneShot?.env ?? {}, a.id).not.toHaveProperty('GEMINI_CLI_TRUST_WORKSPACE');
      if (a.id === 'gemini') continue;
      expect(a.oneShot?.prepare, a.id).toBeUndefined();
      expect(a.oneShot?.cleanup, a.id).toBeUndefined();
      if (a.id !== 'codex') expect(a.oneShot?.answerFrom, a.id).toBeUndefined();
    }
  });
});
