// The heuristic on every real transcript we have (the project's own fixtures in test/fixtures/transcripts,
// and ../shared/recap-corpus, read at test time, never copied: its cases skip without it): each file of an agent with an adapter yields a non-empty, sanitized
// line within the limits; hand-written expectations for sessions with a known ending.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildContext } from '../../src/recap/context.js';
import { heuristicRecap } from '../../src/recap/heuristic.js';
import { loadSessionFile } from '../../src/transcripts/load.js';
import { findAdapter } from '../../src/transcripts/registry.js';
import { AGENT_IDS, type AgentId } from '../../src/transcripts/types.js';
import { displayWidth } from '../../src/util/text-width.js';
import { corpusPresent, RECAP_CORPUS_DIR, TRANSCRIPTS_DIR } from '../helpers/shared.js';

function sessionFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sessionFiles(path);
    return /\.(jsonl|json)$/.test(name) && !/(history|projects|hook|payload|runtime|sessions-pid|append-timeline|json-file-events)/.test(name) ? [path] : [];
  });
}

const files: Array<[AgentId, string]> = AGENT_IDS.filter((a) => findAdapter(a)).flatMap((agent) =>
  [...sessionFiles(join(TRANSCRIPTS_DIR, agent)), ...(corpusPresent ? sessionFiles(join(RECAP_CORPUS_DIR, agent)) : [])].map((f): [AgentId, string] => [agent, f]),
);

async function recapOf(agent: AgentId, file: string) {
  const session = await loadSessionFile(file, { agent });
  return heuristicRecap(buildContext(session));
}

describe('heuristic recap on real transcripts', () => {
  it('has files to read', () => {
    expect(files.length).toBeGreaterThan(8);
  });

  it.each(files)('%s %s: a non-empty, sanitized line within limits', async (agent, file) => {
    const r = await recapOf(agent, file);
    expect(r.line).toMatch(/^recap: \S/);
    expect(r.line).toContain(' Next: ');
    expect(displayWidth(r.line)).toBeLessThanOrEqual(220);
    expect(displayWidth(r.headline)).toBeLessThanOrEqual(80);
    expect(r.line).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
    for (const s of [...r.done, ...r.next]) expect(s).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
  });

  const known = (agent: AgentId, rel: string) => (findAdapter(agent) && corpusPresent ? join(RECAP_CORPUS_DIR, agent, rel) : undefined);
  const cases: Array<[string, AgentId, string | undefined, (r: Awaited<ReturnType<typeof recapOf>>) => void]> = [
    ['pi: a finished release says what was committed and pushed', 'pi', known('pi', 'pi-mono-selector-port-v1.jsonl'), (r) => {
      expect(r.line).toContain('committed "Release v0.8.0" and pushed');
      expect(r.status).toBe('idle');
    }],
    ['pi: a session ending on the agent’s question waits for the answer', 'pi', known('pi', 'kimchi-harness-version.jsonl'), (r) => {
      expect(r.line).toContain('waiting for your answer');
      expect(r.line).toContain('Next: answer: Would you like me to explore implementing that approach?');
      expect(r.status).toBe('waiting');
    }],
    ['pi: a fixture session names the file it wrote and that it was not tested', 'pi', join(TRANSCRIPTS_DIR, 'pi', 'print-2turns.jsonl'), (r) => {
      expect(r.line).toBe('recap: "now list the files with ls" — finished, not yet tested; changed hello.txt. Next: review the changes and run the tests.');
    }],
    ['claude: a session that only hit API errors says nothing was done', 'claude', known('claude', 'xeus-api-errors-only.jsonl'), (r) => {
      expect(r.line).toMatch(/— stopped on an API error \(API error 500: .*\); nothing was done\. Next: fix the provider problem/);
      expect(r.status).toBe('errored');
    }],
    ['claude: credit too low is named', 'claude', known('claude', 'tokenapp-credit-low.jsonl'), (r) => {
      expect(r.line).toContain('stopped on an API error (Credit balance is too low)');
    }],
    ['claude: a file copied mid-tool-call says it was cut off', 'claude', known('claude', 'raze-hook-progress.jsonl'), (r) => {
      expect(r.line).toContain('cut off mid-tool-call (Bash(');
    }],
    ['claude: a session that ends on the user’s words says the agent never answered', 'claude', known('claude', 'random-site-ends-on-user.jsonl'), (r) => {
      expect(r.line).toContain('"i think there\'s a session file somwhere for the whole session" — cut off before the agent answered');
      expect(r.line).toContain('committed "Initial commit: pixel art random numbe');
    }],
    ['claude: a Japanese session keeps the Japanese phrase', 'claude', known('claude', 'subly-vault-count-ja.jsonl'), (r) => {
      expect(r.line).toContain('"本当にそれだけ、、？Depositされた回数って何件？');
      expect(r.language).toBe('ja');
    }],
    ['codex: a question at the end of /init becomes the next step', 'codex', known('codex', 'init-question-0101.jsonl'), (r) => {
      expect(r.line).toContain('"init" — waiting for your answer');
      expect(r.line).toContain('Next: answer: Git: create an initial commit');
    }],
    ['codex: edits made by apply_patch are named, and said to be untested', 'codex', known('codex', 'opencode-zenmux.jsonl'), (r) => {
      expect(r.line).toContain('finished, not yet tested; changed opencode.jsonc, .zshrc');
    }],
    ['gemini: the pre-0.39 single-JSON recording names the files written and the build that ran', 'gemini', known('gemini', 'figma-dashstack.json'), (r) => {
      expect(r.line).toMatch(/^recap: "You are an expert frontend software engineer\. .*" — finished, not yet tested; changed tsconfig\.json, tsconfig\.node\.json, pack_files\.py/);
      expect(r.done).toContain('npm run build passed');
    }],
    ['gemini: a 0.61 JSONL session (resumed once) finished without changing files', 'gemini', join(TRANSCRIPTS_DIR, 'gemini', 'print-2turns.jsonl'), (r) => {
      expect(r.line).toContain('— finished; 2 tool calls, no file changed.');
      expect(r.status).toBe('idle');
    }],
  ];
  for (const [name, agent, file, check] of cases) {
    it.skipIf(!file)(name, async () => check(await recapOf(agent, file!)));
  }
});
