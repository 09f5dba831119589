/**
 * The master copy of every user option: name, type, default, limits or choices, env var, flag, whether
 * a project's file may set it, and a one-line description. Validation, `--help`, `recapwrap config`, the
 * project-file rule and the README table are generated from this table; nothing else declares an option.
 */

export type OptionType = 'number' | 'boolean' | 'string' | 'choice';

interface OptionBase {
  /** Key in config.json and in the resolved options object. */
  name: string;
  type: OptionType;
  /**
   * A project's `.recapwrap.json` may set it (docs/threat-model.md): true only for what changes how and
   * when recaps look in that project (display, thresholds, keys, bar rows). What runs a command, opens a
   * connection, names a URL, a model, a generator or a folder to read, or changes something outside
   * recapwrap's own display (tmux's server options), is false: read from the user's own config, env and
   * flags only, or from a project file the user trusted (`recapwrap config trust`).
   */
  project: boolean;
  /** Env var that sets it (RECAPWRAP_*). */
  env: string;
  /** Long flag for the wrapper; booleans that default to true are turned off with `--no-<flag>`. */
  flag?: string;
  /** Value placeholder in --help. */
  valueName?: string;
  /** --help text of a `--no-<flag>` switch (booleans that default to true). */
  negatedDescription?: string;
  description: string;
}

export interface NumberOption extends OptionBase { type: 'number'; default: number; min: number; max: number; unit: string }
export interface BooleanOption extends OptionBase { type: 'boolean'; default: boolean }
export interface StringOption extends OptionBase { type: 'string'; default: string }
export interface ChoiceOption extends OptionBase { type: 'choice'; default: string; choices: readonly string[] }
export type OptionSpec = NumberOption | BooleanOption | StringOption | ChoiceOption;

/**
 * Default manual-recap key: Ctrl-] (0x1d). Qwen Code, Claude Code, Codex and Gemini CLI do not bind it, nor
 * does tmux (its paste is prefix + ]); pi does, for `jumpForward` (pi-tui keybindings.ts, an editor
 * motion), and the README says so with the ways out (another hotkey, or pi's keybindings.json). It stays
 * the default (#36): with Ctrl-\ (the picker's) it is the one control key every terminal sends alike
 * (0x1d, kitty `CSI 93;5u`, modifyOtherKeys); Ctrl-^, the other free byte, is a shifted key (Shift-6 on a
 * US layout, a dead key on others) that the kitty protocol, which pi turns on, reports as Ctrl+Shift+6;
 * F-keys are the terminal's (F1, F10, F11) or Gemini CLI's (F12). vim uses Ctrl-] for tag
 * jumps and emacs for abort-recursive-edit, but those run outside the agent's prompt.
 */
export const DEFAULT_HOTKEY = 'ctrl-]';

/**
 * Default reference-picker key: Ctrl-\ (0x1c). Checked against the agents' documented default keys
 * (Claude Code's keybindings, Gemini CLI's keyboard-shortcuts reference, which Qwen Code inherits, pi's
 * keybindings, Codex's TUI keys): they bind Ctrl-letters, Ctrl-[ (Esc), pi also Ctrl-] and Ctrl-_, Claude
 * Code Ctrl-_; none binds Ctrl-\, and tmux binds it in no default table. In a cooked terminal it is
 * SIGQUIT, but the wrapper reads the terminal raw and takes the key out of the input: the agent never
 * receives it. Ctrl-^ is the other free byte.
 */
export const DEFAULT_PICK_KEY = 'ctrl-\\';

export const OPTIONS = [
  { name: 'awaySeconds', type: 'number', project: true, default: 30, min: 0, max: 86_400, unit: 's', env: 'RECAPWRAP_AWAY', flag: 'away', valueName: 'seconds', description: 'show a recap when you come back after at least this long away' },
  { name: 'idleSeconds', type: 'number', project: true, default: 120, min: 0, max: 86_400, unit: 's', env: 'RECAPWRAP_IDLE', flag: 'idle', valueName: 'seconds', description: 'without focus reports: show a recap this long after a turn ends with no input (0 = never)' },
  { name: 'display', type: 'choice', project: true, default: 'auto', choices: ['auto', 'overlay', 'tmux', 'none'], env: 'RECAPWRAP_DISPLAY', flag: 'display', valueName: 'where', description: 'where recaps appear: auto = tmux inside tmux, else an overlay bar' },
  { name: 'position', type: 'choice', project: true, default: 'bottom', choices: ['top', 'bottom'], env: 'RECAPWRAP_POSITION', flag: 'position', valueName: 'row', description: 'overlay bar row' },
  { name: 'barRows', type: 'number', project: true, default: 2, min: 1, max: 5, unit: 'rows', env: 'RECAPWRAP_BAR_ROWS', flag: 'bar-rows', valueName: 'rows', description: 'overlay bar: rows it may take when the recap does not fit one (1 = always one row)' },
  { name: 'generator', type: 'choice', project: false, default: 'auto', choices: ['auto', 'heuristic', 'agent', 'openai', 'anthropic'], env: 'RECAPWRAP_GENERATOR', flag: 'generator', valueName: 'name', description: "who writes recaps: auto = the agent's own CLI when it can, else the offline heuristic" },
  { name: 'pastGenerator', type: 'choice', project: false, default: 'heuristic', choices: ['heuristic', 'auto', 'agent', 'openai', 'anthropic'], env: 'RECAPWRAP_PAST_GENERATOR', description: 'who writes recaps of past sessions (recap --session/--agent, resume, sessions, show, MCP query_session): heuristic = nothing leaves the machine; a model only when set here or with --generator' },
  { name: 'model', type: 'string', project: false, default: '', env: 'RECAPWRAP_MODEL', flag: 'model', valueName: 'model', description: "model for the agent/openai/anthropic generators (empty = the generator's default)" },
  { name: 'hotkey', type: 'string', project: true, default: DEFAULT_HOTKEY, env: 'RECAPWRAP_HOTKEY', flag: 'hotkey', valueName: 'key', description: 'key that shows a recap now (ctrl-<letter or ]\\^_>, f1–f12, or none)' },
  { name: 'pickKey', type: 'string', project: true, default: DEFAULT_PICK_KEY, env: 'RECAPWRAP_PICK_KEY', flag: 'pick-key', valueName: 'key', description: "key that opens the past-session picker over the agent and pastes the chosen session's reference (ctrl-<letter or ]\\^_>, f1–f12, or none)" },
  { name: 'focus', type: 'boolean', project: true, default: true, env: 'RECAPWRAP_FOCUS', flag: 'focus', description: 'turn on terminal focus reporting so recapwrap knows when you come back', negatedDescription: 'leave terminal focus reporting alone (the agent may still turn it on); recaps then use the idle timer' },
  { name: 'agentRecaps', type: 'choice', project: true, default: 'use', choices: ['use', 'replace', 'both'], env: 'RECAPWRAP_AGENT_RECAPS', flag: 'agent-recaps', valueName: 'mode', description: "the agents' own recaps (Claude Code's away summary, Qwen Code's, Codex's): use = a fresh one is the recap and no second bar is drawn; replace = turn the agent's off for the sessions recapwrap launches; both = draw recapwrap's bar too" },
  { name: 'llm', type: 'boolean', project: false, default: true, env: 'RECAPWRAP_LLM', flag: 'llm', description: 'allow model-written recaps (the agent CLI or an HTTP model)', negatedDescription: 'offline heuristic recaps only: no model is asked, nothing leaves the machine' },
  { name: 'tmuxFocus', type: 'boolean', project: false, default: false, env: 'RECAPWRAP_TMUX_FOCUS', flag: 'tmux-focus', description: "inside tmux, turn on tmux's focus-events when it is off (server-wide)" },
  { name: 'notify', type: 'string', project: false, default: 'auto', env: 'RECAPWRAP_NOTIFY', flag: 'notify', valueName: 'channels', description: 'how you are told a session needs you while away: a list of bell, osc, tmux, command:CMD, auto (bell+tmux in tmux, else bell+osc) or none' },
  { name: 'notifyMinSeconds', type: 'number', project: true, default: 30, min: 0, max: 86_400, unit: 's', env: 'RECAPWRAP_NOTIFY_MIN_SECONDS', description: 'at most one notification per session this often' },
  { name: 'draftDebounceMs', type: 'number', project: true, default: 1500, min: 0, max: 60_000, unit: 'ms', env: 'RECAPWRAP_DRAFT_DEBOUNCE_MS', description: 'while away, wait this long after the transcript changes before drafting a recap' },
  { name: 'generatorTimeoutSeconds', type: 'number', project: true, default: 30, min: 1, max: 600, unit: 's', env: 'RECAPWRAP_GENERATOR_TIMEOUT', description: 'give up on a model-written recap after this long (the heuristic is shown instead)' },
  { name: 'openaiBaseUrl', type: 'string', project: false, default: 'https://api.openai.com/v1', env: 'RECAPWRAP_OPENAI_BASE_URL', description: 'OpenAI-compatible endpoint (Ollama: http://127.0.0.1:11434/v1); OPENAI_BASE_URL also works' },
  { name: 'openaiModel', type: 'string', project: false, default: 'gpt-4o-mini', env: 'RECAPWRAP_OPENAI_MODEL', description: 'model for the openai generator' },
  { name: 'anthropicBaseUrl', type: 'string', project: false, default: 'https://api.anthropic.com', env: 'RECAPWRAP_ANTHROPIC_BASE_URL', description: 'Anthropic Messages endpoint; ANTHROPIC_BASE_URL also works' },
  { name: 'anthropicModel', type: 'string', project: false, default: 'claude-haiku-4-5', env: 'RECAPWRAP_ANTHROPIC_MODEL', description: 'model for the anthropic generator' },
  // session memory (#25)
  { name: 'memory', type: 'boolean', project: false, default: true, env: 'RECAPWRAP_MEMORY', description: 'keep the session index (<state>/index.db) that `sessions`, `search` and `show` read; false = nothing is indexed or written' },
  { name: 'memoryFolders', type: 'string', project: false, default: '', env: 'RECAPWRAP_MEMORY_FOLDERS', description: "index only sessions in these folders and below (a ':'-separated list, ~ for home; empty = every folder)" },
  // many machines (#35)
  { name: 'hostTimeoutSeconds', type: 'number', project: true, default: 5, min: 1, max: 600, unit: 's', env: 'RECAPWRAP_HOST_TIMEOUT', description: 'with --host/--all-hosts: give up on a host that has not answered in this long (a `timeout` of its own in `hosts` wins)' },
] as const satisfies readonly OptionSpec[];

export type OptionName = (typeof OPTIONS)[number]['name'];

type ValueOf<S> = S extends { type: 'number' } ? number : S extends { type: 'boolean' } ? boolean : string;
export type Options = { [S in (typeof OPTIONS)[number] as S['name']]: ValueOf<S> };

/** Env vars from other tools that recapwrap also reads, as fallbacks after its own. */
export const FALLBACK_ENV: Partial<Record<OptionName, string>> = {
  openaiBaseUrl: 'OPENAI_BASE_URL',
  anthropicBaseUrl: 'ANTHROPIC_BASE_URL',
};

export function getOptionSpec(name: string): OptionSpec | undefined {
  return (OPTIONS as readonly OptionSpec[]).find((o) => o.name === name);
}

export function defaultOptions(): Options {
  return Object.fromEntries(OPTIONS.map((o) => [o.name, o.default])) as Options;
}

/**
 * The keys a config file may hold besides the options, under the same project rule. `hosts` (#35) is a
 * list, parsed and checked by app/hosts/config.ts; it names machines and the ssh arguments that reach
 * them (an ssh option can run a command: ProxyCommand), so a project file sets it only when trusted.
 */
export const FILE_KEYS = [
  { name: 'hosts', project: false, description: 'the machines `--host` and `--all-hosts` reach over ssh' },
] as const satisfies ReadonlyArray<{ name: string; project: boolean; description: string }>;

/** Whether a config file may hold this key at all (an option, or one of FILE_KEYS). */
export function isConfigKey(name: string): boolean {
  return getOptionSpec(name) !== undefined || FILE_KEYS.some((k) => k.name === name);
}

/** Whether a project's `.recapwrap.json` may set this key without being trusted: the table's `project`. */
export function isProjectSafeKey(name: string): boolean {
  return (getOptionSpec(name) ?? FILE_KEYS.find((k) => k.name === name))?.project === true;
}
