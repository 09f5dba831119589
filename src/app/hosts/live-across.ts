/**
 * Attention across machines: every host's live wrapped sessions (its own `recapwrap ls --json` over
 * ssh, checked like every answer), for `ls`/`board --all-hosts`; and for `next --all-hosts`, the session
 * that has waited longest anywhere, with how to get there when it is on a host.
 */
import { getStateDir, type Env } from '../../config/paths.js';
import { compareByAttention, pickNextWaiting, waitKindOf } from '../../display/attention-order.js';
import { readLiveStates, type LiveState } from '../../display/state-file.js';
import { formatSince } from '../../util/age.js';
import { sanitizeLine } from '../../util/sanitize.js';
import type { HostSpec } from './config.js';
import { setUpHosts, warningLines, type HostFlags } from './hosts.js';
import { leftOutNote } from './merge.js';
import { parseRemoteList, remoteLiveSchema } from './remote-schema.js';
import { attachPaneArgv } from './ssh-argv.js';
import { formatCommandForTerminal } from '../../util/shell-quote.js';
import { askHost, hostLine, type HostContext } from './transport.js';

export type HostLiveState = LiveState & { host?: string };

/** One host's live sessions, or one line saying why not. */
async function hostLive(host: HostSpec, ctx: HostContext): Promise<{ states: HostLiveState[]; err: string }> {
  if (host.mirror) return { states: [], err: hostLine(host.name, 'a pulled copy has no live sessions (mirror: true)') };
  const answer = await askHost(host, ['ls', '--json'], ctx);
  if (!answer.ok) return { states: [], err: hostLine(host.name, answer.problem) };
  if (answer.code !== 0) return { states: [], err: hostLine(host.name, `recapwrap ls there failed (exit ${answer.code})`) };
  const parsed = parseRemoteList(answer.stdout, remoteLiveSchema);
  if (!parsed.ok) return { states: [], err: hostLine(host.name, parsed.error) };
  const leftOut = leftOutNote(parsed);
  const note = leftOut ? hostLine(host.name, leftOut) : '';
  return { states: parsed.items.map((s) => ({ ...(s as LiveState), socketPath: null, host: host.name })), err: note };
}

export interface LiveAcross { local: boolean; remote: HostLiveState[]; hosts: HostSpec[]; err: string }

/** The live sessions of the chosen machines (this one's read by the caller when `local`). */
export async function liveAcrossHosts(flags: HostFlags, env: Env, cwd: string): Promise<LiveAcross | { error: string }> {
  const setup = setUpHosts(env, cwd, flags);
  if ('error' in setup) return setup;
  const answers = await Promise.all(setup.choice.hosts.map((h) => hostLive(h, setup.ctx)));
  return { local: setup.choice.local, remote: answers.flatMap((a) => a.states), hosts: setup.choice.hosts, err: warningLines(setup.warnings) + answers.map((a) => a.err).join('') };
}

/** Rows for the `ls` table: a host's session is named `agent@host` (the folder column may be cut). */
export function forTable(states: readonly HostLiveState[]): LiveState[] {
  return states.map((s) => (s.host === undefined ? s : s.agent === null ? { ...s, command: `${s.command}@${s.host}` } : { ...s, agent: `${s.agent}@${s.host}` }));
}

export type NextAcross = { kind: 'local' } | { kind: 'remote'; out: string } | { kind: 'none' };

/** `next --all-hosts`: which session waited longest, here (then `next` as usual) or on a host (how to get there). */
export function pickAcross(localStates: readonly LiveState[], remote: readonly HostLiveState[], hosts: readonly HostSpec[], exceptPane: string | undefined, now: number): NextAcross {
  const localBest = pickNextWaiting(localStates, { exceptPane });
  const remoteBest = pickNextWaiting(remote);
  const best = [localBest, remoteBest].filter((s): s is HostLiveState => s !== undefined).sort(compareByAttention)[0];
  if (!best) return { kind: 'none' };
  if (best === localBest) return { kind: 'local' };
  const host = hosts.find((h) => h.name === best.host) as HostSpec;
  const since = best.attention?.since ?? best.stateSince;
  const what = `host ${best.host} · ${sanitizeLine(best.agent ?? best.command)} · ${sanitizeLine(best.cwd)} · ${waitKindOf(best) ?? best.state} ${formatSince(since, now)}${best.tmuxPane ? ` · tmux pane ${best.tmuxPane}` : ''}`;
  const recap = best.lastRecap?.line ? `\n${sanitizeLine(best.lastRecap.line)}` : '';
  return { kind: 'remote', out: `${what}${recap}\n${getThere(host, best)}\n` };
}

/** The line that gets to a host's live session: attach to its tmux pane there, or log in. */
export function getThere(host: HostSpec, s: Pick<LiveState, 'tmuxPane'>): string {
  return s.tmuxPane ? `get there: ${formatCommandForTerminal(attachPaneArgv(host, s.tmuxPane))}` : `get there: ${formatCommandForTerminal(['ssh', '-t', ...host.ssh])} (it runs outside tmux there)`;
}

/** `board --host NAME | --all-hosts`: the hosts' live sessions, polled every `everyMs`; Enter shows how to get there. */
export function boardRemote(flags: HostFlags, env: Env, cwd: string, everyMs = 10_000): { remote: import('../live/board.js').BoardRemote } | { error: string } {
  const setup = setUpHosts(env, cwd, flags);
  if ('error' in setup) return setup;
  const hosts = setup.choice.hosts;
  return {
    remote: {
      everyMs,
      local: setup.choice.local,
      async poll() {
        const answers = await Promise.all(hosts.map((h) => hostLive(h, setup.ctx)));
        return forTable(answers.flatMap((a) => a.states)) as HostLiveState[];
      },
      card(s: HostLiveState) {
        const host = hosts.find((h) => h.name === s.host) as HostSpec;
        const title = `${sanitizeLine(s.agent ?? s.command)} · ${sanitizeLine(s.cwd)}`;
        return { title, text: `${s.lastRecap?.line ? sanitizeLine(s.lastRecap.line) : 'No recap yet for this session.'}\n\n${getThere(host, s)}` };
      },
    },
  };
}

/** This machine's live sessions (as `ls` reads them). */
export function localLive(env: Env): LiveState[] {
  return readLiveStates(getStateDir(env), { prune: true });
}
