/**
 * Attention, wired into one live wrapper (part of the live parts): the session's activity (from the
 * activity report), focus reports and input (from the wrap run) feed the pure rule machine (display/attention.ts); its marks go to
 * the state file and the tmux options, its notifications to the channels of the `notify` option (a bell
 * or a desktop sequence written at a boundary of the agent's output, a user command). Everything is
 * asynchronous or tiny and logged on failure: it never delays or breaks the agent.
 */
import { basename } from 'node:path';
import type { Options } from '../../config/options-table.js';
import { resolveNotifyChannels, type NotifyChannel } from '../../config/notify-option.js';
import { createAttentionMachine, type AttentionActivity, type AttentionEvent, type AttentionMachine, type AttentionOutput } from '../../display/attention.js';
import { BoundaryWriter } from '../../display/boundary-writer.js';
import { runNotifyCommand } from '../../display/notify-command.js';
import { BEL, buildOscNotification, chooseOscKind, composeNotification, terminalNamesFromEnv, wrapForTmuxPassthrough } from '../../display/notify-text.js';
import { readTmuxTerminalInfo, setTmuxAttention } from '../../display/tmux-attention.js';
import type { Session, TranscriptEvent } from '../../transcripts/types.js';
import type { ActivityState, Disposable, Env } from '../../types.js';
import { debugLog, type DebugLog } from '../../util/debug-log.js';
import type { FocusReports } from './focus-evidence-wiring.js';

/** The parts of a WrapRun attention uses. */
export interface AttentionWrap {
  onFocus(listener: (focused: boolean) => void): Disposable;
  onInput(listener: (data: string) => void): Disposable;
  onOutputBytes(listener: (chunk: Buffer) => void): Disposable;
  writeToTerminal(data: string): void;
}

export interface AttentionMark {
  event: AttentionEvent;
  since: string;
}

export interface AttentionWiringInput {
  wrap: AttentionWrap;
  options: Pick<Options, 'notify' | 'notifyMinSeconds' | 'idleSeconds'>;
  env: Env;
  cwd: string;
  /** Agent id (or the command) for the text and RECAPWRAP_AGENT. */
  agent: string;
  startedAt: number;
  /** Whether focus reports can be trusted (focus-evidence-wiring.ts); without it, the idle rule (a focus-out aside). */
  focusReports?: FocusReports;
  /** The session's latest recap line (the state file's), for the text and RECAPWRAP_RECAP. */
  recapLine(): string | undefined;
  /** The marker changed (the state file records it for ls, board and next). */
  onMark?(mark: AttentionMark | null): void;
  log?: DebugLog;
  now?: () => number;
}

export interface AttentionWiring {
  /** The session's activity changed (or its transcript did). */
  report(activity: ActivityState, session: Session): void;
  readonly machine: AttentionMachine;
  dispose(): Promise<void>;
}

// Events that say where a turn stands, as in transcripts/activity.ts (kept in step by hand: small).
const TURN_KINDS = new Set<TranscriptEvent['kind']>(['turn-end', 'aborted', 'error', 'user', 'tool-call', 'tool-result', 'thinking', 'assistant']);

/** The attention view of an activity: errored when the turn ended on an error; the turn it is about and when. */
export function attentionActivityOf(activity: ActivityState, session: Session): { state: AttentionActivity; turn?: string; at?: number } {
  let last: TranscriptEvent | undefined;
  for (let i = session.events.length - 1; i >= 0; i--) {
    const e = session.events[i] as TranscriptEvent;
    if (TURN_KINDS.has(e.kind)) {
      last = e;
      break;
    }
  }
  const turn = last ? `${session.file}#${last.sourceId}` : session.file;
  const state: AttentionActivity = activity === 'idle' && last?.kind === 'error' ? 'errored' : activity;
  return { state, turn, at: last?.ts };
}

export function startAttention(input: AttentionWiringInput): AttentionWiring {
  const log = input.log ?? debugLog;
  const now = input.now ?? Date.now;
  const inTmux = Boolean(input.env.TMUX && input.env.TMUX_PANE);
  const channels = resolveNotifyChannels(input.options.notify, inTmux);
  const has = (type: NotifyChannel['type']) => channels.some((c) => c.type === type);
  const command = channels.find((c): c is Extract<NotifyChannel, { type: 'command' }> => c.type === 'command')?.command;
  const tmuxTarget = inTmux ? { pane: input.env.TMUX_PANE as string, env: input.env } : undefined;
  const machine = createAttentionMachine(
    { minIntervalMs: input.options.notifyMinSeconds * 1000, idleMs: input.options.idleSeconds * 1000, startedAt: input.startedAt },
    { now },
  );
  const disposables: Disposable[] = [];
  let timer: NodeJS.Timeout | undefined;
  let lastState: AttentionActivity = 'idle';
  let tmuxQueue: Promise<unknown> = Promise.resolve();
  let tmuxMarked = false;
  let disposed = false;

  // Bell and desktop sequences go into the agent's output stream: only at its boundaries.
  const writer = has('bell') || has('osc') ? new BoundaryWriter((data) => input.wrap.writeToTerminal(data)) : undefined;
  if (writer) disposables.push(input.wrap.onOutputBytes((chunk) => writer.observe(chunk)));

  function send(event: Parameters<AttentionMachine['handle']>[0]): void {
    if (disposed) return;
    let outputs: AttentionOutput[];
    try {
      outputs = machine.handle(event);
    } catch (error) {
      log('attention', 'rule failed', { error: (error as Error).message });
      return;
    }
    for (const output of outputs) act(output);
  }

  function act(output: AttentionOutput): void {
    switch (output.type) {
      case 'notify':
        log('attention', 'notify', { event: output.event, channels: channels.map((c) => c.type).join(',') || 'none' });
        notify(output.event);
        break;
      case 'mark':
        log('attention', 'mark', { event: output.event ?? 'none' });
        input.onMark?.(output.event ? { event: output.event, since: new Date(output.since).toISOString() } : null);
        if (tmuxTarget && has('tmux') && (output.event || tmuxMarked)) {
          tmuxMarked = output.event !== null;
          const target = tmuxTarget;
          const event = output.event;
          tmuxQueue = tmuxQueue.then(() => setTmuxAttention(target, event)).then((ok) => ok || log('attention', 'tmux option failed'));
        }
        break;
      case 'suppressed':
        log('attention', 'not notified', { event: output.event, reason: output.reason });
        break;
      case 'timer':
        if (timer) clearTimeout(timer);
        timer = setTimeout(() => {
          timer = undefined;
          send({ type: 'tick' });
        }, Math.max(0, output.at - now()));
        timer.unref();
        break;
      default:
        output satisfies never;
    }
  }

  function notify(event: AttentionEvent): void {
    const recapLine = input.recapLine();
    const text = composeNotification({ agent: input.agent, folder: basename(input.cwd) || input.cwd, event, recapLine });
    if (has('bell')) writer?.writeAtBoundary(BEL);
    if (has('osc')) void sendOsc(text);
    if (command) {
      runNotifyCommand(
        command,
        { event, agent: input.agent, cwd: input.cwd, state: lastState, recap: recapLine ?? '', pane: input.env.TMUX_PANE ?? '' },
        { env: input.env, cwd: input.cwd, onDone: (outcome) => log('attention', 'notify command', { ...outcome }) },
      );
    }
  }

  async function sendOsc(text: ReturnType<typeof composeNotification>): Promise<void> {
    const names = terminalNamesFromEnv(input.env);
    let wrap = (seq: string) => seq;
    if (tmuxTarget) {
      const info = await readTmuxTerminalInfo(tmuxTarget);
      if (!info?.passthrough) {
        log('attention', 'osc skipped: tmux allow-passthrough is off (set -g allow-passthrough on)');
        return;
      }
      names.push(...info.names);
      wrap = wrapForTmuxPassthrough;
    }
    const kind = chooseOscKind(names);
    if (!kind) {
      log('attention', 'osc skipped: terminal not known to show OSC 9/777', { names: names.join(' ') });
      return;
    }
    if (!disposed) writer?.writeAtBoundary(wrap(buildOscNotification(kind, text)));
  }

  if (input.focusReports?.hold) send({ type: 'focus-reports', hold: true });
  disposables.push(
    ...(input.focusReports ? [input.focusReports.onChange((hold) => send({ type: 'focus-reports', hold }))] : []),
    input.wrap.onFocus((focused) => send({ type: 'focus', focused })),
    input.wrap.onInput(() => send({ type: 'input' })),
  );
  log('attention', 'attached', { channels: channels.map((c) => c.type).join(',') || 'none', minSeconds: input.options.notifyMinSeconds });

  return {
    machine,
    report(activity, session) {
      const view = attentionActivityOf(activity, session);
      lastState = view.state;
      send({ type: 'activity', ...view });
    },
    async dispose() {
      if (disposed) return;
      send({ type: 'activity', state: 'exited' });
      disposed = true;
      if (timer) clearTimeout(timer);
      for (const d of disposables) d.dispose();
      await tmuxQueue.catch(() => undefined);
    },
  };
}
