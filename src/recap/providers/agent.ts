/**
 * The `agent` generator: the wrapped agent's own CLI in one-off mode, so the user's own model and login
 * write the recap with no set-up. Each agent's flags (from the verified facts in shared/agents) turn off
 * tools and the saved session; stdin is closed; the run is killed on timeout or abort; temp files are
 * removed (Gemini CLI writes a session file even in print mode: we pin its id and delete it).
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCombinedPrompt, buildPrompt, extractRecap, systemPrompt } from '../prompt.js';
import type { RecapContext } from '../context.js';
import type { GeneratorResult } from '../types.js';

import type { Env } from '../../types.js';
export type { Env };

export interface AgentGeneratorSettings {
  /** Which agent (pi, qwen, claude, codex, gemini). */
  agent: string;
  /** The command that runs it (what the user wrapped; default: the agent id on PATH). */
  command?: string;
  model?: string;
  timeoutMs: number;
  env: Env;
  home: string;
  /** Where the agent's session lives (Gemini's one-off run is made there so no new project is registered). */
  cwd?: string;
  /** The cells the recap is shown in (the prompt states the budget). */
  cells?: number;
}

/**
 * The model each agent's one-off recap uses when the user chose none: the agent's own fast, small model
 * where its CLI names one (checked against each CLI's model list: Claude Code's `haiku` alias, Codex's
 * "fast and affordable" GPT-6-Luna, Gemini CLI's `flash-lite` alias). pi and Qwen Code have no such
 * name across providers: they keep the user's default model (pi with thinking off).
 */
export const AGENT_RECAP_MODELS: Readonly<Record<string, string | undefined>> = {
  claude: 'haiku',
  codex: 'gpt-6-luna',
  gemini: 'flash-lite',
  pi: undefined,
  qwen: undefined,
};

/** The model an agent's recap runs with: the user's choice, else the agent's fast model, else its default. */
export function recapModelFor(agent: string, chosen: string | undefined): string | undefined {
  return chosen || AGENT_RECAP_MODELS[agent];
}

/** How one agent runs a one-off completion. */
interface OneOff {
  args: string[];
  /** Run in a fresh empty folder (no project context files are read) — all but Gemini. */
  isolatedCwd: boolean;
  /** A file the answer is written to instead of stdout (codex -o). */
  outputFile?: string;
  /** Parse stdout into the answer text. */
  parse?(stdout: string): string;
  /** Remove what the run left behind. */
  cleanup?(): Promise<void>;
}

// The list that left Qwen's request with no tools in the verified run (shared/agents).
const QWEN_EXCLUDED_TOOLS = 'read_file,get_goal,update_goal,run_shell_command,write_file,edit,notebook_edit';

function geminiHome(env: Env, home: string): string {
  return join(env.GEMINI_CLI_HOME || home, '.gemini');
}

async function removeGeminiSession(env: Env, home: string, id: string): Promise<void> {
  const tmp = join(geminiHome(env, home), 'tmp');
  const short = id.slice(0, 8);
  let projects: string[] = [];
  try {
    projects = await readdir(tmp);
  } catch {
    return;
  }
  await Promise.all(
    projects.map(async (p) => {
      const chats = join(tmp, p, 'chats');
      let names: string[] = [];
      try {
        names = await readdir(chats);
      } catch {
        return;
      }
      await Promise.all(names.filter((n) => n.startsWith('session-') && (n.endsWith(`-${short}.jsonl`) || n.endsWith(`-${short}.json`))).map((n) => rm(join(chats, n), { force: true })));
    }),
  );
}

/** The exact one-off command line for an agent (exported for tests and `doctor`). */
export function oneOffCommand(ctx: RecapContext, settings: Pick<AgentGeneratorSettings, 'agent' | 'model' | 'env' | 'home' | 'cells'>, tmp: string): OneOff | undefined {
  const model = recapModelFor(settings.agent, settings.model);
  const prompt = buildPrompt(ctx, settings.cells);
  const system = systemPrompt(settings.cells);
  switch (settings.agent) {
    case 'pi':
      return {
        args: ['-p', '--no-session', '--no-tools', '--no-extensions', '--no-skills', '--no-prompt-templates', '--no-context-files', '--thinking', 'off', '--system-prompt', system, ...(model ? ['--model', model] : []), prompt],
        isolatedCwd: true,
      };
    case 'qwen':
      // The prompt must come before the array-valued --exclude-tools.
      return {
        args: [prompt, '--bare', '--chat-recording=false', '--max-tool-calls', '0', ...(model ? ['--model', model] : []), '--system-prompt', system, '--exclude-tools', QWEN_EXCLUDED_TOOLS],
        isolatedCwd: true,
      };
    case 'claude':
      return {
        args: ['-p', '--no-session-persistence', '--tools', '', '--output-format', 'text', '--system-prompt', system, ...(model ? ['--model', model] : []), '--', prompt],
        isolatedCwd: true,
      };
    case 'codex': {
      const outputFile = join(tmp, 'answer.txt');
      return {
        args: ['exec', '--ephemeral', '--skip-git-repo-check', '-s', 'read-only', '-o', outputFile, ...(model ? ['-m', model] : []), buildCombinedPrompt(ctx, settings.cells)],
        isolatedCwd: true,
        outputFile,
      };
    }
    case 'gemini': {
      const id = randomUUID();
      return {
        // --skip-trust: headless Gemini refuses (exit 55) in a folder not trusted yet; this trusts it for this run only.
        args: ['-p', buildCombinedPrompt(ctx, settings.cells), '-o', 'json', '--session-id', id, '--skip-trust', ...(model ? ['-m', model] : [])],
        isolatedCwd: false,
        parse: (stdout) => {
          try {
            const json = JSON.parse(stdout.slice(stdout.indexOf('{'))) as { response?: unknown };
            return typeof json.response === 'string' ? json.response : '';
          } catch {
            return stdout;
          }
        },
        cleanup: () => removeGeminiSession(settings.env, settings.home, id),
      };
    }
    default:
      return undefined;
  }
}

/** True when this agent has a one-off mode recapwrap knows. */
export function agentCanRecap(agent: string | undefined): boolean {
  return agent === 'pi' || agent === 'qwen' || agent === 'claude' || agent === 'codex' || agent === 'gemini';
}

function run(command: string, args: string[], cwd: string, env: Env, timeoutMs: number, signal: AbortSignal): Promise<{ code: number | null; stdout: string; stderr: string; error?: string }> {
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
    const finish = (code: number | null, error?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve({ code, stdout, stderr, error: reason ?? error });
    };
    child.on('error', (error: NodeJS.ErrnoException) => finish(null, error.code === 'ENOENT' ? `${command} is not on PATH` : error.message));
    child.on('close', (code) => finish(code));
  });
}

export async function agentGenerate(ctx: RecapContext, signal: AbortSignal, settings: AgentGeneratorSettings): Promise<GeneratorResult> {
  const model = recapModelFor(settings.agent, settings.model) || 'default';
  let tmp: string | undefined;
  let plan: OneOff | undefined;
  try {
    tmp = await mkdtemp(join(tmpdir(), 'recapwrap-recap-'));
    plan = oneOffCommand(ctx, settings, tmp);
    if (!plan) return { ok: false, error: `no one-off mode known for ${settings.agent}`, model };
    const projectDir = settings.cwd && (await stat(settings.cwd).then((st) => st.isDirectory(), () => false)) ? settings.cwd : undefined;
    const cwd = plan.isolatedCwd || !projectDir ? tmp : projectDir;
    const result = await run(settings.command || settings.agent, plan.args, cwd, settings.env, settings.timeoutMs, signal);
    if (result.error) return { ok: false, error: result.error, model };
    if (result.code !== 0) return { ok: false, error: `${settings.agent} exited with ${result.code}: ${result.stderr.trim().split('\n').pop()?.slice(0, 200) ?? ''}`, model };
    let answer = result.stdout;
    if (plan.outputFile) answer = await readFile(plan.outputFile, 'utf8').catch(() => '');
    if (plan.parse) answer = plan.parse(answer);
    const text = extractRecap(answer);
    return text ? { ok: true, text, model } : { ok: false, error: 'the answer had no <recap> tag', model };
  } catch (error) {
    return { ok: false, error: (error as Error).message, model };
  } finally {
    await plan?.cleanup?.().catch(() => {});
    if (tmp) await rm(tmp, { recursive: true, force: true }).catch(() => {});
  }
}
