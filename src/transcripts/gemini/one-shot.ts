/**
 * Gemini CLI's one-off mode for a recap: `-p` with JSON output, in recapwrap's empty folder like every
 * agent's, with Gemini's own folder trust still on (prepare). It writes a session file even in print
 * mode: the run pins its id, and cleanup deletes that file.
 */
import { readdir, rm, writeFile } from 'node:fs/promises';
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

/** Gemini CLI reads its list of trusted folders from this file when set (else ~/.gemini/trustedFolders.json). */
export const GEMINI_TRUSTED_FOLDERS_ENV = 'GEMINI_CLI_TRUSTED_FOLDERS_PATH';

export const geminiOneShot: OneShotCommand = {
  // Gemini CLI's own alias for its smallest model.
  defaultModel: 'flash-lite',
  // -p takes no system prompt: instructions and request go as one text.
  args: ({ combinedPrompt, model, sessionId }) => ['-p', combinedPrompt, '-o', 'json', '--session-id', sessionId, ...(model ? ['-m', model] : [])],
  /**
   * Headless Gemini CLI refuses to start (exit 55) in a folder it does not trust. Not --skip-trust nor
   * GEMINI_CLI_TRUST_WORKSPACE=true, which turn the check off for whatever folder the run is in (#40 item
   * 12): the run gets a trust list of its own, naming one folder, recapwrap's empty one it runs in.
   * Gemini's check runs as ever and trusts nothing else; the user's own list is neither read nor written.
   */
  async prepare({ folder, tempDir }) {
    const file = join(tempDir, 'trusted-folders.json');
    await writeFile(file, JSON.stringify({ [folder]: 'TRUST_FOLDER' }), { mode: 0o600, flag: 'wx' });
    return { [GEMINI_TRUSTED_FOLDERS_ENV]: file };
  },
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
