/**
 * One parsed session as the index stores it: the heuristic card (never a model here; the agent's own recap
 * as its line while it is fresh), the condensed text,
 * counts, tags, name hints and the indexed-up-to mark. Shared by the scan and the live wrapper.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { condenseEvents, countsOf, tagsOf, taskOf, touched } from '../../memory/condense.js';
import type { MemoryEvent, SessionWrite } from '../../memory/types.js';
import { freshOwnRecap, ownRecapGenerator, ownRecapLine } from '../../recap/own-recap.js';
import type { Recap } from '../../recap/types.js';
import type { Session } from '../../transcripts/types.js';

const projectCache = new Map<string, string>();

/** The project a folder belongs to: the name of its git repository's top folder, else the folder's own name. */
export function projectOf(cwd: string): string {
  if (!cwd) return 'unknown';
  // A folder of another system (a Windows path read on Linux): its last part, no file system walk.
  if (!isAbsolute(cwd)) return cwd.split(/[\\/]/).filter(Boolean).pop() ?? cwd;
  const cached = projectCache.get(cwd);
  if (cached !== undefined) return cached;
  let dir = cwd;
  let found: string | undefined;
  for (let i = 0; i < 12; i++) {
    if (existsSync(join(dir, '.git'))) {
      found = basename(dir);
      break;
    }
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  const project = found || basename(cwd) || cwd;
  projectCache.set(cwd, project);
  return project;
}

export function sessionWrite(session: Session, recap: Recap, file: { size: number; mtimeMs: number }): SessionWrite {
  const events = session.events as readonly MemoryEvent[];
  const { files, commands } = touched(events);
  const cwd = session.cwd ?? '';
  const ts = session.events.map((e) => e.ts).filter((t): t is number => typeof t === 'number');
  // The agent's own recap, when no turn followed it, is the card's line (#34).
  const own = freshOwnRecap(session.events);
  const write: SessionWrite = {
    id: session.id,
    agent: session.agent,
    transcript: session.file,
    cwd,
    project: projectOf(cwd),
    headline: recap.headline,
    line: own ? ownRecapLine(own.text) : recap.line,
    createdAt: session.startedAt ?? ts[0],
    updatedAt: session.updatedAt ?? ts[ts.length - 1] ?? file.mtimeMs,
    counts: countsOf(events),
    status: recap.status,
    language: recap.language,
    tags: tagsOf(events),
    generator: own ? ownRecapGenerator(session.agent) : { type: 'heuristic' },
    done: recap.done,
    next: recap.next,
    artifacts: recap.artifacts,
    text: condenseEvents([...(session.title ? [{ kind: 'title', text: session.title }] : []), ...events]),
    nameHints: { task: taskOf(events, session.title), files, commands },
    mark: { size: file.size, mtimeMs: file.mtimeMs, entry: session.stamp },
  };
  const title = session.title ?? firstLine(write.nameHints.task);
  if (title) write.title = title;
  if (session.model) write.model = session.model;
  if (session.gitBranch) write.gitBranch = session.gitBranch;
  return write;
}

function firstLine(text: string): string | undefined {
  const line = text.split('\n')[0]?.trim();
  return line ? (line.length > 80 ? line.slice(0, 79) + '…' : line) : undefined;
}
