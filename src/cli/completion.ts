/**
 * Shell completion scripts (bash, zsh, fish) generated from the commands and options commander has
 * registered, the same table `--help` prints: a command someone registers is completed with no edit here.
 * Only what an option's value is (a file, a folder, a pane, a fixed list) is known here, by option name.
 */
import type { Command, Option } from 'commander';
import { OPTIONS, type OptionSpec } from '../config/options-table.js';
import { AGENT_IDS } from '../transcripts/agent-ids.js';
import { MCP_AGENT_IDS } from './commands/mcp.js';

/** What a value (of an option, or a command's first argument) completes to. */
export type ValueKind = { kind: 'words'; words: readonly string[] } | { kind: 'file' } | { kind: 'dir' } | { kind: 'pane' } | { kind: 'commands' } | { kind: 'none' };

export interface CompletionOption {
  long: string;
  takesValue: boolean;
  description: string;
  value: ValueKind;
}

export interface CompletionCommand {
  name: string;
  description: string;
  options: CompletionOption[];
  /** What the command's first argument is (its own commands' names, when it has some); undefined when it takes none. */
  operand?: ValueKind;
  /** Its own commands (`mcp install`, `config trust`), each completed with its options once named. */
  subcommands?: CompletionCommand[];
}

export interface CompletionSpec {
  commands: CompletionCommand[];
  /** The wrapper's own options (before the agent's name). */
  rootOptions: CompletionOption[];
  agents: readonly string[];
}

export const COMPLETION_SHELLS = ['bash', 'zsh', 'fish'] as const;
export type CompletionShell = (typeof COMPLETION_SHELLS)[number];

/** `--format` differs by command: the values each command accepts. */
const FORMAT_VALUES: Record<string, readonly string[]> = { recap: ['line', 'card', 'json'], status: ['plain', 'tmux'] };
/** `--agent` is any agent but where a command takes only some (by its path: `mcp install`). */
const AGENT_VALUES: Record<string, readonly string[]> = { 'mcp install': MCP_AGENT_IDS, 'mcp uninstall': MCP_AGENT_IDS };
const NOTIFY_VALUES = ['auto', 'bell', 'osc', 'tmux', 'none', 'command:'];
const FILE_OPTIONS = new Set(['--session', '--file']);
const DIR_OPTIONS = new Set(['--cwd', '--folder', '--dir']);
const PANE_OPTIONS = new Set(['--pane', '--from']);

// What an option's value completes to, from its name (and, for choices, the options table). `command`:
// the command's path (`recap`, `mcp install`).
function valueKindOf(command: string, long: string): ValueKind {
  if (long === '--agent') return { kind: 'words', words: AGENT_VALUES[command] ?? AGENT_IDS };
  if (long === '--notify') return { kind: 'words', words: NOTIFY_VALUES };
  if (long === '--format') return FORMAT_VALUES[command] ? { kind: 'words', words: FORMAT_VALUES[command] } : { kind: 'none' };
  if (FILE_OPTIONS.has(long)) return { kind: 'file' };
  if (DIR_OPTIONS.has(long)) return { kind: 'dir' };
  if (PANE_OPTIONS.has(long)) return { kind: 'pane' };
  const spec = (OPTIONS as readonly OptionSpec[]).find((o) => 'flag' in o && `--${o.flag}` === long);
  if (spec?.type === 'choice') return { kind: 'words', words: spec.choices };
  return { kind: 'none' };
}

// One line of help text, short enough for a completion menu.
function shortDescription(text: string): string {
  const first = text.split(/\n/)[0] ?? '';
  const cut = first.split(/;| \(/)[0] ?? first;
  return cut.length > 70 ? cut.slice(0, 69) + '…' : cut;
}

function describeOptions(command: string, options: readonly Option[]): CompletionOption[] {
  const out: CompletionOption[] = options
    .filter((o): o is Option & { long: string } => typeof o.long === 'string')
    .map((o) => ({ long: o.long, takesValue: o.required || o.optional, description: shortDescription(o.description), value: o.required || o.optional ? valueKindOf(command, o.long) : { kind: 'none' as const } }));
  if (!out.some((o) => o.long === '--help')) out.push({ long: '--help', takesValue: false, description: 'show help', value: { kind: 'none' } });
  return out;
}

function operandOf(command: Command): ValueKind | undefined {
  // A command with commands of its own (`mcp install`, `config trust`): those are its first word.
  const subcommands = userCommands(command).map((c) => c.name());
  if (subcommands.length > 0) return { kind: 'words', words: subcommands };
  const first = command.registeredArguments[0];
  if (!first) return undefined;
  const name = first.name();
  if (name === 'file' || name === 'path') return { kind: 'file' };
  if (name === 'dir' || name === 'folder') return { kind: 'dir' };
  if (name === 'command') return { kind: 'commands' };
  return { kind: 'none' };
}

/** The commands a user sees (help, completion, docs): all but the hidden ones (`pick-popup`, run by the wrapper). */
export function userCommands(program: Command): readonly Command[] {
  return program.commands.filter((c) => !(c as { _hidden?: boolean })._hidden);
}

function describeCommand(c: Command, parent?: string): CompletionCommand {
  const path = parent ? `${parent} ${c.name()}` : c.name();
  const subcommands = userCommands(c).map((s) => describeCommand(s, path));
  return { name: c.name(), description: shortDescription(c.description()), options: describeOptions(path, c.options), operand: operandOf(c), ...(subcommands.length ? { subcommands } : {}) };
}

/** Every registered command and option of the program (and `help`, which commander keeps apart). */
export function describeProgram(program: Command): CompletionSpec {
  const commands: CompletionCommand[] = userCommands(program).map((c) => describeCommand(c));
  if (!commands.some((c) => c.name === 'help')) commands.push({ name: 'help', description: 'show help for recapwrap or one of its commands', options: [], operand: { kind: 'commands' } });
  return { commands, rootOptions: describeOptions('', program.options), agents: AGENT_IDS };
}

export function renderCompletion(shell: CompletionShell, spec: CompletionSpec): string {
  switch (shell) {
    case 'bash':
      return renderBash(spec);
    case 'zsh':
      return renderZsh(spec);
    case 'fish':
      return renderFish(spec);
    default:
      return shell satisfies never;
  }
}

const HEADER = (shell: string) => `# recapwrap completion for ${shell}, generated by \`recapwrap completion ${shell}\` from the CLI's own commands.\n`;

// A word list as one shell word: the lists hold plain words only (ids, choices, option names).
const words = (list: readonly string[]) => list.join(' ');

function bashValue(value: ValueKind, commandNames: string): string {
  switch (value.kind) {
    case 'words':
      return `COMPREPLY=($(compgen -W "${words(value.words)}" -- "$cur"))`;
    case 'file':
      return 'COMPREPLY=($(compgen -f -- "$cur"))';
    case 'dir':
      return 'COMPREPLY=($(compgen -d -- "$cur"))';
    case 'pane':
      return `COMPREPLY=($(compgen -W "$(tmux list-panes -a -F '#{pane_id}' 2>/dev/null)" -- "$cur"))`;
    case 'commands':
      return `COMPREPLY=($(compgen -W "${commandNames}" -- "$cur"))`;
    case 'none':
      return 'COMPREPLY=()';
    default:
      return value satisfies never;
  }
}

function renderBash(spec: CompletionSpec): string {
  const names = words(spec.commands.map((c) => c.name));
  const rootValueOptions = spec.rootOptions.filter((o) => o.takesValue).map((o) => o.long);
  const rootOpts = words(spec.rootOptions.map((o) => o.long));
  const lines: string[] = [HEADER('bash').trimEnd(), '_recapwrap_completion() {'];
  lines.push('  local cur=${COMP_WORDS[COMP_CWORD]} prev=');
  lines.push('  [ "$COMP_CWORD" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD-1]}');
  lines.push('  # The subcommand (or wrapped command): the first word that is neither an option nor an option\'s value.');
  lines.push('  local i=1 sub= w');
  lines.push(...bashWordWalk('i', 'sub', rootValueOptions, '  '));
  lines.push('  if [ -z "$sub" ]; then');
  lines.push('    case $prev in');
  for (const o of spec.rootOptions.filter((x) => x.takesValue)) lines.push(`      ${o.long}) ${bashValue(o.value, names)}; return ;;`);
  lines.push('    esac');
  lines.push(`    if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "${rootOpts}" -- "$cur"))`);
  lines.push(`    else COMPREPLY=($(compgen -W "${names} ${words(spec.agents)}" -- "$cur")); fi`);
  lines.push('    return');
  lines.push('  fi');
  lines.push('  case $sub in');
  for (const c of spec.commands) {
    lines.push(`    ${c.name})`);
    if (c.subcommands) {
      // Its own command: the first word after it that is neither an option nor an option's value.
      const valued = c.options.filter((o) => o.takesValue).map((o) => o.long);
      lines.push('      local j=$((i + 1)) sub2=');
      lines.push(...bashWordWalk('j', 'sub2', valued, '      '));
      lines.push('      case $sub2 in');
      for (const s of c.subcommands) {
        lines.push(`        ${s.name})`);
        lines.push(...bashCommandBody(s, names, '          '));
        lines.push('          ;;');
      }
      lines.push('        *)');
      lines.push(...bashCommandBody(c, names, '          '));
      lines.push('          ;;');
      lines.push('      esac');
    } else lines.push(...bashCommandBody(c, names, '      '));
    lines.push('      ;;');
  }
  lines.push('    *) COMPREPLY=($(compgen -f -- "$cur")) ;; # a wrapped agent: its own arguments');
  lines.push('  esac');
  lines.push('}');
  return lines.join('\n') + '\n';
}

// From word `index` on, the first that is neither an option nor the value of one of `valued` (a command's
// name), into `found`.
function bashWordWalk(index: string, found: string, valued: readonly string[], indent: string): string[] {
  return [
    `while [ "$${index}" -lt "$COMP_CWORD" ]; do`,
    `  w=\${COMP_WORDS[${index}]}`,
    '  case $w in',
    ...(valued.length ? [`    ${valued.join('|')}) ${index}=$((${index} + 2)) ;;`] : []),
    `    -*) ${index}=$((${index} + 1)) ;;`,
    `    *) ${found}=$w; break ;;`,
    '  esac',
    'done',
  ].map((l) => indent + l);
}

// A command's completion once it is named: its options' values, its options, its first argument.
function bashCommandBody(c: CompletionCommand, names: string, indent: string): string[] {
  const lines: string[] = [];
  const valued = c.options.filter((o) => o.takesValue);
  if (valued.length) {
    lines.push(`${indent}case $prev in`);
    for (const o of valued) lines.push(`${indent}  ${o.long}) ${bashValue(o.value, names)}; return ;;`);
    lines.push(`${indent}esac`);
  }
  lines.push(`${indent}if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "${words(c.options.map((o) => o.long))}" -- "$cur"))`);
  lines.push(`${indent}else ${bashValue(c.operand ?? { kind: 'none' }, names)}; fi`);
  return lines;
}

// A description inside a zsh _arguments `[…]` (brackets are syntax there).
function zshText(text: string): string {
  return text.replace(/[[\]]/g, '\\$&');
}

// One zsh single-quoted word.
function zshQuote(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}

function zshValue(value: ValueKind): string {
  switch (value.kind) {
    case 'words':
      return `:value:(${words(value.words)})`;
    case 'file':
      return ':file:_files';
    case 'dir':
      return ':folder:_directories';
    case 'pane':
      return `:pane:{compadd -- \${(f)"$(tmux list-panes -a -F '#{pane_id}' 2>/dev/null)"}}`;
    case 'commands':
      return ':command:_recapwrap_commands';
    case 'none':
      return ':value:';
    default:
      return value satisfies never;
  }
}

function zshOptionSpecs(options: readonly CompletionOption[]): string {
  return options
    .map((o) => {
      return zshQuote(`${o.long}[${zshText(o.description)}]${o.takesValue ? zshValue(o.value) : ''}`);
    })
    .join(' ');
}

// bashWordWalk in zsh (`words`, CURRENT).
function zshWordWalk(index: string, found: string, valued: readonly string[], indent: string): string[] {
  return [
    `while (( ${index} < CURRENT )); do`,
    `  case \${words[${index}]} in`,
    ...(valued.length ? [`    ${valued.join('|')}) (( ${index} += 2 )) ;;`] : []),
    `    -*) (( ${index}++ )) ;;`,
    `    *) ${found}=\${words[${index}]}; break ;;`,
    '  esac',
    'done',
  ].map((l) => indent + l);
}

function zshArguments(c: CompletionCommand): string {
  const operand = c.operand && c.operand.kind !== 'none' ? ` ${zshQuote(`1${zshValue(c.operand)}`)}` : '';
  return `_arguments ${zshOptionSpecs(c.options)}${operand}`;
}

function renderZsh(spec: CompletionSpec): string {
  const lines: string[] = [HEADER('zsh').trimEnd()];
  lines.push('_recapwrap_commands() {');
  lines.push('  local -a subcommands');
  lines.push(`  subcommands=(${spec.commands.map((c) => zshQuote(`${c.name}:${c.description}`)).join(' ')})`);
  lines.push("  _describe -t commands 'recapwrap command' subcommands");
  lines.push('}');
  lines.push('_recapwrap_completion() {');
  lines.push('  local context state state_descr line');
  lines.push('  typeset -A opt_args');
  lines.push(`  local -a agents; agents=(${spec.agents.map((a) => `'${a}:wrap ${a}'`).join(' ')})`);
  const rootValued = spec.rootOptions.filter((o) => o.takesValue).map((o) => o.long);
  lines.push('  local i=2 sub=');
  lines.push(...zshWordWalk('i', 'sub', rootValued, '  '));
  lines.push('  if [[ -z $sub ]]; then');
  lines.push(`    if [[ $PREFIX == -* || \${words[CURRENT-1]} == (${rootValued.join('|') || '--'}) ]]; then`);
  lines.push(`      _arguments -s ${zshOptionSpecs(spec.rootOptions)}`);
  lines.push('    else');
  lines.push('      _recapwrap_commands');
  lines.push("      _describe -t agents 'agent' agents");
  lines.push('    fi');
  lines.push('    return');
  lines.push('  fi');
  lines.push('  # Complete the subcommand\'s own options as if it were the command.');
  lines.push('  words=(${words[i,-1]})');
  lines.push('  (( CURRENT -= i - 1 ))');
  lines.push('  case $sub in');
  for (const c of spec.commands) {
    if (!c.subcommands) {
      lines.push(`    ${c.name}) ${zshArguments(c)} ;;`);
      continue;
    }
    // Its own command named: complete that one's options as if it were the command.
    const valued = c.options.filter((o) => o.takesValue).map((o) => o.long);
    lines.push(`    ${c.name})`);
    lines.push('      local j=2 sub2=');
    lines.push(...zshWordWalk('j', 'sub2', valued, '      '));
    lines.push('      if [[ -n $sub2 ]]; then');
    lines.push('        words=(${words[j,-1]})');
    lines.push('        (( CURRENT -= j - 1 ))');
    lines.push('        case $sub2 in');
    for (const s of c.subcommands) lines.push(`          ${s.name}) ${zshArguments(s)} ;;`);
    lines.push('        esac');
    lines.push(`      else ${zshArguments(c)}; fi`);
    lines.push('      ;;');
  }
  lines.push('    *) _files ;;');
  lines.push('  esac');
  lines.push('}');
  lines.push('(( $+functions[compdef] )) && compdef _recapwrap_completion recapwrap');
  return lines.join('\n') + '\n';
}

// Text inside a fish single-quoted word.
function fishText(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function fishValue(value: ValueKind, names: string): string {
  switch (value.kind) {
    case 'words':
      return ` -x -a ${fishText(words(value.words))}`;
    case 'file':
      return ' -r -F';
    case 'dir':
      return " -x -a '(__fish_complete_directories)'";
    case 'pane':
      return ` -x -a ${fishText('(tmux list-panes -a -F "#{pane_id}" 2>/dev/null)')}`;
    case 'commands':
      return ` -x -a ${fishText(names)}`;
    case 'none':
      return ' -x';
    default:
      return value satisfies never;
  }
}

function renderFish(spec: CompletionSpec): string {
  const names = words(spec.commands.map((c) => c.name));
  const noSub = fishText(`not __fish_seen_subcommand_from ${names} ${words(spec.agents)}`);
  const lines: string[] = [HEADER('fish').trimEnd(), 'complete -c recapwrap -e', 'complete -c recapwrap -f'];
  for (const c of spec.commands) lines.push(`complete -c recapwrap -n ${noSub} -a ${c.name} -d ${fishText(c.description)}`);
  lines.push(`complete -c recapwrap -n ${noSub} -a ${fishText(words(spec.agents))} -d 'wrap an agent'`);
  for (const o of spec.rootOptions) lines.push(`complete -c recapwrap -n ${noSub} -l ${o.long.slice(2)}${o.takesValue ? fishValue(o.value, names) : ''} -d ${fishText(o.description)}`);
  const commandLines = (c: CompletionCommand, condition: string) => {
    const when = fishText(condition);
    for (const o of c.options) lines.push(`complete -c recapwrap -n ${when} -l ${o.long.slice(2)}${o.takesValue ? fishValue(o.value, names) : ''} -d ${fishText(o.description)}`);
    if (c.operand && c.operand.kind !== 'none') lines.push(`complete -c recapwrap -n ${when}${fishValue(c.operand, names)}`);
  };
  for (const c of spec.commands) {
    const seen = `__fish_seen_subcommand_from ${c.name}`;
    if (!c.subcommands) {
      commandLines(c, seen);
      continue;
    }
    // Until one of its own commands is named, the command's; then that one's.
    commandLines(c, `${seen}; and not __fish_seen_subcommand_from ${words(c.subcommands.map((s) => s.name))}`);
    for (const s of c.subcommands) commandLines(s, `${seen}; and __fish_seen_subcommand_from ${s.name}`);
  }
  return lines.join('\n') + '\n';
}
