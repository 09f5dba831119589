/** `recapwrap config [--json]`: the effective options and where each value came from. */
import type { Command } from 'commander';
import { renderOptionsMarkdown, resolveConfig, type ResolvedConfig } from '../../config/load.js';
import { OPTIONS } from '../../config/options-table.js';
import { setExitCode } from '../exit-code.js';

export function renderConfig(config: ResolvedConfig): string {
  const width = Math.max(...OPTIONS.map((o) => o.name.length));
  const lines = OPTIONS.map((o) => {
    const value = JSON.stringify(config.options[o.name]);
    const { source, where } = config.sources[o.name];
    const from = source === 'default' ? 'default' : `${source}${where ? ` (${where})` : ''}`;
    return `${o.name.padEnd(width)}  ${value.padEnd(28)}  ${from}`;
  });
  lines.push('', `global file:  ${config.files.global}`, `project file: ${config.files.project ?? '(none: .recapwrap.json in this folder or a parent)'}`);
  for (const p of config.problems) lines.push(`warning: ${p.message}`);
  return lines.join('\n');
}

export function registerConfig(program: Command): void {
  program
    .command('config')
    .description('print the effective configuration and where each value came from')
    .option('--json', 'print {options, sources, problems, files} as JSON', false)
    .option('--markdown', 'print the options table as Markdown (for docs)', false)
    .action(function (this: Command, opts: { json: boolean; markdown: boolean }) {
      if (opts.markdown) {
        process.stdout.write(renderOptionsMarkdown() + '\n');
        return;
      }
      const config = resolveConfig({ env: process.env, cwd: process.cwd() });
      process.stdout.write((opts.json ? JSON.stringify(config, null, 2) : renderConfig(config)) + '\n');
      setExitCode(this, 0);
    });
}
