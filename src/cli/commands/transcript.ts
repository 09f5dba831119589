/**
 * `recapwrap transcript FILE [--agent ID] [--json]`: the normalized session of a session file, for
 * debugging and scripts. The agent is detected from the content unless given.
 */
import type { Command } from 'commander';
import { formatExpected } from '../../config/load.js';
import { AGENT_IDS, formatAgentIds, isAgentId } from '../../transcripts/agent-ids.js';
import type { Session, TranscriptEvent } from '../../transcripts/types.js';
import { sanitizeLine, stringifyJsonSafely } from '../../util/sanitize.js';
import { setExitCode } from '../exit-code.js';

/** A transcript's text for the terminal: every field (tool names, paths, ids, models too: the model picks them) is sanitized. */
const clean = (s: string | number | undefined | null): string => sanitizeLine(String(s ?? ''));
const clip = (s: string | undefined | null) => clean(s).slice(0, 160);

function timeOf(ts: unknown): string {
  const t = typeof ts === 'number' || typeof ts === 'string' ? new Date(ts) : undefined;
  return t && Number.isFinite(t.getTime()) ? t.toISOString().slice(11, 19) : '        ';
}

// One line per event for people; thinking is marked, never printed.
export function renderEvent(e: TranscriptEvent): string {
  const time = timeOf(e.ts);
  switch (e.kind) {
    case 'user':
      return `${time} ${e.command ? 'command   ' : 'user      '} ${clip(e.text)}`;
    case 'assistant':
      return `${time} assistant  ${clip(e.text)}`;
    case 'thinking':
      return `${time} thinking   (${clean(e.chars ?? e.text.length)} chars, not shown)`;
    case 'tool-call':
      return `${time} ${e.approval ? 'approval  ' : 'tool      '} ${clip(e.name)}(${clip(e.args)})${e.paths.length ? ` → ${e.paths.map(clip).join(', ')}` : ''}`;
    case 'tool-result':
      return `${time} result     ${e.ok ? 'ok' : 'ERROR'} ${clip(e.text)}`;
    case 'summary':
      return `${time} summary    [${clean(e.source)}] ${clip(e.text)}`;
    case 'turn-end':
      return `${time} turn end${e.reason ? ` (${clip(e.reason)})` : ''}`;
    case 'aborted':
      return `${time} aborted    ${clip(e.text ?? '')}`;
    case 'error':
      return `${time} error      ${clip(e.text)}`;
    case 'model':
      return `${time} model      ${e.provider ? `${clip(e.provider)}/` : ''}${clip(e.model)}`;
    case 'title':
      return `${time} title      ${clip(e.text)}`;
    case 'agent-recap':
      return `${time} own recap  ${clip(e.text)}`;
    case 'exit':
      return `${time} exit       ${clip(e.text ?? '')}`;
    default:
      return e satisfies never;
  }
}

export function renderSession(s: Session, state: string): string {
  const head = [`${clean(s.agent)} session ${clean(s.id)}`, s.title ? `title: ${clean(s.title)}` : '', s.cwd ? `cwd: ${clean(s.cwd)}` : '', `state: ${clean(state)}`, `stamp: ${clean(s.stamp)}`, s.skipped ? `skipped lines: ${clean(s.skipped)}` : '']
    .filter(Boolean)
    .join('\n');
  return `${head}\n\n${s.events.map(renderEvent).join('\n')}`;
}

export async function runTranscript(file: string, options: { agent?: string; json?: boolean }): Promise<{ out: string; err: string; code: number }> {
  if (options.agent !== undefined && !isAgentId(options.agent)) {
    return { out: '', err: `recapwrap: ${formatExpected('`--agent`', `one of ${AGENT_IDS.join(', ')}`, `\`${options.agent}\``)}\n`, code: 2 };
  }
  const { loadSessionFile, detectAgentFromFile } = await import('../../transcripts/load.js');
  const { deriveActivity } = await import('../../transcripts/activity.js');
  let session: Session;
  try {
    session = await loadSessionFile(file, { agent: options.agent });
  } catch (error) {
    return { out: '', err: `recapwrap: ${sanitizeLine((error as Error).message)}\n`, code: 1 };
  }
  // An agent given that the content disagrees with reads as that agent all the same (the flag is for
  // when detection fails), but says so: its lines were skipped, not an empty session.
  let err = '';
  if (options.agent !== undefined) {
    const detected = await detectAgentFromFile(file).catch(() => undefined);
    if (detected && detected !== options.agent) err += `recapwrap: warning: ${sanitizeLine(file)} looks like a ${detected} session; read as ${options.agent} (--agent), ${session.skipped ?? 0} lines skipped\n`;
  }
  if (!err && session.events.length === 0 && (session.skipped ?? 0) > 0) err += `recapwrap: warning: no line of ${sanitizeLine(file)} could be read as a ${session.agent} session (${session.skipped} skipped)\n`;
  const state = deriveActivity(session, { now: Date.now() }).state;
  if (options.json) {
    const { agent, id, cwd, title, stamp, skipped } = session;
    // Thinking is never shown: its length stands in for its text.
    const events = session.events.map((e) => (e.kind === 'thinking' ? { kind: e.kind, chars: e.chars ?? e.text.length, sourceId: e.sourceId, ts: e.ts } : e));
    // The same JSON, with C1, bidi and zero-width characters \u-escaped: JSON.stringify leaves them raw.
    return { out: stringifyJsonSafely({ agent, id, cwd: cwd ?? null, title: title ?? null, stamp, state, events, skipped }) + '\n', err, code: 0 };
  }
  return { out: renderSession(session, state) + '\n', err, code: 0 };
}

export function registerTranscript(program: Command): void {
  program
    .command('transcript')
    .description('the normalized events of a session file (agent detected from the content)')
    .argument('<file>', `a session file (${formatAgentIds()})`)
    .option('--agent <id>', 'which agent wrote it, when detection fails')
    .option('--json', 'one JSON object: agent, id, cwd, title, stamp, state, events, skipped', false)
    .action(async function (this: Command, file: string, options: { agent?: string; json?: boolean }) {
      const { out, err, code } = await runTranscript(file, options);
      process.stdout.write(out);
      process.stderr.write(err);
      setExitCode(this, code);
    });
}
