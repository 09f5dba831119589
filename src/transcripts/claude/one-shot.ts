/** Claude Code's one-off mode for a recap: `-p` with no saved session and no tools, on its small model. */
import type { OneShotCommand } from '../../types.js';

export const claudeOneShot: OneShotCommand = {
  // Claude Code's own alias for its fast, small model.
  defaultModel: 'haiku',
  args: ({ prompt, systemPrompt, model }) => [
    '-p', '--no-session-persistence', '--tools', '', '--output-format', 'text', '--system-prompt', systemPrompt,
    ...(model ? ['--model', model] : []), '--', prompt,
  ],
};
