/**
 * Checks `recapwrap recap` makes before any work: flags that contradict each other (usage errors, exit 2),
 * a network generator with no key for its default endpoint (said at once, without a network call), and the
 * line count that tells a file of another format from a session with nothing asked yet.
 */
import { createReadStream } from 'node:fs';
import type { Options } from '../../config/options-table.js';
import type { Env } from '../../config/paths.js';
import { escapeForTmux, runTmux, tmuxDisplayMessage } from '../../display/tmux.js';
import { MAX_LINE_BYTES } from '../../transcripts/line-reader.js';

export interface RecapUsage {
  pane?: string;
  show?: boolean;
  session?: string;
  agent?: string;
  cwd?: string;
  generator?: string;
  llm?: boolean;
}

/** A usage error of the flags together, or undefined. */
export function checkRecapUsage(options: RecapUsage): string | undefined {
  if (options.pane !== undefined) {
    const other = options.session !== undefined ? '--session' : options.agent !== undefined ? '--agent' : options.cwd !== undefined ? '--cwd' : undefined;
    if (other) return `--pane and ${other} both name a session; give one of them`;
  } else if (options.show) {
    return '--show needs --pane (the live pane to show the recap in)';
  }
  if (options.llm === false && options.generator !== undefined && options.generator !== 'heuristic' && options.generator !== 'auto') {
    return `--no-llm allows no model, but --generator ${options.generator} is one; drop one of them`;
  }
  return undefined;
}

const DEFAULT_HOSTS = { openai: 'api.openai.com', anthropic: 'api.anthropic.com' } as const;

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}

/**
 * The openai/anthropic generator against its public endpoint with no key can only fail: say which key is
 * missing instead of going to the network. A custom endpoint (Ollama, a proxy) may need none.
 */
export function checkGeneratorSetup(options: Pick<Options, 'generator' | 'llm' | 'openaiBaseUrl' | 'anthropicBaseUrl'>, env: Env): string | undefined {
  if (!options.llm) return undefined;
  if (options.generator === 'openai' && !(env.RECAPWRAP_OPENAI_API_KEY || env.OPENAI_API_KEY) && hostOf(options.openaiBaseUrl) === DEFAULT_HOSTS.openai) {
    return 'the openai generator has no API key: set OPENAI_API_KEY (or RECAPWRAP_OPENAI_API_KEY), or point RECAPWRAP_OPENAI_BASE_URL at a local server';
  }
  if (options.generator === 'anthropic' && !(env.RECAPWRAP_ANTHROPIC_API_KEY || env.ANTHROPIC_API_KEY) && hostOf(options.anthropicBaseUrl) === DEFAULT_HOSTS.anthropic) {
    return 'the anthropic generator has no API key: set ANTHROPIC_API_KEY (or RECAPWRAP_ANTHROPIC_API_KEY)';
  }
  return undefined;
}

/** What a session file with no usable line holds: its non-blank lines, and those over the per-line limit. */
export interface SessionLineCount {
  lines: number;
  /** Lines longer than `maxLineBytes` (the transcript reader skips them). */
  longLines: number;
  longestBytes: number;
}

/** Counts a file's lines (only read when a session came out empty, to say why). */
export function countSessionLines(file: string, maxLineBytes = MAX_LINE_BYTES): Promise<SessionLineCount> {
  return new Promise((resolve) => {
    const count: SessionLineCount = { lines: 0, longLines: 0, longestBytes: 0 };
    let inLine = false;
    let length = 0;
    const endLine = () => {
      if (inLine) count.lines++;
      if (length > maxLineBytes) count.longLines++;
      count.longestBytes = Math.max(count.longestBytes, length);
      inLine = false;
      length = 0;
    };
    const stream = createReadStream(file);
    stream.on('data', (chunk) => {
      for (const byte of chunk as Buffer) {
        if (byte === 0x0a) {
          endLine();
          continue;
        }
        length++;
        if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) inLine = true;
      }
    });
    stream.on('end', () => {
      endLine();
      resolve(count);
    });
    stream.on('error', () => resolve(count));
  });
}

const MB = 1024 * 1024;

/** Why a file gave no event, in one line: empty, lines over the limit (with sizes), or another format. */
export function describeUnusableSession(file: string, agent: string, skipped: number, count: SessionLineCount, agentGiven: boolean, maxLineBytes = MAX_LINE_BYTES): string | undefined {
  if (count.lines === 0) return `${file} is empty: no session to recap`;
  if (count.longLines > 0) {
    const n = count.longLines;
    const others = count.lines - n;
    return `${n === 1 ? 'a line' : `${n} lines`} of ${file} ${n === 1 ? 'is' : 'are'} over the ${maxLineBytes / MB} MB limit per line (${n === 1 ? '' : 'longest '}${(count.longestBytes / MB).toFixed(1)} MB) and ${n === 1 ? 'was' : 'were'} not read${others > 0 ? `; the other ${others} ${others === 1 ? 'is' : 'are'} not in ${agent}'s session format` : ''}: no session to recap`;
  }
  if (skipped >= count.lines) return `no line of ${file} is in ${agent}'s session format (${count.lines} line${count.lines === 1 ? '' : 's'} skipped)${agentGiven ? '; is it another agent\'s? try without --agent' : ''}`;
  return undefined;
}

/**
 * Show an error of `recap --pane ID --show` in that pane's tmux client: a key binding's run-shell would
 * otherwise show only "returned 1". Does nothing outside tmux; never throws.
 */
export async function showPaneError(pane: string, message: string, env: Env): Promise<void> {
  if (!env.TMUX) return;
  const ok = await tmuxDisplayMessage({ pane, env }, `recapwrap: ${message}`, 5000);
  // An unknown pane id: show it on whichever client ran the binding.
  if (!ok) await runTmux({ env }, ['display-message', '-d', '5000', escapeForTmux(`recapwrap: ${message}`)]);
}
