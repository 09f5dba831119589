/**
 * Splits terminal focus reports (ESC[I focus-in, ESC[O focus-out) out of stdin chunks, across chunk
 * boundaries, without touching any other input: lone ESC, arrows, Alt-[ and bracketed paste pass as-is.
 * Pure: works on strings (one char per byte when the caller decodes as latin1); it schedules nothing,
 * the caller calls flush() PENDING_FOCUS_FLUSH_MS after a chunk that left `pending` set.
 */

const ESC = '\x1b';
/** CSI I: focus in (xterm focus reporting, mode ?1004). */
export const FOCUS_IN_REPORT = '\x1b[I';
/** CSI O: focus out. */
export const FOCUS_OUT_REPORT = '\x1b[O';
/** Bracketed paste start (mode ?2004): everything up to the end marker is pasted text. */
export const PASTE_START = '\x1b[200~';
/** Bracketed paste end. */
export const PASTE_END = '\x1b[201~';

/**
 * How long a trailing `ESC` or `ESC [` may wait for the rest of a focus report before it is sent as typed.
 * A terminal writes a report in one piece, but between it and us the bytes may be cut (ssh, a Windows
 * console, a busy box), and the rest comes a packet later: OpenSSH 9.5+ sends keystrokes on a 20 ms clock
 * (ObscureKeystrokeTiming), so a cut report arrives one or two ticks apart. 50 ms covers that with room,
 * and is what a lone Esc press then costs: neovim waits the same (ttimeoutlen 50), vim 100 ms and tmux
 * up to 500 ms (escape-time) for the same reason. Only a lone `ESC` at the end of a read waits.
 */
export const PENDING_FOCUS_FLUSH_MS = 50;
/**
 * Inside tmux the pane's input comes from tmux, which writes each key and each focus report whole (it
 * already did the waiting, escape-time); a short hold covers a read that ends mid-write.
 */
export const PENDING_FOCUS_FLUSH_IN_TMUX_MS = 5;

export type InputPiece = { type: 'data'; data: string } | { type: 'focus'; focused: boolean };

export interface FocusReportFilter {
  /** Feed one stdin chunk; returns the pieces in order (adjacent data merged). */
  push(chunk: string): InputPiece[];
  /** Release a held partial sequence as ordinary input (call after PENDING_FOCUS_FLUSH_MS of silence). */
  flush(): InputPiece[];
  /** True while a trailing `ESC` / `ESC [` is held back waiting for the next chunk. */
  readonly pending: boolean;
}

// Create a stateful splitter for one input stream.
export function createFocusReportFilter(): FocusReportFilter {
  let held = ''; // '' | ESC | ESC[ : possible start of a focus report, not yet forwarded
  let pasteStartMatched = 0; // chars of PASTE_START already seen (and forwarded) outside a paste
  let inPaste = false;
  let pasteEndMatched = 0; // chars of PASTE_END already seen inside a paste

  function push(chunk: string): InputPiece[] {
    const pieces: InputPiece[] = [];
    // A lone ESC held from the last read that turns out not to start a report was a key of its own:
    // it goes on as its own piece (its own write), not glued to the next key as if Alt were held.
    if (held === ESC && chunk !== '' && chunk[0] !== '[') {
      pieces.push({ type: 'data', data: ESC });
      held = '';
      pasteStartMatched = 1;
    }
    let data = '';
    let segStart = 0; // start of the pending run of plain data in chunk
    const closeSegment = (end: number): void => {
      if (end > segStart) data += chunk.slice(segStart, end);
    };
    const emitData = (): void => {
      if (data) pieces.push({ type: 'data', data });
      data = '';
    };
    // Step the bracketed-paste start matcher over a char that is being forwarded.
    const stepPasteStart = (ch: string): void => {
      if (ch === PASTE_START[pasteStartMatched]) {
        pasteStartMatched++;
        if (pasteStartMatched === PASTE_START.length) {
          inPaste = true;
          pasteStartMatched = 0;
          pasteEndMatched = 0;
        }
      } else {
        pasteStartMatched = 0;
      }
    };

    for (let i = 0; i < chunk.length; i++) {
      const ch = chunk[i] as string;
      if (inPaste) {
        // Pasted text is forwarded untouched; only watch for the end marker.
        if (ch === PASTE_END[pasteEndMatched]) {
          pasteEndMatched++;
          if (pasteEndMatched === PASTE_END.length) {
            inPaste = false;
            pasteEndMatched = 0;
          }
        } else {
          pasteEndMatched = ch === ESC ? 1 : 0;
        }
        continue;
      }
      if (held === '') {
        if (ch === ESC) {
          // Every ESC outside a paste may start a focus report: hold it until the next char decides.
          closeSegment(i);
          segStart = i + 1;
          held = ESC;
          pasteStartMatched = 0;
          continue;
        }
        stepPasteStart(ch);
        continue;
      }
      if (held === ESC) {
        if (ch === '[') {
          held = ESC + '[';
          segStart = i + 1;
          continue;
        }
        // Not a focus report: the ESC was a key of its own (or a prefix like Alt-x, SS3).
        data += held;
        held = '';
        pasteStartMatched = 1;
        segStart = i;
        i--; // look at ch again as ordinary input
        continue;
      }
      // held === ESC[
      if (ch === 'I' || ch === 'O') {
        emitData();
        pieces.push({ type: 'focus', focused: ch === 'I' });
        held = '';
        pasteStartMatched = 0;
        segStart = i + 1;
        continue;
      }
      // ESC [ followed by anything else (arrow, Alt-[, paste marker): forward as typed.
      data += held;
      held = '';
      pasteStartMatched = 2;
      segStart = i;
      i--;
    }
    if (held === '') closeSegment(chunk.length);
    emitData();
    return pieces;
  }

  function flush(): InputPiece[] {
    if (!held) return [];
    const data = held;
    pasteStartMatched = held.length;
    held = '';
    return [{ type: 'data', data }];
  }

  return {
    push,
    flush,
    get pending() {
      return held !== '';
    },
  };
}
