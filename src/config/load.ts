/**
 * Resolves the effective options: defaults < global file < project file < env < flags. Every value is
 * validated in one pass with a message that says what was expected and what was got; a bad value is
 * reported and ignored (the lower layer's value stands). File errors are collected, never thrown.
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { findProjectConfig, readConfigFileSafely, sha256Of } from './config-file.js';
import { parseHotkey } from './hotkey.js';
import { parseNotifyOption } from './notify-option.js';
import { FALLBACK_ENV, FILE_KEYS, OPTIONS, defaultOptions, getOptionSpec, type OptionSpec, type Options } from './options-table.js';
import { getConfigFile, getHomeDir, type Env } from './paths.js';
import { splitProjectKeys, type FileRefusal, type HeldKeyReason } from './project-rule.js';
import { readTrustList, trustOf } from './trust-list.js';
import { sanitizeLine } from '../util/sanitize.js';

export { PROJECT_CONFIG_FILE, findProjectConfig } from './config-file.js';

export type OptionSource = 'default' | 'global file' | 'project file' | 'env' | 'flag';

export interface ConfigProblem {
  source: OptionSource;
  /** File path, env var or flag that held the bad value. */
  where: string;
  message: string;
}

/** What became of the project file (`config` and `doctor` show it). */
export interface ProjectFileReport {
  /** The nearest `.recapwrap.json` (config-file.ts findProjectConfig), read or not. */
  file: string;
  /**
   * read: its project-safe keys were taken (the others are in ignoredKeys); trusted: every key was taken
   * (the user trusted this very content); ignored: nothing was (see refused).
   */
  status: 'read' | 'trusted' | 'ignored';
  /** Why the whole file was ignored: its owner, its mode, its folder's, or it could not be read. */
  refused?: { reason: FileRefusal | 'unreadable'; message: string };
  /** Keys it holds that were not taken, and why. */
  ignoredKeys: Array<{ key: string; why: HeldKeyReason }>;
  /** sha256 of its content, when it holds a key that needs trust. */
  sha256?: string;
}

export interface ResolvedConfig {
  options: Options;
  sources: Record<keyof Options, { source: OptionSource; where?: string }>;
  problems: ConfigProblem[];
  files: { global: string; project?: string };
  /** The project file and what was taken from it. */
  project?: ProjectFileReport;
  /**
   * The raw `hosts` (checked by app/hosts/config.ts) and the file that set them: the global file's, or a
   * trusted project file's (which replaces them); an untrusted project file's never.
   */
  hosts?: { value: unknown; file: string; source: OptionSource };
  /** One line about the project file for the command to print once (takeProjectNotice), when it says something. */
  notice?: string;
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

export interface ResolveInput {
  env: Env;
  cwd: string;
  /** Values commander parsed, by option name (only those the user gave). */
  flags?: Partial<Record<keyof Options, unknown>>;
}

// A config file's bytes as a JSON object, or a problem.
function parseConfigObject(file: string, bytes: Buffer, source: OptionSource, problems: ConfigProblem[]): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
      problems.push({ source, where: file, message: `Expected ${file} to hold a JSON object, got ${Array.isArray(value) ? 'an array' : typeof value}` });
      return undefined;
    }
    return value as Record<string, unknown>;
  } catch (error) {
    problems.push({ source, where: file, message: `Cannot read ${file}: ${(error as Error).message}` });
    return undefined;
  }
}

// The global file: the user's own, unless someone else owns it or others may write it (then a problem).
function readGlobalFile(file: string, problems: ConfigProblem[]): Record<string, unknown> {
  const read = readConfigFileSafely(file, 'own');
  if (read.kind === 'missing') return {};
  if (read.kind === 'refused') {
    problems.push({ source: 'global file', where: file, message: `ignored ${read.verdict.message}` });
    return {};
  }
  if (read.kind === 'unreadable') {
    problems.push({ source: 'global file', where: file, message: read.message });
    return {};
  }
  return parseConfigObject(file, read.bytes, 'global file', problems) ?? {};
}

/**
 * The project file under the trust rule (docs/threat-model.md): refused whole when it is not safely the
 * user's (project-rule.ts), else its project-safe keys are taken, and every key only when the user trusted
 * this very content (trust-list.ts; read only when the file holds a key that needs it).
 */
function readProjectFile(file: string, env: Env, problems: ConfigProblem[]): { values: Record<string, unknown>; report: ProjectFileReport } {
  const read = readConfigFileSafely(file, 'project');
  if (read.kind === 'missing') return { values: {}, report: { file, status: 'ignored', refused: { reason: 'unreadable', message: `${file} is gone` }, ignoredKeys: [] } };
  if (read.kind === 'refused') return { values: {}, report: { file, status: 'ignored', refused: { reason: read.verdict.reason, message: read.verdict.message }, ignoredKeys: [] } };
  if (read.kind === 'unreadable') {
    problems.push({ source: 'project file', where: file, message: read.message });
    return { values: {}, report: { file, status: 'ignored', refused: { reason: 'unreadable', message: read.message }, ignoredKeys: [] } };
  }
  const all = parseConfigObject(file, read.bytes, 'project file', problems);
  if (!all) return { values: {}, report: { file, status: 'ignored', refused: { reason: 'unreadable', message: problems[problems.length - 1]?.message ?? `Cannot read ${file}` }, ignoredKeys: [] } };
  const keys = Object.keys(all);
  let trust: 'trusted' | 'changed' | 'link' | 'none' = 'none';
  let sha256: string | undefined;
  if (read.linked) trust = 'link';
  else if (splitProjectKeys(keys, 'none').held.length > 0) {
    sha256 = sha256Of(read.bytes);
    const list = readTrustList(env);
    if (list.problem) problems.push({ source: 'global file', where: list.file, message: list.problem });
    trust = trustOf(list, read.realPath, sha256);
  }
  const { take, held } = splitProjectKeys(keys, trust);
  const values = Object.fromEntries(take.map((k) => [k, all[k]]));
  return { values, report: { file, status: trust === 'trusted' ? 'trusted' : 'read', ignoredKeys: held, ...(sha256 ? { sha256 } : {}) } };
}

/** The one line a command prints about its project file (a refused file, or keys held back), or undefined. */
export function describeProjectNotice(report: ProjectFileReport | undefined): string | undefined {
  if (!report) return undefined;
  if (report.refused && report.refused.reason !== 'unreadable') return `ignored ${report.refused.message}`;
  if (report.ignoredKeys.length === 0) return undefined;
  const keys = report.ignoredKeys.map((k) => k.key).join(', ');
  if (report.ignoredKeys.some((k) => k.why === 'a link')) {
    return `${report.file} is a link to a file elsewhere: ${keys} ignored (a project file sets display and timing only, and a trust never carries through a link)`;
  }
  if (report.ignoredKeys.some((k) => k.why === 'changed since trusted')) {
    return `${report.file} changed since you trusted it: ${keys} ignored until you read it and trust it again (\`recapwrap config trust\`)`;
  }
  return `${report.file}: ${keys} ignored (a project file sets display and timing only; read it, then \`recapwrap config trust\` to use ${report.ignoredKeys.length === 1 ? 'it' : 'them'})`;
}

let projectNoticeShown = false;

/**
 * The project-file warning of this config, the first time a process asks: one line per command, said by
 * the command's entry (cli/main.ts, the fast paths, the wrapper before the agent owns the screen).
 */
export function takeProjectNotice(config: Pick<ResolvedConfig, 'notice'>): string | undefined {
  if (!config.notice || projectNoticeShown) return undefined;
  projectNoticeShown = true;
  return config.notice;
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
  let project: ProjectFileReport | undefined;
  const layers: Array<[OptionSource, string, Record<string, unknown>]> = [['global file', globalFile, readGlobalFile(globalFile, problems)]];
  if (projectFile && resolve(projectFile) !== resolve(globalFile)) {
    const read = readProjectFile(projectFile, env, problems);
    project = read.report;
    layers.push(['project file', projectFile, read.values]);
  }
  for (const [source, file, values] of layers) {
    for (const [key, raw] of Object.entries(values)) {
      if (key === 'hosts') {
        hosts = { value: raw, file, source };
        continue;
      }
      const spec = getOptionSpec(key);
      if (!spec) {
        problems.push({ source, where: file, message: `Unknown option \`${key}\` in ${file} (known: ${[...OPTIONS, ...FILE_KEYS].map((o) => o.name).join(', ')})` });
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
    const spec = getOptionSpec(name);
    if (spec && raw !== undefined) apply(spec, raw, 'flag', `--${'flag' in spec ? spec.flag : name}`);
  }
  const notice = describeProjectNotice(project);
  return {
    options,
    sources,
    // A message names keys and values from files a cloned repo wrote (an unknown key may hold an escape
    // sequence, a value an 8-bit CSI): every caller prints them, so they leave here as one clean line each.
    problems: problems.map((p) => ({ ...p, message: sanitizeLine(p.message) })),
    files: { global: globalFile, ...(projectFile ? { project: projectFile } : {}) },
    ...(project ? { project } : {}),
    ...(hosts ? { hosts } : {}),
    ...(notice ? { notice } : {}),
  };
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

/** Markdown table of the options (for the README), with the keys a file holds besides them (hosts) last. */
export function renderOptionsMarkdown(): string {
  // A project file sets what the table marks project-safe; anything else only once the user trusts that file.
  const project = (safe: boolean) => (safe ? 'yes' : 'if trusted');
  const rows = (OPTIONS as readonly OptionSpec[]).map((o) => {
    const flag = 'flag' in o && o.flag ? `\`--${o.type === 'boolean' && o.default ? 'no-' : ''}${o.flag}\`` : '';
    const values = o.type === 'choice' ? o.choices.join(' \\| ') : o.type === 'number' ? `${o.min}–${o.max} ${o.unit}` : o.type;
    return `| \`${o.name}\` | ${flag} | \`${o.env}\` | \`${JSON.stringify(o.default)}\` | ${values} | ${project(o.project)} | ${o.description.replace(/\|/g, '\\|')} |`;
  });
  for (const k of FILE_KEYS) rows.push(`| \`${k.name}\` |  |  | \`[]\` | list | ${project(k.project)} | ${k.description} ([many machines](#many-machines)) |`);
  return ['| option (config.json) | flag | env | default | values | project file | what it does |', '| --- | --- | --- | --- | --- | --- | --- |', ...rows].join('\n');
}
