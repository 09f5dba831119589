/**
 * The session-memory commands: `index`, `sessions`, `search`, `show`, `name`, `note`, `forget`. Thin: options
 * in, the work in memory-run.ts (loaded when one of them runs, never on the wrapper's start-up path).
 */
import type { Command } from 'commander';
import { formatAgentIds } from '../../transcripts/agent-ids.js';
import { setExitCode } from '../exit-code.js';
import { processMemoryDeps } from './memory-deps.js';
import type { MemoryCliOptions, MemoryVerb } from './memory-run.js';

function filters(cmd: Command): Command {
  return cmd
    .option('--here', 'only sessions of this folder (and below)', false)
    .option('--folder <dir>', 'only sessions of this folder (and below)')
    .option('--agent <id>', `only this agent: ${formatAgentIds()}`)
    .option('--since <age>', 'only sessions active in this time: 30m, 12h, 3d, 2w')
    .option('--limit <n>', 'at most this many')
    .option('--json', 'print JSON', false)
    .option('--host <name>', 'ask this host of the config file instead of this machine (repeatable)', collectHosts)
    .option('--all-hosts', 'this machine and every host of the config file (over ssh; each item from a host carries `host`)', false);
}

// --host NAME, repeatable (#35).
const collectHosts = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

async function run(cmd: Command, verb: MemoryVerb, args: string[], options: MemoryCliOptions): Promise<void> {
  const { runMemoryCommand } = await import('./memory-run.js');
  const { out, err, code } = await runMemoryCommand(verb, args, options, processMemoryDeps());
  process.stdout.write(out);
  process.stderr.write(err);
  setExitCode(cmd, code);
}

export function registerMemory(program: Command): void {
  program
    .command('index')
    .description("bring the session index up to date with every agent's session folders (incremental)")
    .option('--rebuild', 're-read every session file, not only the changed ones', false)
    .option('--json', 'print what was done as JSON', false)
    // Model summaries (#25): only when asked; says how many sessions and which model first.
    .option('--summarize', 'then have a model summarise the sessions that have only heuristic summaries (says how many and which model first)', false)
    .option('--limit <n>', 'with --summarize: at most this many sessions, newest first')
    .option('--session <ref>', 'with --summarize: only this session')
    .option('--generator <name>', 'with --summarize: who writes them (auto|agent|openai|anthropic)')
    .option('--model <model>', 'with --summarize: the model')
    .option('--no-llm', 'with --summarize: send nothing (model summaries are then off)')
    .option('--host <name>', "with --pull: this host of the config file (repeatable)", collectHosts)
    .option('--all-hosts', 'with --pull: every host of the config file', false)
    .option('--pull', "copy the hosts' agent session files here with rsync over ssh (add-only) and index them, tagged with the host", false)
    .action(async function (this: Command, options: MemoryCliOptions) {
      await run(this, 'index', [], options);
    });
  filters(program.command('sessions'))
    .description('past sessions of every agent in every folder, newest first: name, agent, age, folder, headline')
    .action(async function (this: Command, options: MemoryCliOptions) {
      await run(this, 'sessions', [], options);
    });
  filters(program.command('search'))
    .description('full-text search over every past session (prompts, answers, files, commands, summaries)')
    .argument('<query...>', 'plain words (as words, their start or other English forms): sessions holding every word first, then the closest')
    .option('--all-words', 'only sessions holding every word', false)
    .action(async function (this: Command, query: string[], options: MemoryCliOptions) {
      await run(this, 'search', [query.join(' ')], options);
    });
  program
    .command('show')
    .description("one session's card: name, summary, done/next, files, stats, transcript, the command that resumes it")
    .argument('<ref>', 'session id, id prefix, name or @@name; HOST:REF for a host of the config file')
    .option('--json', 'print the card as JSON', false)
    .option('--host <name>', 'look on this host of the config file instead of this machine (repeatable)', collectHosts)
    .option('--all-hosts', 'look on this machine and every host of the config file', false)
    .action(async function (this: Command, ref: string, options: MemoryCliOptions) {
      await run(this, 'show', [ref], options);
    });
  program
    .command('name')
    .description('give a session your own name (never overwritten by a generator)')
    .argument('<ref>', 'session id, id prefix, name or @@name')
    .argument('<name>', 'the new name (lowercase kebab: my-login-fix)')
    .option('--json', 'print the renamed session as JSON', false)
    .action(async function (this: Command, ref: string, name: string, options: MemoryCliOptions) {
      await run(this, 'name', [ref, name], options);
    });
  program
    .command('note')
    .description('your own recap of a session (generator user_edited): shown by show, sessions, search, the picker and MCP, kept over every rewrite')
    .argument('<ref>', 'session id, id prefix, name or @@name')
    .argument('[text...]', 'the recap, in your words')
    .option('--clear', 'remove your note (the recap the index wrote shows again)', false)
    .option('--json', 'print the session as JSON', false)
    .action(async function (this: Command, ref: string, text: string[], options: MemoryCliOptions) {
      await run(this, 'note', [ref, text.join(' ')], options);
    });
  program
    .command('forget')
    .description("delete sessions' rows and text from the index for good, never indexed again (cannot be undone; asks first on a terminal)")
    .argument('[ref]', 'session id, unique id prefix, exact name or @@name (a looser match lists the candidates, forgets nothing)')
    .option('--folder <dir>', "forget every session of this folder and below")
    .option('-y, --yes', 'do not ask first (on a terminal it shows what will go and asks; without one, --yes is required)', false)
    .option('--json', 'print how many were forgotten as JSON', false)
    .option('--host <name>', "forget it on this host of the config file (its own recapwrap, over ssh) and in the copy a pull made of it", collectHosts)
    .action(async function (this: Command, ref: string | undefined, options: MemoryCliOptions) {
      await run(this, 'forget', ref === undefined ? [] : [ref], options);
    });
}
