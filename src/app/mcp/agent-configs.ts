/**
 * How each agent CLI registers an MCP server: the command that adds or removes one at user scope, and
 * the file that command writes (read here only to say what is registered; every change goes through
 * the agent's own command, which keeps the user's other servers and settings). pi has no MCP support.
 * Syntax checked against the real CLIs' `mcp add --help` (claude 2.1, codex 0.169, gemini 0.61, qwen 0.24).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getHomeDir, type Env } from '../../config/paths.js';
import { CODEX_HOME_ENV } from '../../transcripts/codex/paths.js';
import { GEMINI_HOME_ENV } from '../../transcripts/gemini/paths.js';
import { QWEN_HOME_ENV } from '../../transcripts/qwen/paths.js';
import type { AgentId } from '../../transcripts/types.js';

export const MCP_ENTRY_NAME = 'recapwrap';
export const CLAUDE_CONFIG_DIR_ENV = 'CLAUDE_CONFIG_DIR';

/** A stdio server's launch: what the agent runs. */
export interface Launch {
  command: string;
  args: string[];
}

export type EntryRead = { kind: 'absent' } | { kind: 'present'; launch: Launch } | { kind: 'unreadable'; error: string };

export interface McpAgentConfig {
  agent: AgentId;
  /** The agent's command on PATH. */
  command: string;
  /** Our entry as the file names it, for messages. */
  entryLabel: string;
  /** The file the agent keeps its user-scope MCP servers in. */
  configFile(env: Env): string;
  /** Our entry in that file, as the agent will run it. */
  readEntry(env: Env): EntryRead;
  addArgs(launch: Launch): string[];
  removeArgs(): string[];
}

export interface McpUnsupportedAgent {
  agent: AgentId;
  command: string;
  unsupported: string;
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

// `mcpServers.<name>` of a JSON settings file (Claude Code's ~/.claude.json, Gemini CLI's and Qwen Code's settings.json).
export function readJsonEntry(file: string, name: string = MCP_ENTRY_NAME): EntryRead {
  let text: string | undefined;
  try {
    text = readText(file);
  } catch (error) {
    return { kind: 'unreadable', error: (error as Error).message };
  }
  if (text === undefined || text.trim() === '') return { kind: 'absent' };
  let json: unknown;
  try {
    // Gemini and Qwen accept comments in settings.json: strip whole-line // comments before parsing.
    json = JSON.parse(text.replace(/^\s*\/\/.*$/gm, ''));
  } catch (error) {
    // Without the excerpt of the file the parser quotes (`…"KEY": ghp_abc"…`): another entry's secret can stand there.
    const why = ((error as Error).message.split('\n')[0] ?? '').replace(/,? *(?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON$/, '');
    return { kind: 'unreadable', error: `${file} is not valid JSON (${why})` };
  }
  const entry = (json as { mcpServers?: Record<string, { command?: unknown; args?: unknown }> } | null)?.mcpServers?.[name];
  if (!entry || typeof entry !== 'object') return { kind: 'absent' };
  return { kind: 'present', launch: { command: typeof entry.command === 'string' ? entry.command : '', args: Array.isArray(entry.args) ? entry.args.map(String) : [] } };
}

// A TOML string value: "basic" (JSON-compatible escapes) or 'literal'.
function tomlString(raw: string): string | undefined {
  const s = raw.trim();
  if (s.startsWith("'") && s.endsWith("'") && s.length >= 2) return s.slice(1, -1);
  if (s.startsWith('"')) {
    try {
      return JSON.parse(s) as string;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** `[mcp_servers.<name>]` of Codex's config.toml: its `command` and `args` (the keys `codex mcp add` writes). */
export function readTomlEntry(file: string, name: string = MCP_ENTRY_NAME): EntryRead {
  let text: string | undefined;
  try {
    text = readText(file);
  } catch (error) {
    return { kind: 'unreadable', error: (error as Error).message };
  }
  if (text === undefined) return { kind: 'absent' };
  const header = new RegExp(`^\\s*\\[\\s*mcp_servers\\.(?:${name}|"${name}"|'${name}')\\s*\\]\\s*(#.*)?$`);
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((line) => header.test(line));
  if (start < 0) return { kind: 'absent' };
  const launch: Launch = { command: '', args: [] };
  for (const line of lines.slice(start + 1)) {
    if (/^\s*\[/.test(line)) break;
    const kv = /^\s*(command|args)\s*=\s*(.*?)\s*$/.exec(line);
    if (!kv) continue;
    if (kv[1] === 'command') launch.command = tomlString(kv[2] as string) ?? '';
    else launch.args = [...(kv[2] as string).matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'/g)].map((m) => (m[1] !== undefined ? (tomlString(`"${m[1]}"`) ?? m[1]) : (m[2] as string)));
  }
  return { kind: 'present', launch };
}

const claudeConfigFile = (env: Env) => join(env[CLAUDE_CONFIG_DIR_ENV] || getHomeDir(env), '.claude.json');
const codexConfigFile = (env: Env) => join(env[CODEX_HOME_ENV] || join(getHomeDir(env), '.codex'), 'config.toml');
const geminiConfigFile = (env: Env) => join(env[GEMINI_HOME_ENV] || getHomeDir(env), '.gemini', 'settings.json');
const qwenConfigFile = (env: Env) => join(env[QWEN_HOME_ENV] || join(getHomeDir(env), '.qwen'), 'settings.json');

export const MCP_AGENTS: readonly (McpAgentConfig | McpUnsupportedAgent)[] = [
  {
    agent: 'claude',
    command: 'claude',
    entryLabel: `mcpServers.${MCP_ENTRY_NAME}`,
    configFile: claudeConfigFile,
    readEntry: (env) => readJsonEntry(claudeConfigFile(env)),
    addArgs: (l) => ['mcp', 'add', '--scope', 'user', MCP_ENTRY_NAME, '--', l.command, ...l.args],
    removeArgs: () => ['mcp', 'remove', '--scope', 'user', MCP_ENTRY_NAME],
  },
  {
    agent: 'codex',
    command: 'codex',
    entryLabel: `[mcp_servers.${MCP_ENTRY_NAME}]`,
    configFile: codexConfigFile,
    readEntry: (env) => readTomlEntry(codexConfigFile(env)),
    addArgs: (l) => ['mcp', 'add', MCP_ENTRY_NAME, '--', l.command, ...l.args],
    removeArgs: () => ['mcp', 'remove', MCP_ENTRY_NAME],
  },
  {
    agent: 'gemini',
    command: 'gemini',
    entryLabel: `mcpServers.${MCP_ENTRY_NAME}`,
    configFile: geminiConfigFile,
    readEntry: (env) => readJsonEntry(geminiConfigFile(env)),
    addArgs: (l) => ['mcp', 'add', '--scope', 'user', MCP_ENTRY_NAME, l.command, ...l.args],
    removeArgs: () => ['mcp', 'remove', '--scope', 'user', MCP_ENTRY_NAME],
  },
  {
    agent: 'qwen',
    command: 'qwen',
    entryLabel: `mcpServers.${MCP_ENTRY_NAME}`,
    configFile: qwenConfigFile,
    readEntry: (env) => readJsonEntry(qwenConfigFile(env)),
    addArgs: (l) => ['mcp', 'add', '--scope', 'user', MCP_ENTRY_NAME, l.command, ...l.args],
    removeArgs: () => ['mcp', 'remove', '--scope', 'user', MCP_ENTRY_NAME],
  },
  {
    agent: 'pi',
    command: 'pi',
    unsupported:
      'pi has no MCP support (it leaves MCP to extensions by design), so nothing is registered with it; from pi, have its bash tool run `recapwrap search WORDS --json` and `recapwrap show REF --json` instead',
  },
];

export function isSupported(config: McpAgentConfig | McpUnsupportedAgent): config is McpAgentConfig {
  return !('unsupported' in config);
}

export function sameLaunch(a: Launch, b: Launch): boolean {
  return a.command === b.command && a.args.length === b.args.length && a.args.every((arg, i) => arg === b.args[i]);
}
