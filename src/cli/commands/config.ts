/**
 * `recapwrap config [--json]`: the effective options, the hosts, and where each came from; the project
 * file and what was taken from it; the project files the user trusted. `config trust [PATH]` and
 * `config untrust [PATH]` change that list (config/trust-list.ts).
 */
import type { Command } from 'commander';
import { parseHosts, type HostSpec } from '../../app/hosts/config.js';
import { readConfigFileSafely, sha256Of } from '../../config/config-file.js';
import { renderOptionsMarkdown, resolveConfig, type ConfigProblem, type OptionSource, type ProjectFileReport, type ResolvedConfig } from '../../config/load.js';
import { OPTIONS } from '../../config/options-table.js';
import type { Env } from '../../config/paths.js';
import { readTrustList, trustProjectFile, untrustProjectFile } from '../../config/trust-list.js';
import { sanitizeLine, stringifyJsonSafely } from '../../util/sanitize.js';
import { shellQuote } from '../../util/shell-quote.js';
import { setExitCode } from '../exit-code.js';

/** A trusted project file as `config` lists it: does the file still hold the content trusted? */
export interface TrustedFileState {
  file: string;
  sha256: string;
  trustedAt: string;
  /** matches: trusted as it is; changed: edited since (untrusted until trusted again); gone; refused: the rule refuses it now. */
  state: 'matches' | 'changed' | 'gone' | 'refused';
}

export interface ConfigReport {
  config: ResolvedConfig;
  hosts: { list: HostSpec[]; source?: OptionSource; where?: string; problems: string[] };
  trusted: TrustedFileState[];
  trustProblem?: string;
}

export function buildConfigReport(env: Env, cwd: string): ConfigReport {
  const config = resolveConfig({ env, cwd });
  const parsed = parseHosts(config.hosts?.value, config.hosts?.file);
  const list = readTrustList(env);
  const trusted = Object.entries(list.entries).map(([file, entry]): TrustedFileState => {
    const read = readConfigFileSafely(file, 'project');
    const state = read.kind === 'read' ? (sha256Of(read.bytes) === entry.sha256 ? 'matches' : 'changed') : read.kind === 'missing' ? 'gone' : 'refused';
    return { file, ...entry, state };
  });
  return {
    config,
    hosts: { list: parsed.hosts, ...(config.hosts ? { source: config.hosts.source, where: config.hosts.file } : {}), problems: parsed.problems },
    trusted,
    ...(list.problem ? { trustProblem: list.problem } : {}),
  };
}

// Paths and values from files are shown through the sanitizer (a folder name may hold a newline or an escape).
const fromText = (source: OptionSource, where?: string) => (source === 'default' ? 'default' : `${source}${where ? ` (${sanitizeLine(where)})` : ''}`);

/** What became of the project file, in one line (`config` and `doctor`). */
export function describeProjectFile(report: ProjectFileReport): string {
  if (report.status === 'ignored') return `ignored: ${sanitizeLine(report.refused?.message ?? 'unreadable')}`;
  if (report.status === 'trusted') return `trusted (sha256 ${report.sha256?.slice(0, 12) ?? '?'}…): every key read`;
  if (report.ignoredKeys.length === 0) return 'read (display and timing keys)';
  const changed = report.ignoredKeys.some((k) => k.why === 'changed since trusted');
  const linked = report.ignoredKeys.some((k) => k.why === 'a link');
  return `display and timing keys read; ignored ${report.ignoredKeys.map((k) => k.key).join(', ')} (${linked ? 'a link to a file elsewhere: never trusted through a link' : changed ? 'changed since you trusted it' : 'untrusted key'})`;
}

/** One host as `config` shows it: its name and the ssh line that reaches it (sanitized: what is shown, not run). */
function hostLine(h: HostSpec): string {
  const extra = [h.recapwrap !== 'recapwrap' ? `recapwrap: ${h.recapwrap}` : '', h.timeoutSeconds !== undefined ? `timeout ${h.timeoutSeconds} s` : '', h.mirror ? 'mirror' : ''].filter(Boolean);
  return `  ${sanitizeLine(`${h.name}: ssh ${h.ssh.map(shellQuote).join(' ')}${extra.length ? ` (${extra.join(', ')})` : ''}`)}`;
}

export function renderConfig(report: ConfigReport): string {
  const { config, hosts } = report;
  const width = Math.max(...OPTIONS.map((o) => o.name.length), 'hosts'.length);
  const lines = OPTIONS.map((o) => {
    const value = stringifyJsonSafely(config.options[o.name]);
    const { source, where } = config.sources[o.name];
    return `${o.name.padEnd(width)}  ${value.padEnd(28)}  ${fromText(source, where)}`;
  });
  const names = hosts.list.length ? hosts.list.map((h) => h.name).join(', ') : '(none)';
  lines.push(`${'hosts'.padEnd(width)}  ${names.padEnd(28)}  ${hosts.source ? fromText(hosts.source, hosts.where) : 'default'}`);
  lines.push(...hosts.list.map(hostLine));
  lines.push('', `global file:  ${sanitizeLine(config.files.global)}`);
  lines.push(`project file: ${config.project ? `${sanitizeLine(config.project.file)}: ${describeProjectFile(config.project)}` : '(none: .recapwrap.json in this folder or a parent, below your home or up to the repository root)'}`);
  if (report.trusted.length) {
    lines.push('trusted project files (`recapwrap config untrust PATH` takes one back):');
    const said = { matches: 'as trusted', changed: 'changed since: untrusted until trusted again', gone: 'gone', refused: 'refused now (owner or mode)' };
    for (const t of report.trusted) lines.push(`  ${sanitizeLine(t.file)}  trusted ${sanitizeLine(t.trustedAt.slice(0, 10))}, sha256 ${t.sha256.slice(0, 12)}…, ${said[t.state]}`);
  }
  const warnings: Array<Pick<ConfigProblem, 'message'>> = [...config.problems, ...hosts.problems.map((message) => ({ message }))];
  if (report.trustProblem && !config.problems.some((p) => p.message === report.trustProblem)) warnings.push({ message: report.trustProblem });
  if (config.notice) warnings.push({ message: config.notice });
  for (const p of warnings) lines.push(sanitizeLine(`warning: ${p.message}`));
  return lines.join('\n');
}

/** `config --json`: the options and their sources (hosts among them), the files, the project file's fate, the trusted files. */
export function configJson(report: ConfigReport): unknown {
  const { config, hosts } = report;
  return {
    options: config.options,
    hosts: hosts.list,
    sources: { ...config.sources, hosts: hosts.source ? { source: hosts.source, where: hosts.where } : { source: 'default' } },
    problems: [...config.problems, ...hosts.problems.map((message) => ({ source: hosts.source ?? 'global file', where: hosts.where ?? config.files.global, message }))],
    files: config.files,
    project: config.project ?? null,
    trusted: report.trusted,
    ...(config.notice ? { notice: config.notice } : {}),
  };
}

export function registerConfig(program: Command): void {
  const config = program
    .command('config')
    .description('print the effective configuration and where each value came from; `config trust` lets a project file set more than display and timing')
    .option('--json', 'print {options, hosts, sources, problems, files, project, trusted} as JSON', false)
    .option('--markdown', 'print the options table as Markdown (for docs)', false)
    .action(function (this: Command, opts: { json: boolean; markdown: boolean }) {
      if (opts.markdown) {
        process.stdout.write(renderOptionsMarkdown() + '\n');
        return;
      }
      const report = buildConfigReport(process.env, process.cwd());
      process.stdout.write((opts.json ? stringifyJsonSafely(configJson(report), 2) : renderConfig(report)) + '\n');
      setExitCode(this, 0);
    });
  config
    .command('trust [path]')
    .description("trust a project's .recapwrap.json as it is now (this folder's, or PATH), so it may set every option, hosts among them; an edit untrusts it")
    .action(function (this: Command, path: string | undefined) {
      const r = trustProjectFile(process.env, process.cwd(), path);
      if (!r.ok) {
        process.stderr.write(sanitizeLine(`recapwrap: ${r.message}`) + '\n');
        setExitCode(this, 1);
        return;
      }
      const lines = [`${r.already ? 'already trusted' : 'trusted'}: ${sanitizeLine(r.file)} (sha256 ${r.sha256.slice(0, 12)}…), as it is now.`];
      if (r.unlocked.length) {
        lines.push('It may now set what a project file alone may not (read them: they can run commands and reach hosts):');
        for (const u of r.unlocked) lines.push(`  ${u.key}: ${stringifyJsonSafely(u.value)}`);
      } else lines.push('It sets nothing beyond display and timing today.');
      lines.push('Any edit makes it untrusted again; `recapwrap config untrust` takes the trust back.');
      process.stdout.write(lines.join('\n') + '\n');
      setExitCode(this, 0);
    });
  config
    .command('untrust [path]')
    .description("take back the trust of a project's .recapwrap.json (this folder's, or PATH; `recapwrap config` lists them)")
    .action(function (this: Command, path: string | undefined) {
      const r = untrustProjectFile(process.env, process.cwd(), path);
      if (!r.ok) {
        process.stderr.write(sanitizeLine(`recapwrap: ${r.message}`) + '\n');
        setExitCode(this, 1);
        return;
      }
      process.stdout.write(sanitizeLine(`untrusted: ${r.file} (it sets display and timing only again)`) + '\n');
      setExitCode(this, 0);
    });
}
