/**
 * One opening of the reference picker inside the wrapper: takes the user's keys (the agent gets none),
 * draws the picker over the bottom of the pane from the screen copy while the agent's output is held,
 * searches the session index as you type, and on Enter takes the picker off (the rows repainted exactly
 * as the agent left them), lets the held output go, then pastes the chosen session's reference block
 * into the agent as one bracketed paste, never Enter. Esc, a resize or the agent's exit close it.
 * Loaded when the pick key is pressed; the index is opened here, never on the wrapper's start-up path.
 * Inside tmux the same session runs in a tmux popup (app/picker/popup-picker.ts), its terminal the popup's.
 */
import { basename } from 'node:path';
import { applyPickerKey, createPickerState, parsePickerKeys, withItems, type PickerItem, type PickerState } from '../../display/picker.js';
import { PICKER_MIN_ROWS, pickerHeight, renderPicker } from '../../display/picker-view.js';
import type { CoverResult } from '../../display/screen.js';
import type { Disposable } from '../../types.js';
import { formatSince } from '../../util/age.js';
import type { DebugLog } from '../../util/debug-log.js';
import { splitParentDepth } from '../memory/parent-ref.js';
import { formatReferenceBlock, pasteBytes, type ReferenceSource } from './reference-block.js';

/** Sessions listed (newest first, or best matches first). */
export const PICKER_LIMIT = 50;

/** An index row as the picker needs it (SessionRow of app/memory/api.ts has these fields). */
export interface PickerRow {
  id: string;
  name: string;
  agent: string;
  cwd: string;
  project?: string;
  headline: string;
  updatedAt: string;
}

/** The part of the session memory the picker uses (SessionMemory of app/memory/api.ts). */
export interface PickerMemory {
  list(filter?: { limit?: number }): PickerRow[];
  search(query: string, filter?: { limit?: number }): PickerRow[];
  card(id: string): (ReferenceSource & PickerRow) | undefined;
  /** The one session a reference names (`@@name`, an id), when it names exactly one. */
  resolve?(ref: string): PickerRow | undefined;
  /** The cards of the sessions one was forked from, parent first, at most `depth` (`@@name~N`). */
  lineage?(id: string, depth: number): ReferenceSource[];
  refresh(): Promise<unknown>;
  close(): void;
}

/** Where the picker is drawn: the overlay screen (its copy of the agent's screen), or a tmux popup's own terminal. */
export interface PickerScreen {
  cover(rows: string[], beforeDraw?: () => void, widths?: number[]): Promise<CoverResult>;
  uncover(): void;
}

/** The parts of the wrap run the picker uses. */
export interface PickerRun {
  readonly cols: number;
  readonly rows: number;
  readonly childWantsBracketedPaste: boolean;
  captureInput(handler: (data: string) => void): Disposable;
  holdOutput(): { release(): void };
  writeToChild(data: string): void;
  onResize(listener: (size: { cols: number; rows: number }) => void): Disposable;
  onExit(listener: (exit: unknown) => void): Disposable;
}

export interface PickerSessionDeps {
  run: PickerRun;
  screen: PickerScreen;
  openMemory(): Promise<PickerMemory | { error: string }>;
  /**
   * Inside tmux: how many cells tmux's lines top..top+count-1 hold (display/tmux.ts readRowWidths), so
   * taking the picker off leaves capture-pane byte-identical.
   */
  readWidths?(top: number, count: number): Promise<number[] | undefined>;
  /**
   * Where the chosen block goes instead of run.writeToChild(pasteBytes(…)): the tmux popup hands it to
   * the wrapper, which pastes it as the agent's modes allow (app/wrap/picker-popup.ts).
   */
  paste?(block: string): void;
  /** Keys typed between the pick key and this module's load, in order. */
  initialInput?: readonly string[];
  now(): number;
  log: DebugLog;
}

export type PickerOutcome = 'pasted' | 'cancelled' | 'not-drawn' | 'resized' | 'exited';

export interface PickerSession {
  /** Resolves once the picker is off the screen and the agent's output flows again. */
  readonly closed: Promise<PickerOutcome>;
}

function toItem(row: PickerRow, now: number): PickerItem {
  return {
    id: row.id,
    name: row.name,
    agent: row.agent,
    folder: row.project || basename(row.cwd) || row.cwd,
    age: formatSince(row.updatedAt, now),
    headline: row.headline,
  };
}

export function openPicker(deps: PickerSessionDeps): PickerSession {
  const { run, screen, log } = deps;
  let state: PickerState = createPickerState();
  let status: string | undefined = 'loading…';
  let memory: PickerMemory | undefined;
  let rows = new Map<string, PickerRow>();
  /** Parents asked for by the query (`@@name~N`), added to the pasted block. */
  let depth = 0;
  let hold: { release(): void } | undefined;
  let height = pickerHeight(run.rows);
  let widths: { height: number; rows: number[] | undefined } | undefined;
  let closing = false;
  let chain: Promise<unknown> = Promise.resolve();
  let resolveClosed: (outcome: PickerOutcome) => void = () => {};
  const closed = new Promise<PickerOutcome>((resolve) => (resolveClosed = resolve));
  const disposables: Disposable[] = [
    run.captureInput((data) => handleInput(data)),
    run.onResize(() => close('resized')),
    run.onExit(() => close('exited', true)),
  ];

  function setRows(list: PickerRow[]): void {
    rows = new Map(list.map((r) => [r.id, r]));
    state = withItems(state, list.map((r) => toItem(r, deps.now())));
  }

  function search(query: string): void {
    if (!memory) return;
    try {
      // `@@name` or `@@name~1` (with its parent's summary): that session alone when it names one.
      const { ref, depth: asked } = splitParentDepth(query);
      const named = ref.startsWith('@@') || asked > 0 ? memory.resolve?.(ref) : undefined;
      depth = named ? asked : 0;
      if (named) setRows([named]);
      else setRows(query.trim() ? memory.search(query, { limit: PICKER_LIMIT }) : memory.list({ limit: PICKER_LIMIT }));
      status = undefined;
    } catch (error) {
      status = 'search failed';
      log('picker', 'search failed', { error: (error as Error).message });
    }
  }

  // Draw the current state (draws run one after another; none after the picker closed).
  function draw(): void {
    chain = chain.then(async () => {
      if (closing) return;
      if (height === 0) return close('not-drawn');
      // Asked once, before the first draw (the rows still hold the agent's text).
      if (deps.readWidths && hold === undefined && widths?.height !== height) {
        widths = { height, rows: await deps.readWidths(run.rows - height, height).catch(() => undefined) };
        log('picker', 'row widths', { widths: widths.rows?.join(',') ?? null });
        if (closing) return;
      }
      const result = await screen.cover(
        renderPicker({ state, cols: run.cols, rows: height, status }),
        () => {
          hold ??= run.holdOutput();
        },
        widths?.rows,
      );
      if (result.drawn || closing) return;
      // Only the bottom rows the agent drew are known (older shell output above): fewer rows, if enough.
      if (hold === undefined && result.knownRows !== undefined && result.knownRows >= PICKER_MIN_ROWS && result.knownRows < height) {
        height = result.knownRows;
        return draw();
      }
      log('picker', 'not drawn', { knownRows: result.knownRows ?? null });
      if (hold === undefined) close('not-drawn');
    });
  }

  function handleInput(data: string): void {
    if (closing) return;
    for (const key of parsePickerKeys(data)) {
      const next = applyPickerKey(state, key);
      state = next.state;
      const action = next.action;
      if (action.type === 'search') search(action.query);
      else if (action.type === 'cancel') return close('cancelled');
      else if (action.type === 'pick') return pick(action.item);
    }
    draw();
  }

  function pick(item: PickerItem): void {
    let source: ReferenceSource | undefined;
    try {
      source = memory?.card(item.id);
      if (source && depth > 0 && memory?.lineage) source = { ...source, parents: memory.lineage(item.id, depth) };
    } catch (error) {
      log('picker', 'card failed', { error: (error as Error).message });
    }
    const row = rows.get(item.id);
    const block = formatReferenceBlock(source ?? { ...(row ?? { id: item.id, name: item.name, agent: item.agent, cwd: item.folder, headline: item.headline, updatedAt: '' }), transcript: '' });
    close('pasted', false, () => (deps.paste ? deps.paste(block) : run.writeToChild(pasteBytes(block, run.childWantsBracketedPaste))));
  }

  // Off the screen first (after any draw in flight), then the agent's output flows, then the paste.
  function close(outcome: PickerOutcome, now = false, after?: () => void): void {
    if (closing) return;
    closing = true;
    for (const d of disposables) d.dispose();
    const finish = () => {
      screen.uncover();
      hold?.release();
      hold = undefined;
      try {
        memory?.close();
      } catch {
        // The index closes on its own at exit.
      }
      memory = undefined;
      try {
        after?.();
      } finally {
        log('picker', 'closed', { outcome });
        resolveClosed(outcome);
      }
    };
    // At the agent's exit the wrapper restores the terminal right after its listeners: no waiting.
    if (now) finish();
    else chain = chain.then(finish, finish);
  }

  log('picker', 'open', { rows: height });
  draw();
  for (const data of deps.initialInput ?? []) handleInput(data);
  void deps.openMemory().then(
    (opened) => {
      if ('error' in opened) {
        status = `index unavailable: ${opened.error}`;
        log('picker', 'index unavailable', { error: opened.error });
        return draw();
      }
      if (closing) return opened.close();
      memory = opened;
      search(state.query);
      draw();
      // The index may lag sessions written since its last update: refresh, then search again.
      opened.refresh().then(
        () => {
          if (memory !== opened || closing) return;
          search(state.query);
          draw();
        },
        (error: unknown) => log('picker', 'index refresh failed; showing what is indexed', { error: (error as Error).message }),
      );
    },
    (error: unknown) => {
      status = 'index unavailable';
      log('picker', 'index failed to open', { error: (error as Error).message });
      draw();
    },
  );
  return { closed };
}
