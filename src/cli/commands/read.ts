/**
 * `recapwrap read [REF]` (#41): a past or live session's whole conversation, rendered. Thin: options in,
 * the work in read-run.ts (loaded when `read` runs).
 */
import type { Command } from 'commander';
import { formatAgentIds } from '../../transcripts/agent-ids.js';
import { setExitCode } from '../exit-code.js';
import type { ReadCliOptions } from './read-run.js';
import { WIDTH_RANGE_TEXT } from '../width-option.js';

export function registerRead(program: Command): void {
  program
    .command('read')
    .description('the whole conversation of a session: prompts numbered, the agent\'s markdown, a line per tool call with a short preview, edits as diffs, compaction marked; through $PAGER on a terminal')
    .argument('[ref]', 'session id, id prefix, name, @@name or a transcript file (none: the session of this recapwrap pane)')
    .option('--focused', 'prompts and the final answers only', false)
    .option('--full', 'everything: whole tool outputs and diffs, sub-agent work', false)
    .option('--thinking', 'show the thinking whole (else one line)', false)
    .option('--turn <n>', 'start at prompt N')
    .option('--at <words>', 'start at the first message holding these words')
    .option('--outline', 'one line per prompt: the prompt, tools run, files touched with +N/−M, time spent', false)
    .option('--md', 'markdown on stdout (a metadata table, prompts as headings, tool calls fenced, outputs cut): for a file or another agent', false)
    .option('--html <file>', 'one self-contained HTML page (no request leaves it, strict CSP; views, find, #t12 links); - for stdout')
    .option('--width <n>', `cells per line, ${WIDTH_RANGE_TEXT} (default: the terminal's width, 80 when piped)`)
    .option('--pane <id>', 'the live session of this recapwrap tmux pane')
    .option('--host <name>', "a host's session, from the copy `index --host NAME --pull` made here")
    .option('--agent <id>', `the agent that wrote a transcript file, when not detected: ${formatAgentIds()}`)
    .option('--color', 'colours even when piped')
    .option('--no-pager', 'write to stdout even on a terminal')
    .action(async function (this: Command, ref: string | undefined, options: ReadCliOptions) {
      const { runRead } = await import('./read-run.js');
      const code = await runRead(ref, options, {
        env: process.env,
        cwd: process.cwd(),
        tty: Boolean(process.stdout.isTTY),
        columns: process.stdout.columns,
        stdout: process.stdout,
        stderr: (text) => process.stderr.write(text),
      });
      setExitCode(this, code);
    });
}
