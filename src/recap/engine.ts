/**
 * The recap engine: session → context → generator → Recap. `auto` asks the wrapped agent's own CLI when
 * it has a one-off mode and model recaps are allowed, else the heuristic; any failure falls back to the
 * heuristic (logged, never shown as an error) unless the caller asked for one generator strictly.
 * Results are cached by (session file, stamp, generator) in memory and, for model recaps when a cache
 * folder is given, on disk (one small JSON file per session holding its latest recap), so a state is never
 * sent to a model twice.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ActivityState } from '../types.js';
import { sanitizeLine } from '../util/sanitize.js';
import { truncateToWidth } from '../util/text-width.js';
import { fitRecapText } from './compose.js';
import { findMissingSubstance } from './substance.js';
import { buildContext, type RecapContext } from './context.js';
import { heuristicRecap, workingLine, type RecapDraft } from './heuristic.js';
import { shortenPaths } from './paths.js';
import { freshOwnRecap, recapFromOwn } from './own-recap.js';
import { DEFAULT_RECAP_CELLS } from './prompt.js';
import type { Env } from '../types.js';
import { agentGenerate } from './providers/agent.js';
import type { OneShotCommand } from '../types.js';
import { anthropicGenerate, openaiGenerate } from './providers/http.js';
import {
  RECAP_HEADLINE_MAX_CHARS, RECAP_LINE_MAX_CHARS,
  type GeneratorName, type GeneratorResult, type GeneratorType, type Recap, type RecapParts, type RecapSession,
} from './types.js';

export interface EngineSettings {
  generator: GeneratorName;
  /** Model-written recaps allowed (false: heuristic only, nothing leaves the machine). */
  llm: boolean;
  /** Model for the agent generator ('' = the agent's default). */
  model: string;
  timeoutMs: number;
  openai: { baseUrl: string; model: string; apiKey?: string };
  anthropic: { baseUrl: string; model: string; apiKey?: string };
  /**
   * The wrapped agent, the command that runs it and its one-off mode (from its transcript adapter) for the
   * agent generator; without `oneShot` the agent has no one-off mode recapwrap knows.
   */
  agent?: { id: string; command?: string; oneShot?: OneShotCommand };
  env: Env;
  home: string;
  /** Folder for the per-session recap cache (none: memory only). */
  cacheDir?: string;
  log?(message: string, data?: Record<string, unknown>): void;
  /** The clock (epoch ms): a session file with no new line for long is not running (default Date.now). */
  now?(): number;
  /** agentRecaps: use: the agent's own recap, when fresh, is the recap (no generator is asked). */
  ownRecaps?: boolean;
}

export interface RecapRequest {
  activity?: ActivityState;
  signal?: AbortSignal;
  /** Fail (return the error) instead of falling back when an explicitly chosen generator fails. */
  strict?: boolean;
  /** The cells the recap will be shown in: a model is told the budget (default: the full line). */
  cells?: number;
}

export interface RecapOutcome {
  recap?: Recap;
  /** Set when the chosen generator failed (the recap, if any, is the heuristic fallback). */
  error?: string;
  cached?: boolean;
}

/** The generator `auto` and the settings resolve to for this agent. */
export function resolveGenerator(settings: Pick<EngineSettings, 'generator' | 'llm' | 'agent'>): GeneratorType {
  if (settings.generator === 'auto') return settings.llm && settings.agent?.oneShot ? 'agent' : 'heuristic';
  if (!settings.llm) return 'heuristic';
  return settings.generator;
}

const LABEL = 'recap: ';

// A model's answer as the recap line: its text fitted like any recap (the next step kept), with the label.
function modelLine(text: string): string {
  return LABEL + fitRecapText(text, RECAP_LINE_MAX_CHARS - LABEL.length);
}

function assemble(draft: RecapDraft, session: RecapSession, generator: Recap['generator'], line?: string): Recap {
  return {
    line: line ?? truncateToWidth(sanitizeLine(draft.line), RECAP_LINE_MAX_CHARS),
    headline: truncateToWidth(sanitizeLine(draft.headline), RECAP_HEADLINE_MAX_CHARS),
    done: draft.done.map(sanitizeLine),
    next: draft.next.map(sanitizeLine),
    artifacts: draft.artifacts.map((a) => ({ kind: a.kind, label: sanitizeLine(a.label), locator: sanitizeLine(a.locator) })),
    status: draft.status,
    language: draft.language,
    generator,
    session: { agent: session.agent, id: session.id, file: session.file },
    stamp: session.stamp,
    createdAt: new Date().toISOString(),
    // The parts compose the heuristic's own line for any width; a model's line is composed as text.
    ...(line === undefined && draft.parts ? { parts: sanitizeParts(draft.parts) } : {}),
  };
}

function sanitizeParts(p: RecapParts): RecapParts {
  return { ...(p.label ? { label: sanitizeLine(p.label) } : {}), state: sanitizeLine(p.state), ...(p.subject ? { subject: sanitizeLine(p.subject) } : {}), outcome: p.outcome.map(sanitizeLine), next: sanitizeLine(p.next), ...(p.owed ? { owed: true } : {}) };
}

function cacheKey(file: string): string {
  return createHash('sha1').update(file).digest('hex').slice(0, 20);
}

export class RecapEngine {
  private readonly memory = new Map<string, Recap>();

  constructor(private readonly settings: EngineSettings) {}

  private clock(): { now: number } {
    return { now: this.settings.now?.() ?? Date.now() };
  }

  get generator(): GeneratorType {
    return resolveGenerator(this.settings);
  }

  /** The heuristic recap, synchronously (instant; also the fallback). */
  heuristic(session: RecapSession, activity?: ActivityState): Recap {
    return assemble(heuristicRecap(buildContext(session, activity, this.clock())), session, { type: 'heuristic' });
  }

  /** A short "working: …" line for a pane you return to while the agent is mid-turn. */
  working(session: RecapSession): string {
    return workingLine(buildContext(session, 'working'));
  }

  /** A recap cached for exactly this state, from memory or disk. */
  cachedRecap(session: Pick<RecapSession, 'file' | 'stamp'>, type: GeneratorType = this.generator): Recap | undefined {
    const key = `${session.file}\0${session.stamp}\0${type}`;
    const hit = this.memory.get(key);
    if (hit) return hit;
    // Heuristic recaps are instant and change with recapwrap's version: only model recaps are kept on disk.
    if (type === 'heuristic') return undefined;
    const disk = this.readDisk(session.file);
    if (disk && disk.stamp === session.stamp && disk.generator.type === type) {
      this.memory.set(key, disk);
      return disk;
    }
    return undefined;
  }

  async recap(session: RecapSession, request: RecapRequest = {}): Promise<RecapOutcome> {
    const own = this.settings.ownRecaps ? freshOwnRecap(session.events) : undefined;
    if (own) return { recap: recapFromOwn(this.heuristic(session, request.activity), own, session.agent) };
    const type = this.generator;
    const cached = this.cachedRecap(session, type);
    if (cached) return { recap: cached, cached: true };
    const ctx = buildContext(session, request.activity, this.clock());
    const draft = heuristicRecap(ctx);
    if (type === 'heuristic' || ctx.ending === 'empty') {
      const recap = assemble(draft, session, { type: 'heuristic' });
      this.remember(session, type, recap);
      return { recap };
    }
    const started = Date.now();
    let result = await this.callGenerator(type, ctx, request.signal ?? new AbortController().signal, request.cells ?? DEFAULT_RECAP_CELLS);
    // Model recaps cost time and money: each one's duration goes to the debug log (never its text).
    this.settings.log?.('model recap', { generator: type, model: result.model ?? 'default', ms: Date.now() - started, ok: result.ok && !!result.text });
    // An answer that says nothing ("…", only labels, the prompt echoed) is a failure, and is not cached.
    const empty = result.ok && result.text ? findMissingSubstance(result.text) : undefined;
    if (empty) result = { ...result, ok: false, error: empty };
    if (result.ok && result.text) {
      const recap = assemble(draft, session, { type, model: result.model ?? 'default' } as Recap['generator'], modelLine(shortenPaths(result.text, session.cwd)));
      this.remember(session, type, recap);
      return { recap };
    }
    const error = `${type} generator: ${result.error ?? 'no recap'}`;
    this.settings.log?.('generator failed; using the heuristic', { generator: type, error });
    if (request.strict) return { error };
    // Not cached under the model generator: the next state change tries the model again.
    return { recap: assemble(draft, session, { type: 'heuristic' }), error };
  }

  private callGenerator(type: Exclude<GeneratorType, 'heuristic'>, ctx: RecapContext, signal: AbortSignal, cells: number): Promise<GeneratorResult> {
    const s = this.settings;
    const guard = (p: Promise<GeneratorResult>) => p.catch((error: Error) => ({ ok: false, error: error.message }));
    switch (type) {
      case 'openai':
        return guard(openaiGenerate(ctx, signal, { ...s.openai, model: s.model || s.openai.model, timeoutMs: s.timeoutMs, cells }));
      case 'anthropic':
        if (!s.anthropic.apiKey) return Promise.resolve({ ok: false, error: 'no API key: set ANTHROPIC_API_KEY (or RECAPWRAP_ANTHROPIC_API_KEY)' });
        return guard(anthropicGenerate(ctx, signal, { ...s.anthropic, model: s.model || s.anthropic.model, timeoutMs: s.timeoutMs, cells }));
      case 'agent':
        if (!s.agent?.oneShot) return Promise.resolve({ ok: false, error: 'the agent generator needs a known agent (--agent or a session file of one)' });
        return guard(agentGenerate(ctx, signal, { agent: s.agent.id, command: s.agent.command, oneShot: s.agent.oneShot, model: s.model, timeoutMs: s.timeoutMs, env: s.env, home: s.home, cells }));
    }
  }

  private remember(session: RecapSession, type: GeneratorType, recap: Recap): void {
    this.memory.set(`${session.file}\0${session.stamp}\0${type}`, recap);
    if (this.memory.size > 200) this.memory.delete(this.memory.keys().next().value as string);
    if (type !== 'heuristic') this.writeDisk(session.file, recap);
  }

  private readDisk(file: string): Recap | undefined {
    if (!this.settings.cacheDir) return undefined;
    try {
      const recap = JSON.parse(readFileSync(join(this.settings.cacheDir, `${cacheKey(file)}.json`), 'utf8')) as Recap;
      // A recap cached before answers were checked for substance (#28) is not served either.
      return recap?.session?.file === file && typeof recap.line === 'string' && typeof recap.stamp === 'string' && !findMissingSubstance(recap.line) ? recap : undefined;
    } catch {
      return undefined;
    }
  }

  private writeDisk(file: string, recap: Recap): void {
    const dir = this.settings.cacheDir;
    if (!dir) return;
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const target = join(dir, `${cacheKey(file)}.json`);
      const tmp = `${target}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(recap), { mode: 0o600 });
      renameSync(tmp, target);
    } catch (error) {
      this.settings.log?.('recap cache write failed', { error: (error as Error).message });
    }
  }
}
