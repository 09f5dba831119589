/**
 * `recapwrap resume [QUERY] [--agent ID]`: past sessions of this folder (every supported agent, newest
 * first) with their recaps; pick one to relaunch its agent under recapwrap with the agent's own resume
 * flag for exactly that session. `--list [--json]` and `--pick N` for scripts; interactive in a terminal.
 */
import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { formatAgentIds } from '../../transcripts/agent-ids.js';
import { formatCommandForTerminal } from '../../util/shell-quote.js';
import { setExitCode } from '../exit-code.js';
import type { ResumeCliOptions, ResumeDeps } from './resume-run.js';

export function registerResume(program: Command): void {
  program
    .command('resume')
    .description('past sessions of this folder (or every folder with --all) with their recaps; relaunch one under recapwrap, or the one REF names')
    .argument('[ref]', 'a session of the index (id, id prefix, name or @@name, any folder; HOST:REF for a host of the config file) to relaunch at once; otherwise only sessions with these words (full-text: prompts, answers, files, commands)')
    .option('--agent <id>', `only this agent: ${formatAgentIds()}`)
    .option('--cwd <dir>', 'the project folder (default: this one)')
    .option('--all', 'sessions of every folder (from the session index)', false)
    .option('--list', 'print the list and exit', false)
    .option('--json', 'print the list as JSON (with each recap and resume command) and exit', false)
    .option('--pick <n>', 'resume session N of the list without asking')
    .option('--limit <n>', 'read at most this many sessions (newest first)', '30')
    .option('--next', "also type the recap's next step into the agent's input once it is ready (never sent)", false)
    .option('--host <name>', 'REF is on this host of the config file: resume it there over ssh (in tmux: a new window); repeatable', (v: string, p: string[] | undefined) => [...(p ?? []), v])
    .option('--all-hosts', 'look for REF on this machine and every host of the config file', false)
    .option('--fork', "resume as a new session branched from the old one, through the agent's own fork (Claude Code, Qwen Code, pi, Codex; not Gemini CLI)", false)
    .action(async function (this: Command, query: string | undefined, options: ResumeCliOptions) {
      const deps: ResumeDeps = {
        env: process.env,
        cwd: process.cwd(),
        columns: process.stdout.columns || 80,
        now: Date.now(),
        interactive: Boolean(process.stdin.isTTY && process.stdout.isTTY),
        ask: (question) =>
          new Promise((resolveAnswer) => {
            const rl = createInterface({ input: process.stdin, output: process.stdout });
            let answered = false;
            // Ctrl-D (end of input) closes the interface with no answer: that is a quit.
            rl.once('close', () => {
              if (!answered) resolveAnswer(null);
            });
            rl.question(question).then(
              (answer) => {
                answered = true;
                rl.close();
                resolveAnswer(answer);
              },
              () => resolveAnswer(null),
            );
          }),
        write: (text) => process.stdout.write(text),
        pick: async (sessions) => (await import('./resume-picker.js')).pickPastSession(sessions, { stdin: process.stdin, stdout: process.stdout, now: Date.now() }),
        launch: async (command, args, agent, cwd, draft) => {
          const { runWrap } = await import('../../app/wrap/run-wrap.js');
          // The agent resumes in the session's folder (agents find their sessions by cwd).
          if (cwd !== process.cwd()) process.chdir(cwd);
          // The words come from a transcript (a session id, a file name): quoted, and with nothing a terminal acts on.
          process.stderr.write(`recapwrap: resuming with: ${formatCommandForTerminal([command, ...args])}\n`);
          return runWrap({ command, args, agent, draft });
        },
      };
      const { runResume } = await import('./resume-run.js');
      const { out, err, code } = await runResume(query, options, deps);
      process.stdout.write(out);
      process.stderr.write(err);
      setExitCode(this, code);
    });
}
