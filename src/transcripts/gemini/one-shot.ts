/**
 * Gemini CLI's one-off mode for a recap: `-p` with JSON output, in the session's own project folder (a new
 * folder would be registered as a project). It writes a session file even in print mode: the run pins its
 * id, and cleanup deletes that file.
 */
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { OneShotCommand } from '../../types.js';
import type { Env } from '../types.js';
import { allGeminiChatsDirs } from './paths.js';

// The one-off run's session file, in whichever project's chats folder Gemini put it.
async function removeOneShotSession(env: Env, home: string, id: string): Promise<void> {
  const short = id.slice(0, 8);
  const mine = (name: string) => name.startsWith('session-') && (name.endsWith(`-${short}.jsonl`) || name.endsWith(`-${short}.json`));
  await Promise.all(
    allGeminiChatsDirs(env, home).map(async (chats) => {
      let names: string[] = [];
      try {
        names = await readdir(chats);
      } catch {
        return; // A project folder with no chats yet.
      }
      await Promise.all(names.filter(mine).map((n) => rm(join(chats, n), { force: true })));
    }),
  );
}

export const geminiOneShot: OneShotCommand = {
  // Gemini CLI's own alias for its smallest model.
  defaultModel: 'flash-lite',
  // -p takes no system prompt: instructions and request go as one text. --skip-trust: headless Gemini
  // refuses (exit 55) in a folder not trusted yet; this trusts it for this run only.
  args: ({ combinedPrompt, model, sessionId }) => ['-p', combinedPrompt, '-o', 'json', '--session-id', sessionId, '--skip-trust', ...(model ? ['-m', model] : [])],
  projectCwd: true,
  readAnswer(stdout) {
    try {
      const json = JSON.parse(stdout.slice(stdout.indexOf('{'))) as { response?: unknown };
      return typeof json.response === 'string' ? json.response : '';
    } catch {
      return stdout; // Not JSON (an older CLI, or a crash banner): the tags are looked for in the text.
    }
  },
  cleanup: ({ env, home, sessionId }) => removeOneShotSession(env, home, sessionId),
};
