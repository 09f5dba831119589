/**
 * Tracks the terminal modes a child program turns on from its output (DEC private modes, keypad mode,
 * cursor style, kitty keyboard push/pop, xterm modifyOtherKeys), across chunk boundaries and combined
 * parameters, and builds the sequence that resets whatever it left on. Pure: feed it strings (one char per byte is fine, the
 * sequences are ASCII); it ignores everything that is not one of these mode changes.
 */

const ESC = '\x1b';
const CSI = '\x1b[';

/** DEC private modes we follow, with their power-on value (true = on by default). */
export const TRACKED_PRIVATE_MODES = {
  1: false, // DECCKM: application cursor keys (arrows send ESC O A instead of ESC [ A)
  66: false, // DECNKM: application keypad (the mode form of ESC =)
  1004: false, // focus reporting
  1049: false, // alternate screen with cursor save
  47: false, // alternate screen (legacy)
  1047: false, // alternate screen, cleared on leave
  9: false, // mouse: X10 (press only)
  1000: false, // mouse: button press/release
  1002: false, // mouse: button motion
  1003: false, // mouse: any motion
  1006: false, // mouse: SGR encoding
  1005: false, // mouse: UTF-8 encoding
  1015: false, // mouse: urxvt encoding
  1016: false, // mouse: SGR encoding in pixels
  2004: false, // bracketed paste
  25: true, // cursor visible (DECTCEM)
  2026: false, // synchronized output
  1007: false, // alternate scroll (wheel -> arrows on the alt screen)
  2031: false, // colour-scheme change reports (CSI ? 997 ; n n)
  2048: false, // in-band window resize reports
} as const satisfies Record<number, boolean>;

export type TrackedMode = keyof typeof TRACKED_PRIVATE_MODES;

export type ModeChange =
  | { type: 'private'; mode: TrackedMode; on: boolean }
  | { type: 'keypad'; application: boolean }
  | { type: 'cursor-style'; style: number }
  | { type: 'kitty-keyboard'; depth: number }
  | { type: 'modify-other-keys'; level: number }
  | { type: 'reset' };

/** Longest escape sequence we keep across a chunk boundary; anything longer is not a mode change. */
const MAX_PENDING_SEQUENCE = 64;

/** DECKPAM: application keypad (keypad keys send ESC O x). */
const KEYPAD_APPLICATION = '=';
/** DECKPNM: numeric keypad, the power-on state. */
const KEYPAD_NUMERIC = '>';
/** DECSCUSR with 0: the terminal's own (user-configured) cursor style. */
const CURSOR_STYLE_DEFAULT = `${CSI}0 q`;

const ALT_SCREEN_MODES = [1049, 1047, 47] as const;
// Reset order: stop synchronized output first so the rest is shown, mouse and keyboard protocols next,
// leave the alternate screen, then show the cursor.
const RESET_ORDER: readonly TrackedMode[] = [2026, 1003, 1002, 1000, 9, 1006, 1005, 1015, 1016, 1007, 2004, 2031, 2048, 1, 66, 1004];

interface ScreenKeyboard {
  depth: number; // kitty keyboard stack entries pushed by the child
  flagsSet: boolean; // CSI = flags u with a non-zero value while the stack was empty
}

export class ModeTracker {
  private modes = new Map<TrackedMode, boolean>();
  private saved = new Map<TrackedMode, boolean>(); // XTSAVE slots
  private main: ScreenKeyboard = { depth: 0, flagsSet: false };
  private alt: ScreenKeyboard = { depth: 0, flagsSet: false };
  private modifyOtherKeys = 0;
  private keypadApplication = false;
  private cursorStyle = 0;
  private pending = '';

  /** Current value of a tracked private mode. */
  isOn(mode: TrackedMode): boolean {
    return this.modes.get(mode) ?? TRACKED_PRIVATE_MODES[mode];
  }

  /** True while the child has the alternate screen active. */
  get altScreen(): boolean {
    return ALT_SCREEN_MODES.some((m) => this.isOn(m));
  }

  /** Kitty keyboard stack depth pushed by the child on the current screen. */
  get kittyKeyboardDepth(): number {
    return this.screen().depth;
  }

  /** True while a partial sequence from the last chunk waits for the next one (feed even without ESC). */
  get hasPending(): boolean {
    return this.pending !== '';
  }

  get modifyOtherKeysLevel(): number {
    return this.modifyOtherKeys;
  }

  /** True while the child has the keypad in application mode (ESC =). */
  get keypadApplicationMode(): boolean {
    return this.keypadApplication;
  }

  /** Feed one output chunk; returns the mode changes it contained, in order. */
  feed(chunk: string): ModeChange[] {
    if (this.pending === '' && chunk.indexOf(ESC) === -1) return [];
    const text = this.pending + chunk;
    this.pending = '';
    const changes: ModeChange[] = [];
    let i = text.indexOf(ESC);
    while (i !== -1) {
      const end = this.parseAt(text, i, changes);
      if (end === -1) {
        // Incomplete sequence at the end of the chunk: keep it for the next one (bounded).
        if (text.length - i <= MAX_PENDING_SEQUENCE) this.pending = text.slice(i);
        break;
      }
      i = text.indexOf(ESC, end);
    }
    return changes;
  }

  /** The bytes that turn off everything the child left on (empty when nothing is on). */
  buildResetSequence(options: { includeFocus?: boolean } = {}): string {
    let out = '';
    const includeFocus = options.includeFocus ?? true;
    for (const mode of RESET_ORDER) {
      if (mode === 1004 && !includeFocus) continue;
      if (this.isOn(mode)) out += `${CSI}?${mode}l`;
    }
    if (this.keypadApplication) out += ESC + KEYPAD_NUMERIC;
    if (this.modifyOtherKeys !== 0) out += `${CSI}>4m`; // reset modifyOtherKeys to its initial value
    const popOrClear = (kb: ScreenKeyboard): string =>
      (kb.depth > 0 ? `${CSI}<${kb.depth}u` : '') + (kb.flagsSet ? `${CSI}=0;1u` : '');
    if (this.altScreen) {
      out += popOrClear(this.alt);
      for (const mode of ALT_SCREEN_MODES) if (this.isOn(mode)) out += `${CSI}?${mode}l`;
    }
    out += popOrClear(this.main);
    if (this.cursorStyle !== 0) out += CURSOR_STYLE_DEFAULT;
    if (!this.isOn(25)) out += `${CSI}?25h`;
    return out;
  }

  private screen(): ScreenKeyboard {
    return this.altScreen ? this.alt : this.main;
  }

  // Parse the sequence starting at text[i] (an ESC); returns the index after it, or -1 if incomplete.
  private parseAt(text: string, i: number, changes: ModeChange[]): number {
    const next = text[i + 1];
    if (next === undefined) return -1;
    if (next === 'c') {
      // RIS: full reset, every mode back to its power-on value.
      this.modes.clear();
      this.saved.clear();
      this.main = { depth: 0, flagsSet: false };
      this.alt = { depth: 0, flagsSet: false };
      this.modifyOtherKeys = 0;
      this.keypadApplication = false;
      this.cursorStyle = 0;
      changes.push({ type: 'reset' });
      return i + 2;
    }
    if (next === KEYPAD_APPLICATION || next === KEYPAD_NUMERIC) {
      this.keypadApplication = next === KEYPAD_APPLICATION;
      changes.push({ type: 'keypad', application: this.keypadApplication });
      return i + 2;
    }
    if (next !== '[') return i + 1;
    let j = i + 2;
    const paramStart = j;
    while (j < text.length && text.charCodeAt(j) >= 0x30 && text.charCodeAt(j) <= 0x3f) j++;
    const interStart = j;
    while (j < text.length && text.charCodeAt(j) >= 0x20 && text.charCodeAt(j) <= 0x2f) j++;
    if (j >= text.length) return -1;
    const final = text.charCodeAt(j);
    if (final < 0x40 || final > 0x7e) return j; // malformed (e.g. an ESC inside): resume scanning there
    if (interStart === j) this.applyCsi(text.slice(paramStart, interStart), text[j] as string, changes);
    else if (j - interStart === 1) this.applyCsiWithIntermediate(text.slice(paramStart, interStart), text[interStart] as string, text[j] as string, changes);
    return j + 1;
  }

  // DECSCUSR (CSI Ps SP q) sets the cursor style; DECSTR (CSI ! p), a soft reset, puts cursor keys,
  // keypad and cursor visibility back to their power-on values.
  private applyCsiWithIntermediate(params: string, intermediate: string, final: string, changes: ModeChange[]): void {
    if (intermediate === ' ' && final === 'q' && /^\d*$/.test(params)) {
      this.cursorStyle = params === '' ? 0 : Number(params);
      changes.push({ type: 'cursor-style', style: this.cursorStyle });
      return;
    }
    if (intermediate === '!' && final === 'p' && params === '') {
      for (const mode of [1, 66, 25] as const) {
        const on = TRACKED_PRIVATE_MODES[mode];
        if (this.isOn(mode) === on) continue;
        this.modes.set(mode, on);
        changes.push({ type: 'private', mode, on });
      }
      if (this.keypadApplication) {
        this.keypadApplication = false;
        changes.push({ type: 'keypad', application: false });
      }
    }
  }

  private applyCsi(params: string, final: string, changes: ModeChange[]): void {
    const prefix = params[0];
    const body = prefix === '?' || prefix === '>' || prefix === '<' || prefix === '=' ? params.slice(1) : params;
    const nums = body === '' ? [] : body.split(';').map((p) => (p === '' ? undefined : Number(p)));
    if (prefix === '?' && (final === 'h' || final === 'l' || final === 's' || final === 'r')) {
      for (const n of nums) {
        if (n === undefined || !(n in TRACKED_PRIVATE_MODES)) continue;
        const mode = n as TrackedMode;
        if (final === 's') {
          this.saved.set(mode, this.isOn(mode));
          continue;
        }
        const on = final === 'h' ? true : final === 'l' ? false : this.saved.get(mode);
        if (on === undefined) continue;
        this.modes.set(mode, on);
        changes.push({ type: 'private', mode, on });
      }
      return;
    }
    if (final === 'u' && (prefix === '>' || prefix === '<' || prefix === '=')) {
      const kb = this.screen();
      if (prefix === '>') kb.depth++;
      else if (prefix === '<') kb.depth = Math.max(0, kb.depth - Math.max(1, nums[0] ?? 1));
      else if (kb.depth === 0) {
        const flags = nums[0] ?? 0;
        const how = nums[1] ?? 1; // 1 set, 2 or, 3 and-not
        if (how === 1) kb.flagsSet = flags !== 0;
        else if (how === 2 && flags !== 0) kb.flagsSet = true;
      }
      changes.push({ type: 'kitty-keyboard', depth: kb.depth });
      return;
    }
    if (final === 'm' && prefix === '>') {
      // XTMODKEYS: CSI > 4 ; level m sets modifyOtherKeys; CSI > 4 m or CSI > m resets it.
      if (nums.length === 0 || nums[0] === 4) {
        this.modifyOtherKeys = nums[0] === 4 ? (nums[1] ?? 0) : 0;
        changes.push({ type: 'modify-other-keys', level: this.modifyOtherKeys });
      }
    }
  }
}
