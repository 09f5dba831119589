/**
 * `recapwrap demo`: the built-in scripted agent (writes a real pi-format transcript) run under recapwrap
 * with a short away threshold, in a throwaway project under the temp folder that is removed when the demo
 * ends. Inside tmux it opens in a split pane (which runs `recapwrap demo --here`) so you can switch away
 * and back; elsewhere, or with --here, it runs in this terminal. No key, no network. Where no focus
 * report can arrive (tmux with focus-events off, its default; a terminal without focus reporting) the
 * recap comes from a short idle timer instead, and the demo says so. It never changes tmux's options.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageFile } from '../../util/package-dir.js';
import { DEMO_PROJECT_NAME, DEMO_WORKSPACE_ENV } from '../../demo/scripted-agent.js';
import { getStateDir, type Env } from '../../config/paths.js';
import { getPiSessionDir } from '../../transcripts/pi/paths.js';
import { readTmuxFocusEvents, type TmuxFocusEvents } from '../../display/tmux-focus.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { shellQuote } from '../../util/shell-quote.js';
import { displayWidth } from '../../util/text-width.js';

/** Away threshold for the demo: long enough to switch away, short enough not to bore. */
export const DEMO_AWAY_SECONDS = 5;
/** Without focus reports: the recap this long after the agent's turn ends (the real default is 120 s). */
export const DEMO_IDLE_SECONDS = 8;

export interface DemoPlan {
  /** The throwaway folder (removed at the end): the project. */
  root: string;
  /** The demo's project folder (the agent's and the wrapper's working folder). */
  project: string;
  env: Record<string, string>;
  /** argv of the wrapped run: recapwrap's own CLI, wrapping the scripted agent as pi. */
  argv: string[];
}

const CLI = packageFile('bin', 'recapwrap.js');
const AGENT = packageFile('bin', 'demo-agent.js');

/** Where the demo's "pi" keeps its sessions: in recapwrap's state folder, never in your ~/.pi. */
export function demoSessionsDir(env: Env): string {
  return join(getStateDir(env), 'demo');
}

export function planDemo(base = tmpdir(), userEnv: Env = process.env): DemoPlan {
  const root = mkdtempSync(join(base, 'recapwrap-demo-'));
  const project = join(root, DEMO_PROJECT_NAME);
  mkdirSync(project);
  // The demo's "pi" writes its files only into the throwaway project, and keeps its sessions in the
  // state folder, never in your ~/.pi (pi itself never lists them). The session index keeps them like any
  // other (memory as you set it): after the demo, `sessions`, `search` and `show` have something to show,
  // and the picker inside the demo lists them.
  const env = { PI_CODING_AGENT_DIR: demoSessionsDir(userEnv), [DEMO_WORKSPACE_ENV]: project };
  // The session folder exists before the agent starts, so recapwrap's folder watch sees the session
  // file the moment it appears (the demo agent is not pi's executable: nothing is pinned).
  mkdirSync(getPiSessionDir({ cwd: project, env, home: root }), { recursive: true, mode: 0o700 });
  return {
    root,
    project,
    env,
    // The heuristic writes the demo's recaps: the demo promises no key and no network.
    argv: [process.execPath, CLI, '--agent', 'pi', '--generator', 'heuristic', '--away', String(DEMO_AWAY_SECONDS), '--idle', String(DEMO_IDLE_SECONDS), '--', AGENT],
  };
}

/** Where a recap shows inside tmux (#43.9: not in the pane): tmux's own message line. */
const TMUX_MESSAGE_LINE = "tmux's message line at the bottom of the window";

/** Where the demo runs and whether a focus report can reach it there (inside tmux: always its own pane). */
export type DemoWhere = { kind: 'tmux'; focusEvents: TmuxFocusEvents } | { kind: 'terminal' };

/**
 * The instructions, printed in the pane the demo runs in, word-wrapped to its width (`cols`): inside
 * tmux that pane is the half the split has just made, so text printed before the split came out broken.
 */
export function demoInstructions(where: DemoWhere, cols = 80): string {
  const inTmux = where.kind === 'tmux';
  const noFocus = inTmux && where.focusEvents !== 'on';
  // One string per paragraph or item, wrapped below to the pane's width (78 at most: easy to read).
  const lines = [
    'recapwrap demo: a scripted agent runs below under recapwrap (no key, no network), in a throwaway project removed when it quits.',
    '  1. Type a task there and press Enter (or just Enter); it "works" a moment.',
  ];
  if (noFocus) {
    lines.push(
      `  2. Wait: ${DEMO_IDLE_SECONDS} s after it finishes, a one-line recap of where the work stands appears in ${TMUX_MESSAGE_LINE}.`,
      "  tmux's focus-events is off (its default), so recapwrap cannot see you switch panes; the demo uses a short idle timer instead. For recaps when you come back to a pane: tmux set -g focus-events on (the demo changes no setting).",
    );
  } else if (inTmux) {
    lines.push(
      `  2. While it works, go to another pane (prefix + arrow), wait ${DEMO_AWAY_SECONDS} s, come back.`,
      `  3. A one-line recap of where the work stands appears in ${TMUX_MESSAGE_LINE}.`,
    );
  } else {
    lines.push(
      `  2. While it works, switch to another window or tab; after ${DEMO_AWAY_SECONDS} s, come back.`,
      '  3. A one-line recap of where the work stands appears.',
      `  (If your terminal does not report focus: ${DEMO_IDLE_SECONDS} s after the agent is done.)`,
    );
  }
  lines.push('  Your next key clears the recap. Answer its question with y; Ctrl-D quits.');
  return wrapWords(lines.join('\n'), Math.min(cols, 79));
}

// Word-wrap each line to `cols` cells; continuation lines keep the line's indent (under a "1. " too).
export function wrapWords(text: string, cols: number): string {
  const width = Math.max(20, cols - 1); // the last column would make some terminals wrap early
  return text
    .split('\n')
    .flatMap((line) => {
      if (displayWidth(line) <= width) return [line];
      const lead = line.slice(0, line.length - line.trimStart().length);
      const pad = ' '.repeat(Math.min(/^\s*(?:\d+\.\s+)?/.exec(line)?.[0].length ?? 0, 8));
      const out: string[] = [];
      let current = lead;
      for (const word of line.trim().split(/\s+/)) {
        if (current.trim() === '') current += word;
        else if (displayWidth(`${current} ${word}`) > width) {
          out.push(current);
          current = pad + word;
        } else current += ` ${word}`;
      }
      out.push(current);
      return out;
    })
    .join('\n');
}

export interface DemoOptions {
  /** Run in this terminal even inside tmux (what the split pane runs). */
  here?: boolean;
}

/** Run the wrapped demo agent in this terminal; the throwaway folder is removed however it ends. */
export async function runDemoHere(env: NodeJS.ProcessEnv, plan: DemoPlan = planDemo(tmpdir(), env)): Promise<number> {
  const [cmd, ...args] = plan.argv as [string, ...string[]];
  const signals = ['SIGHUP', 'SIGTERM', 'SIGINT'] as const;
  let forward: ((signal: NodeJS.Signals) => void) | undefined;
  try {
    const child = spawn(cmd, args, { stdio: 'inherit', cwd: plan.project, env: { ...env, ...plan.env } });
    // A closing terminal hangs up on us (the session's leader in a tmux pane), not on the wrapper:
    // pass it on, and clean up once the wrapper has ended.
    forward = (signal) => {
      try {
        child.kill(signal);
      } catch {
        // Already gone.
      }
    };
    for (const s of signals) process.on(s, forward);
    return await new Promise<number>((resolve) => {
      child.on('error', () => resolve(1));
      child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 + 15 : 1)));
    });
  } finally {
    if (forward) for (const s of signals) process.off(s, forward);
    rmSync(plan.root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  }
}

/**
 * The line the demo ends with: the session it made, by a reference that names it alone. Every demo's
 * session gets the same automatic name (in its own throwaway folder), so after a second demo that name
 * names several sessions; the id prefix does not. Undefined when memory is off or nothing was indexed.
 */
export async function describeDemoSession(env: Env, project: string): Promise<string | undefined> {
  try {
    const { openSessionMemory } = await import('../memory/api.js');
    const { resolveConfig } = await import('../../config/load.js');
    const memory = await openSessionMemory({ env, options: resolveConfig({ env, cwd: project }).options, cwd: project });
    if ('error' in memory) return undefined;
    try {
      await memory.refresh({ ifIdle: true });
      const row = memory.list({ folder: project, exactFolder: true, limit: 1 })[0];
      if (!row) return undefined;
      // The shortest prefix (8 characters or more) that finds this session alone.
      let n = Math.min(8, row.id.length);
      const findsIt = (prefix: string) => {
        const r = memory.resolve(prefix);
        return r.ok && r.row.id === row.id;
      };
      while (n < row.id.length && !findsIt(row.id.slice(0, n))) n++;
      const ref = row.id.slice(0, n);
      return `recapwrap demo: its session is ${sanitizeLine(row.name)}: recapwrap show ${sanitizeLine(ref)} (or read, resume)`;
    } finally {
      memory.close();
    }
  } catch {
    return undefined; // the index could not be read: the demo itself went fine
  }
}

/** What the pane `demo` was typed in says: short, as the split has just halved it. */
export const DEMO_SPLIT_NOTE = 'recapwrap demo: it runs in the new pane →';

export async function runDemo(options: DemoOptions = {}, env = process.env, columns: number | undefined = process.stdout.columns): Promise<number> {
  if (env.TMUX && !options.here) {
    // The pane runs `recapwrap demo --here`, which prints the instructions at its own width, makes the
    // throwaway project and removes it at the end.
    const command = [process.execPath, CLI, 'demo', '--here'].map(shellQuote).join(' ');
    // recapwrap's own settings (state folder, debug log) follow into the pane; tmux would give it its own environment.
    const envArgs = Object.entries(env).flatMap(([k, v]) => (k.startsWith('RECAPWRAP_') && v !== undefined ? ['-e', `${k}=${v}`] : []));
    const child = spawn('tmux', ['split-window', '-h', ...envArgs, command], { stdio: 'inherit' });
    return new Promise((resolve) => {
      child.on('error', () => resolve(1));
      child.on('exit', (code) => {
        if (code === 0) process.stdout.write(DEMO_SPLIT_NOTE + '\n');
        resolve(code ?? 1);
      });
    });
  }
  // Here (a terminal, or the demo's own tmux pane): the instructions above the agent, at this width.
  const where: DemoWhere = env.TMUX ? { kind: 'tmux', focusEvents: await readTmuxFocusEvents(env) } : { kind: 'terminal' };
  process.stdout.write(demoInstructions(where, columns && columns > 0 ? columns : 80) + '\n\n');
  const plan = planDemo(tmpdir(), env);
  const code = await runDemoHere(env, plan);
  const made = await describeDemoSession(env, plan.project);
  if (made) process.stdout.write(made + '\n');
  return code;
}
