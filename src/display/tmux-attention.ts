/**
 * The tmux side of attention: the pane option @recap_attention (waiting, done, error; unset when
 * nothing waits) and the same on the pane's window, so a `window-status-format` can mark the window.
 * The window's value is the newest of its panes': clearing one pane leaves another pane's mark. Also
 * what the desktop channel needs to know inside tmux (passthrough, the outer terminal's name).
 * All calls are asynchronous and never throw.
 */
import { runTmux, type TmuxTarget } from './tmux.js';
import type { AttentionEvent } from './attention.js';

export const ATTENTION_OPTION = '@recap_attention';

/** Set or clear the pane's attention mark and bring the window's in line. */
export async function setTmuxAttention(target: TmuxTarget, event: AttentionEvent | null): Promise<boolean> {
  if (event) {
    const out = await runTmux(target, ['set-option', '-p', '-t', target.pane, ATTENTION_OPTION, event, ';', 'set-option', '-w', '-t', target.pane, ATTENTION_OPTION, event]);
    return out !== undefined;
  }
  // The window's mark goes too before panes are asked: a pane without its own value shows the window's.
  const unset = await runTmux(target, ['set-option', '-p', '-u', '-t', target.pane, ATTENTION_OPTION, ';', 'set-option', '-w', '-u', '-t', target.pane, ATTENTION_OPTION]);
  if (unset === undefined) return false;
  // Another pane of the window may still want you: the window keeps its mark.
  const others = await runTmux(target, ['list-panes', '-t', target.pane, '-F', `#{${ATTENTION_OPTION}}`]);
  if (others === undefined) return false;
  const still = others.split('\n').map((l) => l.trim()).find((l) => l === 'waiting' || l === 'done' || l === 'error');
  if (!still) return true;
  return (await runTmux(target, ['set-option', '-w', '-t', target.pane, ATTENTION_OPTION, still])) !== undefined;
}

export interface TmuxTerminalInfo {
  /** `allow-passthrough` is on for the pane (DCS passthrough reaches the outer terminal). */
  passthrough: boolean;
  /** The outer terminal's TERM and its XTVERSION answer, as the attached client told tmux. */
  names: string[];
}

/** What the pane's tmux knows about passthrough and the terminal outside it; undefined if tmux fails. */
export async function readTmuxTerminalInfo(target: TmuxTarget): Promise<TmuxTerminalInfo | undefined> {
  const out = await runTmux(target, ['display-message', '-p', '-t', target.pane, '#{allow-passthrough}\t#{client_termname}\t#{client_termtype}']);
  if (out === undefined) return undefined;
  const [passthrough = '', ...names] = out.replace(/\n$/, '').split('\t');
  return { passthrough: passthrough === '1' || passthrough === 'on' || passthrough === 'all', names: names.filter(Boolean) };
}
