/** Qwen Code's one-off mode for a recap: bare, no chat recording, no tool calls, every tool excluded. */
import type { OneShotCommand } from '../../types.js';

// The list that left Qwen's request with no tools in the verified run (shared/agents).
const QWEN_EXCLUDED_TOOLS = 'read_file,get_goal,update_goal,run_shell_command,write_file,edit,notebook_edit';

export const qwenOneShot: OneShotCommand = {
  // Qwen Code names no small model across its providers: the user's default model.
  // The prompt must come before the array-valued --exclude-tools.
  args: ({ prompt, systemPrompt, model }) => [
    prompt, '--bare', '--chat-recording=false', '--max-tool-calls', '0', ...(model ? ['--model', model] : []),
    '--system-prompt', systemPrompt, '--exclude-tools', QWEN_EXCLUDED_TOOLS,
  ],
};
