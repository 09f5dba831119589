/** What `doctor` checks of Qwen Code's own settings: its away recap, which would show beside ours. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckResult } from '../../types.js';
import type { AgentContext } from '../types.js';
import { getQwenHomeDir } from './paths.js';

// Qwen Code can show its own recap on focus return; with recapwrap too you would read two.
export function checkQwenRecap(ctx: AgentContext): CheckResult[] {
  const file = join(getQwenHomeDir(ctx), 'settings.json');
  if (!existsSync(file)) return [];
  try {
    const settings = JSON.parse(readFileSync(file, 'utf8')) as { general?: { showSessionRecap?: unknown } };
    if (settings.general?.showSessionRecap === true) {
      return [{
        name: 'qwen recap',
        status: 'warn',
        detail: `Qwen Code's own away recap is on (${file}): you will see two recaps in qwen panes`,
        fix: 'set "general": {"showSessionRecap": false} in that file, or run recapwrap with --display none for qwen',
      }];
    }
    return [{ name: 'qwen recap', status: 'ok', detail: "Qwen Code's own away recap is off" }];
  } catch (error) {
    return [{ name: 'qwen recap', status: 'warn', detail: `could not read ${file}: ${(error as Error).message}` }];
  }
}
