/**
 * `recapwrap resume REF --host NAME | --all-hosts`: find the one session REF names on the chosen
 * machines; one of this machine resumes as usual, one of a host resumes there through `ssh -t HOST 'cd
 * DIR && recapwrap AGENT …'` — inside tmux in a new window named after the session, else in this terminal.
 */
import { spawn } from 'node:child_process';
import type { Env } from '../../config/paths.js';
import { runTmux } from '../../display/tmux.js';
import { describeExactMiss, namesExactly } from '../memory/loose-ref.js';
import { sanitizeLine } from '../../util/sanitize.js';
import type { AcrossOptions } from './memory-across.js';
import { findCards, severalMachines } from './memory-across.js';
import { setUpHosts, warningLines } from './hosts.js';
import { commandLine, keptOpenOnFailure } from './ssh-argv.js';
import { formatCommandForTerminal, shellQuote } from '../../util/shell-quote.js';
import type { HostSpec } from './config.js';
import { hostLine, runScript } from './transport.js';

export type RemoteResume =
  | { kind: 'local'; err: string }
  | { kind: 'done'; code: number; err: string };

/** Runs argv in this terminal; resolves with its exit code. */
function runHere(argv: readonly string[], env: Env, cwd: string | undefined): Promise<number> {
  return new Promise((resolveRun) => {
    const child = spawn(argv[0] as string, argv.slice(1), { stdio: 'inherit', env: env as NodeJS.ProcessEnv, ...(cwd ? { cwd } : {}) });
    child.on('error', () => resolveRun(127));
    child.on('exit', (code, signal) => resolveRun(code ?? (signal ? 128 : 1)));
  });
}

/** A tmux window name from a session name: short, printable. */
export function windowName(name: string): string {
  return sanitizeLine(name).replace(/[^\w.@:+-]/g, '-').slice(0, 30) || 'recapwrap';
}

export async function resumeAcrossHosts(
  ref: string, flags: AcrossOptions & { fork?: boolean; next?: boolean; cwd?: string },
  input: { env: Env; cwd: string; now: number; runLocal: () => Promise<{ out: string; err: string; code: number }> },
): Promise<RemoteResume> {
  const setup = setUpHosts(input.env, input.cwd, flags);
  if ('error' in setup) return { kind: 'done', code: 2, err: `recapwrap: ${setup.error}\n` };
  const warn = warningLines(setup.warnings);
  // This machine's part is `show REF --json` of its own index (input.runLocal); the launch stays resume's own.
  const found = await findCards(ref, setup, { env: input.env, cwd: input.cwd, now: input.now, columns: Number.POSITIVE_INFINITY, color: false }, { runLocal: input.runLocal }, {});
  if ('code' in found) return { kind: 'done', code: found.code, err: warn + found.err };
  // A host's `show` takes part of a name too: only a session REF names exactly is resumed (a guess is named back).
  const loose = found.cards.filter((c) => !namesExactly(ref, c));
  const cards = found.cards.filter((c) => namesExactly(ref, c));
  const { err } = found;
  if (cards.length === 0 && loose.length > 0 && !found.ambiguous) return { kind: 'done', code: 1, err: warn + err + `recapwrap: ${describeExactMiss(ref, loose)}\n` };
  if (cards.length === 0) return { kind: 'done', code: found.ambiguous ? 2 : 1, err: warn + err + (found.ambiguous ? '' : `recapwrap: no session matches ${JSON.stringify(sanitizeLine(ref))} on the machines asked (try \`recapwrap search --all-hosts\`)\n`) };
  if (cards.length > 1 || found.ambiguous) {
    return { kind: 'done', code: 2, err: warn + err + severalMachines(ref, cards, (c) => `${c.host === undefined ? '' : `${c.host}:`}${sanitizeLine(c.name)}  (${c.agent} ${sanitizeLine(c.id)})`) };
  }
  const card = cards[0] as (typeof cards)[number];
  if (card.host === undefined) return { kind: 'local', err: warn + err };
  // The draft to type (--next) and another folder (--cwd) need the wrapper and folders of this machine.
  for (const [flag, given] of [['--next', flags.next], ['--cwd', flags.cwd !== undefined]] as const) {
    if (given) return { kind: 'done', code: 2, err: warn + err + `recapwrap: ${flag} works for sessions of this machine; ${sanitizeLine(card.name)} is on host ${card.host}: resume it without ${flag}\n` };
  }
  // --fork: a new session branched from it there, through the agent's own fork (as on this machine).
  if (flags.fork && !card.forkCommand) return { kind: 'done', code: 1, err: warn + err + `recapwrap: ${card.agent} cannot fork a session (its CLI has no fork); resume ${sanitizeLine(card.name)} without --fork\n` };
  const argv = flags.fork ? (card.forkCommand as string[]) : card.resumeCommand;
  const line = commandLine(argv);
  const say = `recapwrap: resuming ${sanitizeLine(card.name)} on host ${card.host} with: ${formatCommandForTerminal(argv)}\n`;
  // The folder there first: a session whose folder is gone would fail at once, in a window that closes.
  const folder = await runScript(setup.choice.hosts.find((h) => h.name === card.host) as HostSpec, `test -d ${shellQuote(card.cwd)}`, setup.ctx);
  if (!folder.ok) return { kind: 'done', code: 1, err: warn + err + hostLine(card.host, folder.problem) };
  if (folder.code !== 0) return { kind: 'done', code: 1, err: warn + err + hostLine(card.host, `the folder of ${sanitizeLine(card.name)}, ${sanitizeLine(card.cwd)}, is not there (moved or deleted); nothing was resumed`) };
  if (input.env.TMUX) {
    const made = await runTmux({ env: input.env }, ['new-window', ...(setup.ctx.cwd ? ['-c', setup.ctx.cwd] : []), '-n', windowName(card.name), keptOpenOnFailure(line)]);
    if (made === undefined) return { kind: 'done', code: 1, err: warn + err + `recapwrap: tmux could not open a window; run it yourself: ${formatCommandForTerminal(argv)}\n` };
    return { kind: 'done', code: 0, err: warn + err + say.replace('resuming', 'resuming in a new tmux window') };
  }
  process.stderr.write(warn + err + say);
  return { kind: 'done', code: await runHere(argv, input.env, setup.ctx.cwd), err: '' };
}
