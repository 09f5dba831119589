/** The session-memory commands' verbs, options and what they run with (memory-run.ts and forget-run.ts share them). */
import type { Env } from '../../config/paths.js';

export type MemoryVerb = 'index' | 'sessions' | 'search' | 'show' | 'name' | 'forget' | 'note';

export interface MemoryCliOptions {
  rebuild?: boolean;
  json?: boolean;
  here?: boolean;
  folder?: string;
  agent?: string;
  since?: string;
  limit?: string;
  /** search: only sessions holding every word. */
  allWords?: boolean;
  /** forget: do not ask on a terminal. */
  yes?: boolean;
  // index --summarize (index-summarize.ts)
  summarize?: boolean;
  session?: string;
  generator?: string;
  model?: string;
  llm?: boolean;
  // note --clear
  clear?: boolean;
  // many machines (#35): app/hosts
  host?: string[];
  allHosts?: boolean;
  pull?: boolean;
}

export interface MemoryDeps {
  env: Env;
  cwd: string;
  now: number;
  /** Terminal width (Infinity when not a terminal). */
  columns: number;
  /** Highlight matches (stdout is a terminal and NO_COLOR is unset). */
  color: boolean;
  /** Writes progress to a terminal (stderr); absent when stderr is not one. */
  progress?: (text: string) => void;
  /** Lines said as work goes (stderr), e.g. index --summarize's plan before anything is sent. */
  log?: (text: string) => void;
  /** Asks a yes/no question on the terminal (stdin and stderr are one); absent otherwise. */
  confirm?: (question: string) => Promise<boolean>;
}
