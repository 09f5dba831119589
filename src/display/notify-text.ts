/**
 * What a notification says and the escape sequences that carry it to a desktop: the agent, the
 * project folder's name, and the recap's headline or the state word, sanitized like every recap text.
 * OSC 9 (iTerm2's) and OSC 777 (rxvt's `notify`) only where the terminal is known to show them, chosen
 * from the names the terminal goes by; inside tmux wrapped in DCS passthrough. Pure: no I/O.
 */
import { sanitizeLine } from '../util/sanitize.js';
import type { AttentionEvent } from './attention.js';

export const BEL = '\x07';
const OSC = '\x1b]';
const DCS_TMUX = '\x1bPtmux;'; // tmux passthrough: DCS tmux; <sequence, each ESC doubled> ST
const ST = '\x1b\\';
/** Cap on the text of one notification (desktop notifications cut long text anyway). */
export const NOTIFY_TEXT_MAX_CHARS = 160;

export interface NotificationText {
  /** `claude · billing-api`. */
  title: string;
  /** `waiting for you: Shall I run the migration now?`. */
  body: string;
}

const EVENT_WORDS: Record<AttentionEvent, string> = {
  waiting: 'waiting for you',
  done: 'finished its turn',
  error: 'stopped on an error',
};

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max - 1);
  const space = head.lastIndexOf(' ');
  return `${space > max / 2 ? head.slice(0, space) : head}…`;
}

/** The recap line's first part (its headline): without the `recap:` label and the `Next:` tail. */
export function recapHeadline(line: string | undefined): string | undefined {
  if (!line) return undefined;
  const text = sanitizeLine(line).replace(/^(✦\s*)?recap:\s*/i, '');
  const head = text.split(/\s+Next:\s/)[0]?.trim();
  return head || undefined;
}

export function composeNotification(input: { agent: string; folder: string; event: AttentionEvent; recapLine?: string }): NotificationText {
  const title = cut(sanitizeLine(`${input.agent} · ${input.folder}`), 60);
  const headline = recapHeadline(input.recapLine);
  const body = cut(sanitizeLine(headline ? `${EVENT_WORDS[input.event]}: ${headline}` : EVENT_WORDS[input.event]), NOTIFY_TEXT_MAX_CHARS);
  return { title, body };
}

export type OscKind = 'osc9' | 'osc777';

/** Terminals that show OSC 777 notify (title and body), and those that show OSC 9 (one text). */
const OSC777_TERMINALS = ['ghostty', 'wezterm', 'foot', 'rxvt', 'contour'];
const OSC9_TERMINALS = ['iterm', 'warp'];

/**
 * Which sequence the terminal shows, from the names it goes by (TERM_PROGRAM, LC_TERMINAL, TERM, and
 * inside tmux the outer terminal's name and XTVERSION as tmux heard them); undefined when unknown (an
 * unknown OSC is ignored by most terminals, but some print it: better nothing).
 */
export function chooseOscKind(names: readonly (string | undefined)[]): OscKind | undefined {
  const all = names.filter(Boolean).join(' ').toLowerCase();
  if (OSC9_TERMINALS.some((t) => all.includes(t))) return 'osc9';
  if (OSC777_TERMINALS.some((t) => all.includes(t))) return 'osc777';
  return undefined;
}

/** The names this process's terminal goes by, from the environment (a tmux pane hides most of them). */
export function terminalNamesFromEnv(env: Readonly<Record<string, string | undefined>>): string[] {
  const names = [env.TERM_PROGRAM, env.LC_TERMINAL, env.TERM];
  if (env.GHOSTTY_RESOURCES_DIR) names.push('ghostty');
  if (env.WEZTERM_PANE || env.WEZTERM_EXECUTABLE) names.push('wezterm');
  if (env.ITERM_SESSION_ID) names.push('iterm');
  return names.filter((n): n is string => Boolean(n) && n !== 'tmux');
}

// Text inside an OSC string: no controls (sanitizeLine), and no `;` where the sequence splits on it.
function oscField(text: string, splitsOnSemicolon: boolean): string {
  const clean = sanitizeLine(text);
  return splitsOnSemicolon ? clean.replace(/;/g, ',') : clean;
}

/** The desktop-notification sequence (BEL-terminated, as both iTerm2 and rxvt document it). */
export function buildOscNotification(kind: OscKind, text: NotificationText): string {
  if (kind === 'osc9') return `${OSC}9;${oscField(`${text.title}: ${text.body}`, false)}${BEL}`;
  return `${OSC}777;notify;${oscField(text.title, true)};${oscField(text.body, true)}${BEL}`;
}

/** Wrap a sequence for tmux's passthrough (needs `allow-passthrough on`): DCS tmux; … ST, every ESC doubled. */
export function wrapForTmuxPassthrough(sequence: string): string {
  return `${DCS_TMUX}${sequence.replace(/\x1b/g, '\x1b\x1b')}${ST}`;
}
