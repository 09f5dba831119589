/** pi's one-off mode for a recap: print mode with no session, tools, extensions, skills or context files. */
import type { OneShotCommand } from '../../types.js';

export const piOneShot: OneShotCommand = {
  // pi names no small model across its providers: the user's default model, with thinking off.
  args: ({ prompt, systemPrompt, model }) => [
    '-p', '--no-session', '--no-tools', '--no-extensions', '--no-skills', '--no-prompt-templates', '--no-context-files',
    '--thinking', 'off', '--system-prompt', systemPrompt, ...(model ? ['--model', model] : []), prompt,
  ],
};
