/**
 * `recapwrap resume` on a terminal (#43.4): the past sessions in the same arrow-key picker as the popup's
 * (display/picker.ts keys and state, picker-view.ts rows): type to filter, ↑↓ to choose, Enter resumes,
 * Esc leaves. Drawn on the alternate screen, so the shell's screen comes back as it was. Piped, `resume`
 * keeps its numbered list (resume-run.ts).
 */
import { basename } from 'node:path';
import { applyPickerKey, createPickerState, parsePickerKeys, withItems, type PickerItem, type PickerState } from '../../display/picker.js';
import { renderPicker } from '../../display/picker-view.js';
import { recapText } from '../../recap/compose.js';
import { formatSince } from '../../util/age.js';

type PastSession = import('../../app/resume/resume.js').PastSession;

const ALT_SCREEN_ON = '\x1b[?1049h'; // xterm alternate screen, cursor saved
const ALT_SCREEN_OFF = '\x1b[?1049l';
const HIDE_CURSOR = '\x1b[?25l';
const SHOW_CURSOR = '\x1b[?25h';
const CLEAR = '\x1b[H\x1b[2J';
const KEYS = '↑↓ choose · type to filter · Enter resume · Esc quit';

export interface ResumePickerIo {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  now: number;
}

function toItem(s: PastSession, index: number, now: number): PickerItem {
  return {
    id: String(index),
    name: s.name ?? s.title ?? s.firstPrompt ?? s.id,
    agent: s.agent,
    folder: basename(s.cwd) || s.cwd,
    age: formatSince(s.mtime, now),
    headline: s.recap.headline || recapText(s.recap.line),
  };
}

// The sessions whose name, title, first prompt, folder, recap or id hold every word of the query.
export function filterSessions(sessions: readonly PastSession[], query: string): number[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const out: number[] = [];
  sessions.forEach((s, i) => {
    const text = [s.name, s.title, s.firstPrompt, s.cwd, s.recap.line, s.id].filter(Boolean).join(' ').toLowerCase();
    if (words.every((w) => text.includes(w))) out.push(i);
  });
  return out;
}

/** The chosen session (its index in `sessions`), or null when the user left (Esc, Ctrl-C, Ctrl-D, the end of input). */
export function pickPastSession(sessions: readonly PastSession[], io: ResumePickerIo): Promise<number | null> {
  const { stdin, stdout } = io;
  const all = sessions.map((s, i) => toItem(s, i, io.now));
  let state: PickerState = createPickerState(all);
  return new Promise((resolve) => {
    const draw = () => {
      const rows = renderPicker({ state, cols: stdout.columns || 80, rows: stdout.rows || 24, keys: KEYS });
      stdout.write(HIDE_CURSOR + CLEAR + rows.map((row, i) => `\x1b[${i + 1};1H${row}`).join(''));
    };
    const finish = (picked: number | null) => {
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      stdout.off('resize', draw);
      stdin.pause();
      if (stdin.isTTY) stdin.setRawMode(false);
      stdout.write(SHOW_CURSOR + ALT_SCREEN_OFF);
      resolve(picked);
    };
    const onData = (data: string) => {
      for (const key of parsePickerKeys(data)) {
        const next = applyPickerKey(state, key);
        state = next.state;
        const action = next.action;
        if (action.type === 'cancel') return finish(null);
        if (action.type === 'pick') return finish(Number(action.item.id));
        if (action.type === 'search') state = withItems(state, filterSessions(sessions, action.query).map((i) => all[i] as PickerItem));
      }
      draw();
    };
    const onEnd = () => finish(null);
    if (stdin.isTTY) stdin.setRawMode(true);
    stdin.setEncoding('utf8');
    stdin.on('data', onData);
    stdin.on('end', onEnd);
    stdout.on('resize', draw);
    stdin.resume();
    stdout.write(ALT_SCREEN_ON);
    draw();
  });
}
