/**
 * The `agent` generator: the wrapped agent's own CLI in one-off mode, so the user's own model and login
 * write the recap with no set-up. It runs the one-shot spec it is given (each transcript adapter describes
 * its agent's flags, which turn off tools and the saved session) and knows no agent itself; stdin is
 * closed; the run is killed on timeout or abort; its temp folder is removed and the spec's cleanup run.
 * Every run starts in recapwrap's own empty folder (oneShotFolder), never in a session's folder.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, realpathSync, rmSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getStateDir } from '../../config/paths.js';
import { ensurePrivateDir } from '../../util/safe-fs.js';
import { buildPrompt, extractRecap, joinPrompts, systemPrompt } from '../prompt.js';
import type { RecapContext } from '../context.js';
import type { GeneratorResult } from '../types.js';
import type { Attempt, ModelRequest } from './http.js';
import type { Env, OneShotCommand, OneShotRun } from '../../types.js';

export interface AgentGeneratorSettings {
  /** The agent's id, for messages. */
  agent: string;
  /** The command that runs it (the app passes what the user wrapped, else the adapter's command; default: `agent`). */
  command?: string;
  /** How the agent answers one prompt (from its transcript adapter, passed in by the app). */
  oneShot: OneShotCommand;
  model?: string;
  timeoutMs: number;
  env: Env;
  home: string;
  /** The cells the recap is shown in (the prompt states the budget). */
  cells?: number;
}

/** The model an agent's recap runs with: the user's choice, else the agent's fast model, else its default. */
export function recapModelFor(oneShot: Pick<OneShotCommand, 'defaultModel'>, chosen: string | undefined): string | undefined {
  return chosen || oneShot.defaultModel;
}

/** The inputs of one run of a spec: the prompts for this context, the model, the run's private paths. */
export function oneShotRun(ctx: RecapContext, settings: Pick<AgentGeneratorSettings, 'oneShot' | 'model' | 'env' | 'home' | 'cells'>, tmp: string, folder: string): OneShotRun {
  // The context is rendered once (the costly part) and serves both forms.
  return oneShotRunFor({ system: systemPrompt(settings.cells), prompt: buildPrompt(ctx, settings.cells) }, settings, tmp, folder);
}

/** The inputs of one run of a spec for any request (a recap, a session summary). */
export function oneShotRunFor(req: ModelRequest, settings: Pick<AgentGeneratorSettings, 'oneShot' | 'model' | 'env' | 'home'>, tmp: string, folder: string): OneShotRun {
  return {
    prompt: req.prompt,
    systemPrompt: req.system,
    combinedPrompt: joinPrompts(req.system, req.prompt),
    model: recapModelFor(settings.oneShot, settings.model),
    answerFile: join(tmp, 'answer.txt'),
    tempDir: tmp,
    folder,
    sessionId: randomUUID(),
    env: settings.env,
    home: settings.home,
  };
}

/** Where one-off model calls run: `<state>/model-calls`. */
export const ONE_SHOT_FOLDER_NAME = 'model-calls';

/**
 * The folder every one-off model call starts in (#40 item 12): recapwrap's own, private (0700, checked
 * like the state folder) and emptied before each run, so no project's settings, hooks, MCP servers or
 * context files reach the call, and no session's folder is trusted or registered on its behalf. One
 * stable folder, not a new one per call: the agents keep a record of each folder they run in (Gemini
 * CLI registers it as a project in ~/.gemini/projects.json with folders of its own, Claude Code makes
 * ~/.claude/projects/<folder>/), so a fresh folder per call would leave one such trail per recap in the
 * agent's own home. Under the state folder, so what lies above it is the user's own (not /tmp, where
 * anyone may leave a CLAUDE.md or GEMINI.md that the agents read from a folder's parents). Throws when
 * the folder cannot be made private.
 */
export function oneShotFolder(env: Env): string {
  const folder = join(getStateDir(env), ONE_SHOT_FOLDER_NAME);
  ensurePrivateDir(folder);
  // Emptied: whatever a run left (none should) is not the next run's project.
  for (const name of readdirSync(folder)) rmSync(join(folder, name), { recursive: true, force: true });
  return realpathSync(folder);
}

function run(command: string, args: string[], cwd: string, env: Env, timeoutMs: number, signal: AbortSignal): Promise<{ code: number | null; stdout: string; stderr: string; error?: string; unsent?: boolean }> {
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let settled = false;
    let reason: string | undefined;
    const child = spawn(command, args, { cwd, env: { ...env, RECAPWRAP_RECAP: '1' } as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32' });
    const kill = (why: string) => {
      reason ??= why;
      try {
        // The whole group: agent launchers start the real process as a child.
        if (child.pid) process.kill(-child.pid, 'SIGTERM');
      } catch {
        child.kill('SIGTERM');
      }
      setTimeout(() => {
        try {
          if (child.pid) process.kill(-child.pid, 'SIGKILL');
        } catch {}
      }, 2000).unref();
    };
    const timer = setTimeout(() => kill(`timed out after ${timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`}`), timeoutMs);
    const onAbort = () => kill('aborted');
    signal.addEventListener('abort', onAbort, { once: true });
    const cap = (s: string, chunk: Buffer) => (s.length > 200_000 ? s : s + chunk.toString('utf8'));
    child.stdout?.on('data', (c: Buffer) => (stdout = cap(stdout, c)));
    child.stderr?.on('data', (c: Buffer) => (stderr = cap(stderr, c)));
    const finish = (code: number | null, error?: string, unsent?: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve({ code, stdout, stderr, error: reason ?? error, ...(unsent ? { unsent } : {}) });
    };
    // The command could not be started (missing, not executable): no model was asked.
    child.on('error', (error: NodeJS.ErrnoException) =>
      finish(null, error.code === 'ENOENT' ? `${command} is not on PATH` : error.message, error.code === 'ENOENT' || error.code === 'EACCES'));
    child.on('close', (code) => finish(code));
  });
}

export async function agentGenerate(ctx: RecapContext, signal: AbortSignal, settings: AgentGeneratorSettings): Promise<GeneratorResult> {
  const model = recapModelFor(settings.oneShot, settings.model) || 'default';
  const attempt = await agentAttempt({ system: systemPrompt(settings.cells), prompt: buildPrompt(ctx, settings.cells) }, signal, settings);
  if (attempt.kind !== 'text') return { ok: false, error: attempt.error, model };
  const text = extractRecap(attempt.text);
  return text ? { ok: true, text, model } : { ok: false, error: 'the answer had no <recap> tag', model };
}

/** One run of the agent's one-off mode: its answer's text, or why there is none (a failed run is not retried). */
export async function agentAttempt(req: ModelRequest, signal: AbortSignal, settings: AgentGeneratorSettings): Promise<Attempt> {
  const spec = settings.oneShot;
  let tmp: string | undefined;
  let oneRun: OneShotRun | undefined;
  try {
    const folder = oneShotFolder(settings.env);
    tmp = await mkdtemp(join(tmpdir(), 'recapwrap-recap-'));
    oneRun = oneShotRunFor(req, settings, tmp, folder);
    const prepared = spec.prepare ? await spec.prepare(oneRun) : {};
    const result = await run(settings.command || settings.agent, spec.args(oneRun), folder, { ...settings.env, ...spec.env, ...prepared }, settings.timeoutMs, signal);
    if (result.error) return { kind: 'failed', error: result.error, ...(result.unsent ? { unsent: true } : {}) };
    if (result.code !== 0) return { kind: 'failed', error: `${settings.agent} exited with ${result.code}: ${result.stderr.trim().split('\n').pop()?.slice(0, 200) ?? ''}` };
    let answer = result.stdout;
    if (spec.answerFrom === 'answer-file') answer = await readFile(oneRun.answerFile, 'utf8').catch(() => '');
    if (spec.readAnswer) answer = spec.readAnswer(answer);
    return { kind: 'text', text: answer };
  } catch (error) {
    return { kind: 'failed', error: (error as Error).message };
  } finally {
    if (oneRun) await spec.cleanup?.(oneRun).catch(() => {});
    if (tmp) await rm(tmp, { recursive: true, force: true }).catch(() => {});
  }
}
