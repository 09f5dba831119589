/**
 * Lays real session files out where each agent keeps them under a (temporary) home: Claude's projects,
 * Codex's dated rollouts, Gemini's tmp chats, pi's sessions, Qwen's project chats. The id, folder and
 * times come from the file itself (parsed), so the layout is the one the agent would have written.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { claudeSlug } from '../../src/transcripts/claude/paths.js';
import { geminiSlug } from '../../src/transcripts/gemini/paths.js';
import { loadSessionFile } from '../../src/transcripts/load.js';
import { encodePiCwd, piSessionFileName } from '../../src/transcripts/pi/paths.js';
import { encodeQwenCwd } from '../../src/transcripts/qwen/paths.js';
import type { AgentId } from '../../src/transcripts/types.js';

const pad = (n: number) => String(n).padStart(2, '0');

export interface LaidOut { agent: AgentId; source: string; file: string; id: string; cwd: string }

/** Copy one session file into `home` where `agent` would have written it; returns where. */
export async function layOutSession(home: string, agent: AgentId, source: string): Promise<LaidOut> {
  const s = await loadSessionFile(source, { agent });
  const cwd = s.cwd ?? `/work/${basename(source, extname(source))}`;
  const id = s.id || basename(source, extname(source));
  const t = new Date(s.updatedAt ?? s.startedAt ?? Date.now());
  let dir: string;
  let name: string;
  if (agent === 'claude') {
    dir = join(home, '.claude', 'projects', claudeSlug(cwd));
    name = `${id}.jsonl`;
  } else if (agent === 'codex') {
    dir = join(home, '.codex', 'sessions', String(t.getFullYear()), pad(t.getMonth() + 1), pad(t.getDate()));
    name = `rollout-${t.toISOString().slice(0, 19).replace(/:/g, '-')}-${id}.jsonl`;
  } else if (agent === 'gemini') {
    const project = join(home, '.gemini', 'tmp', geminiSlug(cwd));
    dir = join(project, 'chats');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(project, '.project_root'), cwd);
    const short = (id.replace(/[^0-9a-z]/gi, '') + '00000000').slice(0, 8).toLowerCase();
    name = `session-${t.toISOString().slice(0, 16).replace(/:/g, '-')}-${short}${extname(source)}`;
  } else if (agent === 'pi') {
    dir = join(home, '.pi', 'agent', 'sessions', encodePiCwd(cwd));
    name = piSessionFileName(t.getTime(), id);
  } else {
    dir = join(home, '.qwen', 'projects', encodeQwenCwd(cwd), 'chats');
    name = `${id}.jsonl`;
  }
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  copyFileSync(source, file);
  utimesSync(file, t, t);
  return { agent, source, file, id, cwd };
}

/** Every file of `<root>/<agent>/` laid out under `home`. */
export async function layOutFolder(home: string, root: string): Promise<LaidOut[]> {
  const out: LaidOut[] = [];
  for (const agent of ['pi', 'qwen', 'claude', 'codex', 'gemini'] as const) {
    let names: string[];
    try {
      names = readdirSync(join(root, agent)).filter((n) => /\.jsonl?$/.test(n));
    } catch {
      continue;
    }
    for (const n of names.sort()) out.push(await layOutSession(home, agent, join(root, agent, n)));
  }
  return out;
}

/** A word (8+ letters) only the last prompt of one laid-out session has (not its first prompt, no other file): the probe of a deep search. */
export async function wordOnlyALaterPromptHas(laid: readonly LaidOut[]): Promise<{ word: string; laid: LaidOut } | undefined> {
  const raws = laid.map((l) => readFileSync(l.file, 'utf8').toLowerCase());
  for (const [i, l] of laid.entries()) {
    const s = await loadSessionFile(l.file, { agent: l.agent });
    const prompts = s.events.filter((e) => e.kind === 'user').map((e) => (e as { text: string }).text);
    if (prompts.length < 3) continue;
    const words = (prompts[prompts.length - 1] as string).toLowerCase().match(/\b[a-z]{8,}\b/g) ?? [];
    const word = words.find((w) => !prompts[0]?.toLowerCase().includes(w) && raws.every((r, j) => j === i || !r.includes(w)));
    if (word) return { word, laid: l };
  }
  return undefined;
}
