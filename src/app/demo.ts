/**
 * `recapwrap demo`: the built-in scripted agent (writes a real pi-format transcript) run under recapwrap
 * with a short away threshold, in a fresh workspace under the temp folder. Inside tmux it opens in a
 * split pane so you can switch away and back; elsewhere it runs in this terminal. No key, no network.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Away threshold for the demo: long enough to switch away, short enough not to bore. */
export const DEMO_AWAY_SECONDS = 5;

export interface DemoPlan {
  workspace: string;
  env: Record<string, string>;
  /** argv of the wrapped run: recapwrap's own CLI, wrapping the scripted agent as pi. */
  argv: string[];
}

const CLI = fileURLToPath(new URL('../../bin/recapwrap.js', import.meta.url));
const AGENT = fileURLToPath(new URL('../../bin/demo-agent.js', import.meta.url));

export function planDemo(base = tmpdir()): DemoPlan {
  const workspace = mkdtempSync(join(base, 'recapwrap-demo-'));
  return {
    workspace,
    // The demo's "pi" keeps its sessions inside the workspace, never in your real ~/.pi.
    env: { PI_CODING_AGENT_DIR: join(workspace, '.pi-agent') },
    // The heuristic writes the demo's recaps: the demo promises no key and no network.
    argv: [process.execPath, CLI, '--agent', 'pi', '--generator', 'heuristic', '--away', String(DEMO_AWAY_SECONDS), '--', AGENT],
  };
}

function quote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export function demoInstructions(inTmux: boolean): string {
  const where = inTmux ? 'in the pane that just opened on the right' : 'below';
  return [
    `recapwrap demo: a scripted agent runs ${where}, under recapwrap (no key, no network).`,
    '  1. Type a task there and press Enter (or just Enter). It "works" for a few seconds.',
    inTmux
      ? `  2. While it works, switch back to this pane (prefix + arrow), wait ${DEMO_AWAY_SECONDS} s, and return.`
      : `  2. While it works, switch to another window or tab, wait ${DEMO_AWAY_SECONDS} s, and come back.`,
    '  3. A one-line recap of where the work stands appears. Your next key clears it.',
    inTmux ? '' : '  Ctrl-D quits the demo agent.',
  ].filter(Boolean).join('\n');
}

export async function runDemo(env = process.env): Promise<number> {
  const plan = planDemo();
  const inTmux = Boolean(env.TMUX);
  process.stdout.write(demoInstructions(inTmux) + '\n');
  if (inTmux) {
    const envArgs = Object.entries(plan.env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
    const child = spawn('tmux', ['split-window', '-h', '-c', plan.workspace, ...envArgs, plan.argv.map(quote).join(' ')], { stdio: 'inherit' });
    return new Promise((resolve) => child.on('exit', (code) => resolve(code ?? 1)));
  }
  process.stdout.write('\n');
  const [cmd, ...args] = plan.argv as [string, ...string[]];
  const child = spawn(cmd, args, { stdio: 'inherit', cwd: plan.workspace, env: { ...env, ...plan.env } });
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 + 15 : 1))));
}
