// Lays the real session files of ../shared/recap-corpus/<agent>/ out under a temp home where each agent
// keeps them (the same layout as test/helpers/agent-homes.ts: id, folder and times parsed from the file),
// for benches that run the BUILT CLI over real sessions. The files are copied into the temp home only
// (removed by the bench), never into the repo.
import { copyFileSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { importInternals } from './internals.mjs';

const pad = (n) => String(n).padStart(2, '0');

/** Every file of `<corpus>/<agent>/` laid out under `home`: [{ agent, source, base, file, id, cwd }]. */
export async function layOutCorpus(home, corpus) {
  const lib = await importInternals('corpus-home', ['transcripts/load.ts', 'transcripts/claude/paths.ts', 'transcripts/gemini/paths.ts', 'transcripts/pi/paths.ts', 'transcripts/qwen/paths.ts']);
  const out = [];
  for (const agent of ['pi', 'qwen', 'claude', 'codex', 'gemini']) {
    let names;
    try {
      names = readdirSync(join(corpus, agent)).filter((n) => /\.jsonl?$/.test(n)).sort();
    } catch {
      continue;
    }
    for (const n of names) {
      const source = join(corpus, agent, n);
      const s = await lib.loadSessionFile(source, { agent });
      const cwd = s.cwd ?? `/work/${basename(source, extname(source))}`;
      const id = s.id || basename(source, extname(source));
      const t = new Date(s.updatedAt ?? s.startedAt ?? Date.now());
      let dir;
      let name;
      if (agent === 'claude') {
        dir = join(home, '.claude', 'projects', lib.claudeSlug(cwd));
        name = `${id}.jsonl`;
      } else if (agent === 'codex') {
        dir = join(home, '.codex', 'sessions', String(t.getFullYear()), pad(t.getMonth() + 1), pad(t.getDate()));
        name = `rollout-${t.toISOString().slice(0, 19).replace(/:/g, '-')}-${id}.jsonl`;
      } else if (agent === 'gemini') {
        const project = join(home, '.gemini', 'tmp', lib.geminiSlug(cwd));
        dir = join(project, 'chats');
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(project, '.project_root'), cwd);
        const short = (id.replace(/[^0-9a-z]/gi, '') + '00000000').slice(0, 8).toLowerCase();
        name = `session-${t.toISOString().slice(0, 16).replace(/:/g, '-')}-${short}${extname(source)}`;
      } else if (agent === 'pi') {
        dir = join(home, '.pi', 'agent', 'sessions', lib.encodePiCwd(cwd));
        name = lib.piSessionFileName(t.getTime(), id);
      } else {
        dir = join(home, '.qwen', 'projects', lib.encodeQwenCwd(cwd), 'chats');
        name = `${id}.jsonl`;
      }
      mkdirSync(dir, { recursive: true });
      const file = join(dir, name);
      copyFileSync(source, file);
      utimesSync(file, t, t);
      out.push({ agent, source, base: `${agent}/${n}`, file, id, cwd });
    }
  }
  return out;
}
