/**
 * The `notify` option: which channels tell you a session needs you. A list of `auto`, `bell`, `osc`,
 * `tmux`, `command:<cmd>` or `none`, written `bell,osc` (string: flag, env, config file) or
 * `["bell", "command:notify-send …"]` (config file). Everything after `command:` is the command, commas
 * included, so in a string it comes last. Pure: validation and expansion of `auto` only.
 */

export type NotifyChannel = { type: 'bell' } | { type: 'osc' } | { type: 'tmux' } | { type: 'command'; command: string };

const WORDS = ['auto', 'bell', 'osc', 'tmux', 'none'] as const;
type NotifyWord = (typeof WORDS)[number];
const COMMAND_PREFIX = 'command:';

export interface NotifyList {
  words: NotifyWord[];
  command?: string;
}

type Parsed = { ok: true; list: NotifyList; value: string } | { ok: false; message: string };

function describe(value: unknown): string {
  return `\`${typeof value === 'string' ? value : JSON.stringify(value)}\``;
}

/**
 * Validate a raw `notify` value (string or array of strings) for the option named `what` (for the error
 * message, e.g. "the `--notify` option"); returns the canonical string form (`bell,osc,command:…`).
 */
export function parseNotifyOption(raw: unknown, what = 'the `notify` option'): Parsed {
  const expected = `Expected ${what} to be a list of auto, bell, osc, tmux, command:<cmd> or none (e.g. \`bell,tmux\`), got ${describe(raw)}`;
  let items: string[];
  if (typeof raw === 'string') {
    const at = raw.indexOf(COMMAND_PREFIX);
    items = (at < 0 ? raw : raw.slice(0, at)).split(',').map((w) => w.trim());
    if (at >= 0) {
      // `bell,command:…`: the text before the command ends with a comma (or is empty).
      if (items.pop() !== '') return { ok: false, message: expected };
      items.push(raw.slice(at).trim());
    }
  } else if (Array.isArray(raw) && raw.every((w) => typeof w === 'string')) {
    items = (raw as string[]).map((w) => w.trim());
  } else {
    return { ok: false, message: expected };
  }
  const words: NotifyWord[] = [];
  let command: string | undefined;
  for (const item of items) {
    if (item.startsWith(COMMAND_PREFIX)) {
      const cmd = item.slice(COMMAND_PREFIX.length).trim();
      if (!cmd || command !== undefined) return { ok: false, message: `${expected}: ${cmd ? 'one command at most' : 'the command is empty'}` };
      command = cmd;
      continue;
    }
    if (!(WORDS as readonly string[]).includes(item)) return { ok: false, message: expected };
    if (!words.includes(item as NotifyWord)) words.push(item as NotifyWord);
  }
  if (words.length === 0 && command === undefined) return { ok: false, message: expected };
  if (words.includes('none') && (words.length > 1 || command !== undefined)) return { ok: false, message: `${expected}: none goes alone` };
  const list: NotifyList = command === undefined ? { words } : { words, command };
  return { ok: true, list, value: [...words, ...(command === undefined ? [] : [COMMAND_PREFIX + command])].join(',') };
}

/** The channels a valid `notify` value means here: `auto` is bell + tmux inside tmux, bell + osc outside. */
export function resolveNotifyChannels(value: string, inTmux: boolean): NotifyChannel[] {
  const parsed = parseNotifyOption(value);
  if (!parsed.ok) return [];
  const out: NotifyChannel[] = [];
  const add = (type: 'bell' | 'osc' | 'tmux') => {
    if (!out.some((c) => c.type === type)) out.push({ type });
  };
  for (const word of parsed.list.words) {
    if (word === 'auto') {
      add('bell');
      add(inTmux ? 'tmux' : 'osc');
    } else if (word !== 'none') {
      add(word);
    }
  }
  if (parsed.list.command !== undefined) out.push({ type: 'command', command: parsed.list.command });
  return out;
}
