/**
 * Resolves the effective options: defaults < global file < project file < env < flags. Every value is
 * validated in one pass with a message that says what was expected and what was got; a bad value is
 * reported and ignored (the lower layer's value stands). File errors are collected, never thrown.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { parseHotkey } from './hotkey.js';
import { parseNotifyOption } from './notify-option.js';
import { FALLBACK_ENV, OPTIONS, defaultOptions, type OptionSpec, type Options } from './options-table.js';
import { getConfigFile, getHomeDir, type Env } from './paths.js';

export const PROJECT_CONFIG_FILE = '.recapwrap.json';

export type OptionSource = 'default' | 'global file' | 'project file' | 'env' | 'flag';

export interface ConfigProblem {
  source: OptionSource;
  /** File path, env var or flag that held the bad value. */
  where: string;
  message: string;
}

export interface ResolvedConfig {
  options: Options;
  sources: Record<keyof Options, { source: OptionSource; where?: string }>;
  problems: ConfigProblem[];
  files: { global: string; project?: string };
  /** The raw `hosts` of the nearest file that has them (checked by app/hosts/config.ts), and that file. */
  hosts?: { value: unknown; file: string };
}

/**
 * Usage and config messages share one shape: "Expected <where> to be <what>, got <value>". <where> is
 * named as the user wrote it: `--away` for a flag, the variable for an environment variable, the key and
 * file for a config file. Values from flags and env are shown as typed; file values as JSON (their type matters there).
 */
export function formatExpected(where: string, expected: string, got: string): string {
  return `Expected ${where} to be ${expected}, got ${got}`;
}

function shownValue(raw: unknown, source: OptionSource): string {
  if (source === 'flag' || source === 'env') return typeof raw === 'string' ? `\`${raw}\`` : `\`${String(raw)}\``;
  return `\`${JSON.stringify(raw)}\``;
}

function whereOf(spec: OptionSpec, source: OptionSource, file?: string): string {
  if (source === 'flag') return `\`--${'flag' in spec && spec.flag ? spec.flag : spec.name}\``;
  if (source === 'env') return `the environment variable ${spec.env}`;
  return file ? `\`${spec.name}\` in ${file}` : `\`${spec.name}\``;
}

const UNIT_NAMES: Record<string, string> = { s: 'seconds', ms: 'milliseconds' };

// Validate one raw value for an option; returns the typed value or an error message.
export function validateOption(
  spec: OptionSpec,
  raw: unknown,
  source: OptionSource,
  file?: string,
  /** The env var that held it, when not the option's own (a fallback such as OPENAI_BASE_URL). */
  envName?: string,
): { ok: true; value: Options[keyof Options] } | { ok: false; message: string } {
  const where = source === 'env' && envName ? `the environment variable ${envName}` : whereOf(spec, source, file);
  const fail = (expected: string) => ({ ok: false as const, message: formatExpected(where, expected, shownValue(raw, source)) });
  if (spec.name === 'notify') {
    const parsed = parseNotifyOption(raw, where);
    return parsed.ok ? { ok: true, value: parsed.value } : parsed;
  }
  switch (spec.type) {
    case 'number': {
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : Number.NaN;
      if (!Number.isFinite(n) || n < spec.min || n > spec.max) return fail(`a number of ${UNIT_NAMES[spec.unit] ?? spec.unit} from ${spec.min} to ${spec.max}`);
      return { ok: true, value: n };
    }
    case 'boolean': {
      if (typeof raw === 'boolean') return { ok: true, value: raw };
      const s = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
      if (['1', 'true', 'yes', 'on'].includes(s)) return { ok: true, value: true };
      if (['0', 'false', 'no', 'off'].includes(s)) return { ok: true, value: false };
      return fail('true or false');
    }
    case 'choice': {
      if (typeof raw === 'string' && spec.choices.includes(raw)) return { ok: true, value: raw };
      return fail(`one of ${spec.choices.join(', ')}`);
    }
    case 'string': {
      if (typeof raw !== 'string') return fail('a string');
      if (spec.name === 'hotkey' || spec.name === 'pickKey') {
        const parsed = parseHotkey(raw);
        if (typeof parsed === 'string') return fail(parsed);
      }
      return { ok: true, value: raw };
    }
    default:
      return spec satisfies never;
  }
}

// The project file: .recapwrap.json in cwd or the nearest parent, not above the home folder.
export function findProjectConfig(cwd: string, home: string): string | undefined {
  let dir = resolve(cwd);
  for (;;) {
    const candidate = join(dir, PROJECT_CONFIG_FILE);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (dir === resolve(home) || parent === dir) return undefined;
    dir = parent;
  }
}

function readConfigFile(file: string, source: OptionSource, problems: ConfigProblem[]): Record<string, unknown> {
  if (!existsSync(file)) return {};
  try {
    const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
      problems.push({ source, where: file, message: `Expected ${file} to hold a JSON object, got ${Array.isArray(value) ? 'an array' : typeof value}` });
      return {};
    }
    return value as Record<string, unknown>;
  } catch (error) {
    problems.push({ source, where: file, message: `Cannot read ${file}: ${(error as Error).message}` });
    return {};
  }
}

export interface ResolveInput {
  env: Env;
  cwd: string;
  /** Values commander parsed, by option name (only those the user gave). */
  flags?: Partial<Record<keyof Options, unknown>>;
}

export function resolveConfig(input: ResolveInput): ResolvedConfig {
  const { env, cwd } = input;
  const problems: ConfigProblem[] = [];
  const options = defaultOptions();
  const sources = Object.fromEntries(OPTIONS.map((o) => [o.name, { source: 'default' as OptionSource }])) as ResolvedConfig['sources'];
  const globalFile = getConfigFile(env);
  const projectFile = findProjectConfig(cwd, getHomeDir(env));
  const apply = (spec: OptionSpec, raw: unknown, source: OptionSource, where: string) => {
    const result = validateOption(spec, raw, source, source === 'global file' || source === 'project file' ? where : undefined, source === 'env' ? where : undefined);
    if (!result.ok) {
      problems.push({ source, where, message: result.message });
      return;
    }
    (options as Record<string, unknown>)[spec.name] = result.value;
    sources[spec.name as keyof Options] = { source, where };
  };
  let hosts: ResolvedConfig['hosts'];
  const layers: Array<[OptionSource, string, Record<string, unknown>]> = [['global file', globalFile, readConfigFile(globalFile, 'global file', problems)]];
  if (projectFile && resolve(projectFile) !== resolve(globalFile)) layers.push(['project file', projectFile, readConfigFile(projectFile, 'project file', problems)]);
  for (const [source, file, values] of layers) {
    for (const [key, raw] of Object.entries(values)) {
      if (key === 'hosts') {
        hosts = { value: raw, file };
        continue;
      }
      const spec = (OPTIONS as readonly OptionSpec[]).find((o) => o.name === key);
      if (!spec) {
        problems.push({ source, where: file, message: `Unknown option \`${key}\` in ${file} (known: ${OPTIONS.map((o) => o.name).join(', ')})` });
        continue;
      }
      apply(spec, raw, source, file);
    }
  }
  for (const spec of OPTIONS as readonly OptionSpec[]) {
    const fallback = FALLBACK_ENV[spec.name as keyof Options];
    if (fallback && env[fallback] !== undefined && env[spec.env] === undefined) apply(spec, env[fallback], 'env', fallback);
    if (env[spec.env] !== undefined) apply(spec, env[spec.env], 'env', spec.env);
  }
  for (const [name, raw] of Object.entries(input.flags ?? {})) {
    const spec = (OPTIONS as readonly OptionSpec[]).find((o) => o.name === name);
    if (spec && raw !== undefined) apply(spec, raw, 'flag', `--${'flag' in spec ? spec.flag : name}`);
  }
  return { options, sources, problems, files: { global: globalFile, project: projectFile }, ...(hosts ? { hosts } : {}) };
}

/** Declare the table's flags on a commander command (the wrapper's default action). */
export function addOptionFlags(command: Command): void {
  for (const spec of OPTIONS as readonly OptionSpec[]) {
    if (!('flag' in spec) || !spec.flag) continue;
    if (spec.type === 'boolean') {
      command.option(spec.default ? `--no-${spec.flag}` : `--${spec.flag}`, spec.default ? (spec.negatedDescription ?? spec.description) : spec.description);
    } else {
      const choices = spec.type === 'choice' ? ` (${spec.choices.join('|')})` : '';
      command.option(`--${spec.flag} <${spec.valueName ?? 'value'}>`, `${spec.description}${choices}; default ${JSON.stringify(spec.default)}`);
    }
  }
}

/** The flag values a user actually gave, keyed by option name (commander's camelCase keys mapped back). */
export function flagValuesFromCommand(command: Command): Partial<Record<keyof Options, unknown>> {
  const out: Partial<Record<keyof Options, unknown>> = {};
  const opts = command.opts<Record<string, unknown>>();
  for (const spec of OPTIONS as readonly OptionSpec[]) {
    if (!('flag' in spec) || !spec.flag) continue;
    const key = spec.flag.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
    if (command.getOptionValueSource(key) === 'cli') out[spec.name as keyof Options] = opts[key];
  }
  return out;
}

/** Markdown table of the options (for the README). */
export function renderOptionsMarkdown(): string {
  const rows = (OPTIONS as readonly OptionSpec[]).map((o) => {
    const flag = 'flag' in o && o.flag ? `\`--${o.type === 'boolean' && o.default ? 'no-' : ''}${o.flag}\`` : '';
    const values = o.type === 'choice' ? o.choices.join(' \\| ') : o.type === 'number' ? `${o.min}–${o.max} ${o.unit}` : o.type;
    return `| \`${o.name}\` | ${flag} | \`${o.env}\` | \`${JSON.stringify(o.default)}\` | ${values} | ${o.description.replace(/\|/g, '\\|')} |`;
  });
  return ['| option (config.json) | flag | env | default | values | what it does |', '| --- | --- | --- | --- | --- | --- |', ...rows].join('\n');
}
