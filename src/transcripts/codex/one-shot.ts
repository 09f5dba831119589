/**
 * Codex's one-off mode for a recap: `codex exec`, ephemeral (no rollout), read-only sandbox, the answer
 * written to a file (`-o`) because stdout carries its progress log too.
 */
import type { OneShotCommand } from '../../types.js';

export const codexOneShot: OneShotCommand = {
  // The "fast and affordable" model of Codex's model list.
  defaultModel: 'gpt-6-luna',
  // exec takes no system prompt: instructions and request go as one text.
  args: ({ combinedPrompt, model, answerFile }) => [
    'exec', '--ephemeral', '--skip-git-repo-check', '-s', 'read-only', '-o', answerFile, ...(model ? ['-m', model] : []), combinedPrompt,
  ],
  answerFrom: 'answer-file',
};
