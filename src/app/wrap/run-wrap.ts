/**
 * `recapwrap [options] <command> [args…]`, composed: the only module that knows every part of the wrap
 * flow. 1. Before the child: options, the command on PATH, the launch plan (agent, adapter, pin flags),
 * the state folders and the display, each decided once here. 2. The child runs (wrap-run.ts). 3. The
 * live parts attach to it (live-parts.ts), loaded after the spawn so they never delay the agent.
 * 4. On exit: the live parts stop, recapwrap exits with the child's code.
 */
import { resolveConfig, takeProjectNotice } from '../../config/load.js';
import type { OptionName } from '../../config/options-table.js';
import { isDumbTerminal } from '../../pty/passthrough.js';
import { resolveCommand } from '../../pty/pty-process.js';
import type { AgentId } from '../../transcripts/types.js';
import { agentFromCommand } from '../../transcripts/agent-ids.js';
import { debugLog } from '../../util/debug-log.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { nodeRequire } from '../../util/node-require.js';
import { chooseDisplay, planRecap } from './launch-plan.js';
import type { LiveDisplay, LiveParts } from './live-parts.js';
import { prepareStateFolders } from './state-folders.js';
import { checkTmuxFocusNotice, settleWithin } from './tmux-notice.js';
import { buildChildEnv, startWrapRun, TMUX_ENV, type WrapRun } from './wrap-run.js';

/** If the process is still alive this long after the child is gone, a stray handle is holding it. */
const EXIT_SAFETY_MS = 2000;
/**
 * How long the start waits for tmux's focus-events answer, so a warning lands above the agent's screen.
 * A healthy server answers in ~3 ms, but starting the tmux client costs 40-80 ms on a loaded 2-core box;
 * the question is asked before the launch plan is made, so most of that overlaps. A later answer still
 * goes above the agent's screen while it has printed nothing, else after it exits. A hung server costs
 * the start no more than this (it was 1.5 s).
 */
const TMUX_CHECK_WAIT_MS = 100;
/** Said once at start where TERM is dumb or unset outside tmux: no bar, no focus reports, so no recap here. */
export const DUMB_TERMINAL_NOTICE = 'TERM is dumb or unset: no recap can show in this terminal (no bar, no focus reports); `recapwrap ls` and `recapwrap status` still have them';
/**
 * A command that is not an agent is listed by `ls` once it has run this long: its state file (and the
 * module that writes it) stays off the path of a command that is over sooner (`recapwrap true`), where
 * writing it cost ~3 ms between the child's exit and ours.
 */
export const COMMAND_STATE_DELAY_MS = 100;
/** On the way out, no tmux call (clearing @recap…) may hold the exit longer than this. */
const EXIT_TMUX_LIMIT_MS = 250;
/**
 * V8 doubles its young generation (up to 16 MB a half) whenever a scavenge finds it busy, and the
 * output buffers an agent's flood leaves behind are freed only by a scavenge: a young generation kept
 * at its first size scavenges more often (cheaply: nearly everything in it is dead) and holds fewer of
 * them. Measured on `cat` of 100 MB into a tmux pane: peak RSS 64 -> 59 MB, same time. The one V8
 * setting that still takes effect once the heap exists (the size flags are read at its creation).
 */
const V8_WRAPPER_FLAGS = '--semi-space-growth-factor=1';

export interface RunWrapOptions {
  command: string;
  args: readonly string[];
  /** Flag values the user gave (by option name); env and config files are resolved here. */
  flags?: Partial<Record<OptionName, unknown>>;
  /** --agent: read this agent's transcripts whatever the command is called. */
  agent?: AgentId;
  /** A command that is not found: the recapwrap subcommand it may be a typo of (`doctr` → doctor). */
  suggest?: (command: string) => string | undefined | Promise<string | undefined>;
  /** Text to type into the agent's input once it is ready, never sent (resume --next; typed-draft.ts). */
  draft?: string;
}

// Resolves to the exit code for the process.
export async function runWrap(options: RunWrapOptions): Promise<number> {
  const env = process.env;
  const cwd = process.cwd();
  const config = resolveConfig({ env, cwd, flags: options.flags });
  const flagProblems = config.problems.filter((p) => p.source === 'flag');
  if (flagProblems.length > 0) {
    for (const p of flagProblems) process.stderr.write(`recapwrap: ${p.message}\n`);
    return 2;
  }
  for (const p of config.problems) process.stderr.write(`recapwrap: warning: ${sanitizeLine(p.message)}\n`);
  // The project file's one line (#40 item 1), said before the agent owns the screen.
  const notice = takeProjectNotice(config);
  if (notice) process.stderr.write(`recapwrap: warning: ${sanitizeLine(notice)}\n`);
  const opts = config.options;
  const resolved = resolveCommand(options.command, env, cwd);
  if (!resolved.ok) {
    const typo = resolved.exitCode === 127 ? await options.suggest?.(options.command) : undefined;
    // An agent that is not installed: which one, how to install it, and the demo that needs none.
    const agent = resolved.exitCode === 127 && !typo ? (await import('../agents/agent-install.js')).missingAgentHint(options.command) : undefined;
    process.stderr.write(`recapwrap: ${resolved.message}${typo ? `; did you mean \`recapwrap ${typo}\`?` : ''}${agent ? ` (${agent.replace('\n', ')\n')}` : ''}\n`);
    return resolved.exitCode;
  }
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    debugLog('wrap', 'direct mode', { stdinTTY: Boolean(process.stdin.isTTY), stdoutTTY: Boolean(process.stdout.isTTY) });
    const { runDirect } = await import('../../pty/direct.js'); // lazy: start-up time of the common path
    return runDirect(options.command, options.args, { cwd, env: buildChildEnv(env) });
  }
  // TERM=dumb (or unset), e.g. an editor's shell buffer: no escape sequences of ours at all.
  const dumb = isDumbTerminal(env.TERM);
  if (dumb) debugLog('wrap', 'terminal features off', { term: env.TERM ?? null, reason: 'TERM is dumb or unset: no focus reporting, no overlay bar' });
  const focus = opts.focus && !dumb;
  // Asked now, answered beside the launch plan; never on the agent's path for longer than TMUX_CHECK_WAIT_MS.
  // Only for an agent: a plain command (`recapwrap sleep 100`) gets no recap, so focus does not matter (#28).
  const isAgent = Boolean(options.agent ?? agentFromCommand(options.command));
  const tmuxNotice = focus && isAgent && env[TMUX_ENV] ? checkTmuxFocusNotice(env, opts.tmuxFocus) : undefined;
  // The pin flags must be known before the child starts; the rest of the recap machinery loads after.
  const plan = await planRecap({ command: options.command, args: options.args, agent: options.agent, cwd, env });
  const started: { run?: WrapRun } = {}; // set once the child runs (read by a late tmux answer)
  let lateNotice: string | undefined;
  if (tmuxNotice) {
    const early = await settleWithin(tmuxNotice, TMUX_CHECK_WAIT_MS);
    if (early.settled) {
      if (early.value.notice) process.stderr.write(early.value.notice + '\n');
    } else {
      debugLog('wrap', 'tmux focus-events: no answer yet; going on without it', { waitedMs: TMUX_CHECK_WAIT_MS });
      // Still above the agent's screen while it has printed nothing (through the run: raw mode, in
      // order with its output); otherwise once it has exited.
      void tmuxNotice.then(({ notice }) => {
        if (!notice) return;
        const { run } = started;
        if (!run) process.stderr.write(notice + '\n');
        else if (run.lastOutputAt === 0) run.writeToTerminal(notice + '\r\n');
        else lateNotice = notice;
      });
    }
  }
  const { adapter } = plan;
  if (!adapter) debugLog('recap', 'no transcript support for this command; running transparently');
  // Unusable or unsafe state folders: the agent runs without recaps (#19 points 2 and 8).
  const folders = adapter ? prepareStateFolders(env, (m) => process.stderr.write(`recapwrap: ${m}\n`)) : undefined;
  // Where recaps appear, decided once. Even with --display none the live parts run: the transcript is
  // still followed for status, ls and recap --pane. A dumb terminal gets no overlay bar.
  const where = folders ? chooseDisplay(opts, env) : 'none';
  // The bar is the only place a recap would show here: say once that none can, as the tmux notice does (#28).
  if (where === 'overlay' && dumb) process.stderr.write(`recapwrap: ${DUMB_TERMINAL_NOTICE}\n`);
  // The overlay mirrors the agent's screen from its very first byte, so it is set up before the spawn.
  // Inside tmux (display tmux or none) nothing copies the screen: recaps use tmux itself, and the
  // picker (pickKey) opens in a tmux popup (picker-popup.ts), which tmux draws and takes off.
  const overlaySetup = where === 'overlay' && !dumb ? await (await import('./overlay-setup.js')).prepareOverlay() : undefined;
  const startedAt = Date.now();
  // agentRecaps: replace turns the agent's own recap off for this run through its own switch (#34).
  // (Inline, not own-recaps.ts: nothing of the recap layer on the start-up path.)
  const ownOff = opts.agentRecaps === 'replace' ? adapter?.ownRecap?.off : undefined;
  const childEnv = ownOff?.env ? { ...env, ...ownOff.env } : env;
  const run = startWrapRun({ command: options.command, args: [...(ownOff?.args ?? []), ...plan.launch.args], focus, cwd, env: childEnv, outputSignal: adapter?.outputSignal });
  started.run = run;
  if (options.draft) {
    const draft = options.draft;
    void import('./typed-draft.js').then(({ typeDraftWhenReady }) => typeDraftWhenReady(run, draft, debugLog)).catch((error: unknown) => debugLog('draft', 'failed', { error: (error as Error).message }));
  }
  // At the child's first output (before it could grow the young generation), not on the start path.
  const firstOutput = run.onOutputBytes(() => {
    firstOutput.dispose();
    nodeRequire<typeof import('node:v8')>('node:v8').setFlagsFromString(V8_WRAPPER_FLAGS);
  });
  const overlay = overlaySetup?.attach(run, { position: opts.position, barRows: opts.barRows });
  const display: LiveDisplay = overlay ? { kind: 'overlay', screen: overlay } : where === 'tmux' ? { kind: 'tmux' } : { kind: 'none' };
  let live: LiveParts | undefined;
  let commandState: Promise<{ remove(): void } | undefined> | undefined;
  let commandStateTimer: NodeJS.Timeout | undefined;
  if (!adapter) {
    // Loaded once the command has run COMMAND_STATE_DELAY_MS: never on its start-up or exit path.
    commandStateTimer = setTimeout(() => {
      commandState = import('./command-state.js')
        .then(({ startCommandState }) => startCommandState({ command: options.command, cwd, env, startedAt }))
        .catch((error: unknown) => {
          debugLog('wrap', 'command state file failed', { error: (error as Error).message });
          return undefined;
        });
    }, COMMAND_STATE_DELAY_MS);
    commandStateTimer.unref();
  }
  if (adapter && folders) {
    try {
      const { startLiveParts } = await import('./live-parts.js');
      // The focus-events option the start read (#43): the live parts decide from it whether focus reports hold.
      const tmuxFocusAtStart = tmuxNotice?.then(({ state }) => state);
      live = startLiveParts({ adapter, launch: plan.launch, run, options: opts, cwd, env, startedAt, command: options.command, folders, display, pickerScreen: overlay, tmuxFocusAtStart });
    } catch (error) {
      debugLog('wrap', 'recap machinery failed to start', { error: (error as Error).message });
    }
  }
  const exit = await run.exited;
  clearTimeout(commandStateTimer);
  // A hung tmux server must not hold the exit (and the state files' removal) for long.
  if (env[TMUX_ENV]) (await import('../../display/tmux.js')).limitTmuxCalls(EXIT_TMUX_LIMIT_MS);
  await live?.stop().catch(() => undefined);
  (await commandState)?.remove();
  debugLog('wrap', 'recap machinery stopped', { code: exit.code });
  if (lateNotice) process.stderr.write(lateNotice + '\n');
  setTimeout(() => process.exit(exit.code), EXIT_SAFETY_MS).unref();
  return exit.code;
}
