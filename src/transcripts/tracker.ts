/**
 * Follows the live session of one wrapped agent: asks the adapter which file is ours (pinned → the
 * agent's own live record → discovery), tails it through the adapter's parser, switches when the agent
 * does (/new, /clear), and emits the session whenever its stamp changes. Discovered (non-exact) files
 * are claimed in the state folder so two wrappers in one directory never take the same file.
 * Never throws into the caller: failures become debug-log lines.
 */
import { existsSync, watch, type FSWatcher } from 'node:fs';
import { link, mkdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { createHash, randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import type { Disposable } from '../types.js';
import type { DebugLog } from '../util/debug-log.js';
import { getProcessTree, isProcessAlive } from './pids.js';
import { LIVE_HISTORY_LIMITS } from './history.js';
import { FileTailer } from './tailer.js';
import type { AgentContext, LaunchPlan, Session, SessionCandidate, TranscriptAdapter, TranscriptParser } from './types.js';

/**
 * Safety-net look for our file while none is known; folder watches usually find it first. It backs
 * off (doubling, up to RELOCATE_FOUND_POLL_MS) while no watch fires: each look wakes the process, scans
 * the process tree and the folders, and an idle agent that never writes a session cost ~0.5 ms/s (#29).
 */
export const RELOCATE_POLL_MS = 2000;
/**
 * Once the file is known, the folder watches see /new and /clear switches; this slower poll only
 * covers a missed event (it scans the process table, so it is kept rare for idle CPU).
 */
export const RELOCATE_FOUND_POLL_MS = 15_000;
const RELOCATE_DEBOUNCE_MS = 50;
/**
 * While lines keep coming (an agent writing a flood of entries), snapshots go out at most this often: each
 * one walks the kept history and wakes the recap engine, and a file of a million entries arrives in a
 * few hundred chunks. A quiet file's first batch goes out at once.
 */
export const EMIT_MIN_INTERVAL_MS = 50;
/** A discovered file must have been seen this long before we claim it (its exact owner claims it first). */
export const CLAIM_GRACE_MS = 500;
/**
 * Longer wait before switching from the file we follow to a discovered one (a /new): a wrapper in the
 * same folder that has no file yet claims its own new file first instead of losing it to our guess.
 */
export const SWITCH_GRACE_MS = 2500;

// Last write time of a file, 0 when it cannot be read.
async function mtimeMs(file: string): Promise<number> {
  return stat(file).then((st) => st.mtimeMs, () => 0);
}

// When a file was created (ctime where the file system keeps no birth time); Infinity when unreadable.
async function birthMs(file: string): Promise<number> {
  return stat(file).then((st) => st.birthtimeMs || st.ctimeMs, () => Number.POSITIVE_INFINITY);
}

export interface TrackerOptions extends AgentContext {
  adapter: TranscriptAdapter;
  plan: LaunchPlan;
  childPid: number;
  startedAt: number;
  /** Folder for claim files (the state folder). */
  stateDir: string;
  log: DebugLog;
  pollMs?: number;
}

export class SessionTracker {
  private readonly listeners = new Set<(session: Session) => void>();
  private watchers: FSWatcher[] = [];
  /** Watches on the nearest existing parent of a session folder not created yet (the agent makes it later). */
  private parentWatchers: FSWatcher[] = [];
  private poll: NodeJS.Timeout | undefined;
  /** Polls since a watch last fired (the no-file poll backs off by this). */
  private quietPolls = 0;
  private debounce: NodeJS.Timeout | undefined;
  private relocating: Promise<void> | undefined;
  private relocateAgain = false;
  private file: string | undefined;
  private claimed: string | undefined;
  private readonly firstSeen = new Map<string, number>();
  private graceTimer: NodeJS.Timeout | undefined;
  private tailer: FileTailer | undefined;
  private parser: TranscriptParser | undefined;
  private emitScheduled = false;
  private lastEmitAt = 0;
  private lastStamp: string | undefined;
  private latest: Session | undefined;
  private stopped = false;

  constructor(private readonly options: TrackerOptions) {}

  onSession(listener: (session: Session) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** The newest snapshot of our session, if one was found. */
  get current(): Session | undefined {
    return this.latest;
  }

  get currentFile(): string | undefined {
    return this.file;
  }

  start(): void {
    this.watchDirs();
    this.schedulePoll();
    this.scheduleRelocate();
  }

  private schedulePoll(): void {
    if (this.stopped) return;
    const fast = this.options.pollMs ?? RELOCATE_POLL_MS;
    const slow = Math.max(fast, RELOCATE_FOUND_POLL_MS);
    this.poll = setTimeout(() => {
      this.quietPolls++;
      if (this.watchers.length === 0) this.watchDirs();
      this.scheduleRelocate();
      this.schedulePoll();
    }, this.file ? slow : Math.min(slow, fast * 2 ** this.quietPolls));
    this.poll.unref();
  }

  // A watch fired: something changed in the agent's folders, so the safety-net poll looks often again.
  private onWatchEvent(): void {
    if (this.quietPolls > 0 && !this.file && this.poll) {
      this.quietPolls = 0;
      clearTimeout(this.poll);
      this.schedulePoll();
    }
    this.scheduleRelocate();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.poll) clearTimeout(this.poll);
    if (this.debounce) clearTimeout(this.debounce);
    if (this.graceTimer) clearTimeout(this.graceTimer);
    for (const w of [...this.watchers, ...this.parentWatchers]) w.close();
    this.watchers = [];
    this.parentWatchers = [];
    while (this.relocating) await this.relocating;
    await this.tailer?.stop();
    await this.releaseClaim();
  }

  /** Find the file again now and read what is new (tests; the control socket's "recap now"). */
  async refresh(): Promise<void> {
    await this.relocate();
    await this.tailer?.sync();
    this.emit();
  }

  private watchDirs(): void {
    for (const w of this.parentWatchers) w.close();
    this.parentWatchers = [];
    for (const dir of this.options.adapter.sessionDirs(this.options)) {
      try {
        const w = watch(dir, { persistent: false }, () => this.onWatchEvent());
        w.on('error', () => {
          w.close();
          this.watchers = this.watchers.filter((x) => x !== w);
        });
        this.watchers.push(w);
      } catch {
        // Folder not created yet: watch the nearest folder that exists, and watch again once it changes.
        this.watchParentOf(dir);
      }
    }
  }

  // Until `dir` exists, a change in its nearest existing parent (the agent creating its folders) makes
  // the tracker watch its folders again at once, instead of at the next poll.
  private watchParentOf(dir: string): void {
    let parent = dirname(dir);
    while (parent !== dirname(parent) && !existsSync(parent)) parent = dirname(parent);
    try {
      const w = watch(parent, { persistent: false }, () => {
        if (this.stopped) return;
        for (const x of this.watchers) x.close();
        this.watchers = [];
        this.watchDirs();
        this.onWatchEvent();
      });
      w.on('error', () => w.close());
      this.parentWatchers.push(w);
    } catch {
      // Not watchable either: the poll covers it.
    }
  }

  private scheduleRelocate(): void {
    if (this.stopped || this.debounce) return;
    this.debounce = setTimeout(() => {
      this.debounce = undefined;
      void this.relocate();
    }, RELOCATE_DEBOUNCE_MS);
  }

  private async relocate(): Promise<void> {
    if (this.relocating) {
      this.relocateAgain = true;
      return this.relocating;
    }
    this.relocating = (async () => {
      do {
        this.relocateAgain = false;
        try {
          await this.relocateOnce();
        } catch (error) {
          this.options.log('tracker', 'relocate failed', { error: (error as Error).message });
        }
      } while (this.relocateAgain && !this.stopped);
    })().finally(() => {
      this.relocating = undefined;
    });
    return this.relocating;
  }

  private async relocateOnce(): Promise<void> {
    if (this.stopped) return;
    const o = this.options;
    const pids = await getProcessTree(o.childPid);
    const candidates = await o.adapter.locateLive({ cwd: o.cwd, env: o.env, home: o.home, plan: o.plan, startedAt: o.startedAt, pids });
    const chosen = await this.choose(candidates);
    if (chosen && chosen !== this.file) await this.follow(chosen);
  }

  /*
   * The first candidate that is ours already, exact, or that we can claim. Exact files are claimed too
   * (best effort), so that another wrapper in the same folder never takes them as a discovered /new file.
   * A discovered file is only claimed once seen for CLAIM_GRACE_MS (SWITCH_GRACE_MS when it would replace
   * the file we follow), giving its exact owner, or a wrapper still without a file, time to claim it.
   */
  private async choose(candidates: readonly SessionCandidate[]): Promise<string | undefined> {
    const now = Date.now();
    const grace = this.file ? SWITCH_GRACE_MS : CLAIM_GRACE_MS;
    for (const c of candidates) {
      if (c.file === this.file) return c.file;
      if (c.confidence === 'exact') {
        await this.tryClaim(c.file);
        return c.file;
      }
      const seen = this.firstSeen.get(c.file) ?? now;
      this.firstSeen.set(c.file, seen);
      if (now - seen < grace) {
        // A better-ranked file is too new to judge: keep what we have and look again after the grace.
        this.recheckAfter(grace - (now - seen));
        return candidates.some((x) => x.file === this.file) ? this.file : undefined;
      }
      // Our agent wrote to our file after this one was born: the new file is another agent's, not our
      // /new. (Birth time, not when we noticed it: a busy neighbour may notice late.)
      if (this.file && (await mtimeMs(this.file)) > Math.min(seen, await birthMs(c.file))) continue;
      if (await this.tryClaim(c.file)) return c.file;
    }
    return undefined;
  }

  private recheckAfter(delayMs: number): void {
    if (this.graceTimer || this.stopped) return;
    this.graceTimer = setTimeout(() => {
      this.graceTimer = undefined;
      this.scheduleRelocate();
    }, delayMs + RELOCATE_DEBOUNCE_MS);
    this.graceTimer.unref();
  }

  private claimPath(file: string): string {
    return join(this.options.stateDir, 'claims', createHash('sha1').update(file).digest('hex').slice(0, 20));
  }

  /*
   * Atomically claim a file for this tracker: the claim is written whole to a private name, then linked
   * to its place (link fails if a claim exists, and a reader never sees a half-written one). A claim whose
   * owner died is taken over. Another tracker's claim in this same process counts as taken.
   */
  private async tryClaim(file: string): Promise<boolean> {
    const path = this.claimPath(file);
    if (this.claimed === path) return true;
    const dir = join(this.options.stateDir, 'claims');
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const staged = join(dir, `.${process.pid}-${randomBytes(6).toString('hex')}`);
    await writeFile(staged, JSON.stringify({ pid: process.pid, file }), { mode: 0o600 });
    try {
      for (let attempt = 0; attempt < 2; attempt++) {
        try {
          await link(staged, path);
          await this.releaseClaim();
          this.claimed = path;
          return true;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
          let owner: number | undefined;
          try {
            owner = (JSON.parse(await readFile(path, 'utf8')) as { pid?: number }).pid;
          } catch {
            owner = undefined; // Corrupt (claims are never half-written): treat as stale.
          }
          if (owner !== undefined && isProcessAlive(owner)) return false;
          await unlink(path).catch(() => undefined);
        }
      }
      return false;
    } finally {
      await unlink(staged).catch(() => undefined);
    }
  }

  private async releaseClaim(): Promise<void> {
    const path = this.claimed;
    this.claimed = undefined;
    if (path) await unlink(path).catch(() => undefined);
  }

  private async follow(file: string): Promise<void> {
    const o = this.options;
    o.log('tracker', 'following session file', { agent: o.adapter.id, switched: this.file !== undefined });
    const old = this.tailer;
    this.tailer = undefined;
    await old?.stop();
    if (this.claimed && this.claimed !== this.claimPath(file)) await this.releaseClaim();
    this.file = file;
    this.parser = o.adapter.createParser({ limits: LIVE_HISTORY_LIMITS });
    this.lastStamp = undefined;
    const tailer = new FileTailer(file, {
      onLines: (lines) => {
        for (const line of lines) this.parser?.push(line);
        this.scheduleEmit();
      },
      onReset: (reason) => {
        o.log('tracker', 'session file reset', { reason });
        this.parser = o.adapter.createParser({ limits: LIVE_HISTORY_LIMITS });
      },
      onError: (error) => o.log('tracker', 'read failed', { error: error.message }),
    });
    this.tailer = tailer;
    tailer.start();
  }

  // Coalesce a burst of lines into one snapshot, and a flood into one every EMIT_MIN_INTERVAL_MS.
  private scheduleEmit(): void {
    if (this.emitScheduled) return;
    this.emitScheduled = true;
    const wait = this.lastEmitAt + EMIT_MIN_INTERVAL_MS - Date.now();
    const run = () => {
      this.emitScheduled = false;
      this.lastEmitAt = Date.now();
      this.emit();
    };
    if (wait <= 0) setImmediate(run);
    else setTimeout(run, wait).unref();
  }

  private emit(): void {
    if (!this.parser || !this.file || this.stopped) return;
    const snap = this.parser.snapshot();
    if (snap.stamp === this.lastStamp) return;
    this.lastStamp = snap.stamp;
    this.latest = { ...snap, file: this.file };
    for (const listener of this.listeners) {
      try {
        listener(this.latest);
      } catch (error) {
        this.options.log('tracker', 'listener failed', { error: (error as Error).message });
      }
    }
  }
}
