// The transcript layer and the heuristic on every real transcript we have (the project's own fixtures in
// test/fixtures/transcripts, and ../shared/recap-corpus, read at test time, never copied: its cases skip
// without it): each corpus file is recognised from its content and has a typed prompt; hand-checked
// expectations for sessions with compactions, commands, exits and approval waits; each file yields a
// non-empty, sanitized recap line within the limits; hand-written expectations for known endings.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildContext } from '../../src/recap/context.js';
import { composeParts } from '../../src/recap/compose.js';
import { heuristicRecap, recapParts } from '../../src/recap/heuristic.js';
import { showsHomePath } from '../../src/recap/paths.js';
import { formatRecap } from '../../src/recap/format.js';
import { deriveActivity } from '../../src/transcripts/activity.js';
import { detectAgentFromFile, loadSessionFile } from '../../src/transcripts/load.js';
import { findAdapter } from '../../src/transcripts/registry.js';
import { AGENT_IDS, type AgentId, type Session, type TranscriptEvent } from '../../src/transcripts/types.js';
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

const corpus: Array<[AgentId, string]> = AGENT_IDS.flatMap((agent) => sessionFiles(join(RECAP_CORPUS_DIR, agent)).map((f): [AgentId, string] => [agent, f]));
const prompts = (s: Session) => s.events.filter((e): e is Extract<TranscriptEvent, { kind: 'user' }> => e.kind === 'user');
const beforeFirstSummary = (s: Session) => prompts({ ...s, events: s.events.slice(0, s.events.findIndex((e) => e.kind === 'summary')) });
const stateOf = (s: Session) => deriveActivity(s, { now: Date.now() }).state;

describe.skipIf(!corpusPresent)('transcripts of every real session in the corpus (#16)', () => {
  it('has the corpus', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(45);
  });

  it.each(corpus)('%s %s: the agent is told from the content, with at least one typed prompt', async (agent, file) => {
    expect(await detectAgentFromFile(file)).toBe(agent);
    const s = await loadSessionFile(file);
    expect(s.agent).toBe(agent);
    expect(prompts(s).some((p) => p.text.trim().length > 0)).toBe(true);
    expect(s.dropped).toBeUndefined();
  });

  // Counted by hand from the raw files (python over the JSON lines), not from the parser's output.
  const file = (rel: string) => join(RECAP_CORPUS_DIR, rel);
  const checks: Array<[string, string, (s: Session) => void]> = [
    ['claude: a session compacted near its end keeps its 9 prompts, all before the compaction', 'claude/will-it-rain-compact-limit.jsonl', (s) => {
      expect(prompts(s)).toHaveLength(9);
      expect(beforeFirstSummary(s)).toHaveLength(9);
      expect(prompts(s)[0]?.text).toMatch(/^I want you to create a TypeScript application from scatch inside of this folder/); // the IDE context cut
      expect(s.events.filter((e) => e.kind === 'summary')).toHaveLength(1);
      expect(s.events.at(-1)?.kind).toBe('error'); // the usage-limit reply after the compaction
      expect(stateOf(s)).toBe('idle');
    }],
    ['claude: the first request of a compacted Chinese session stays first', 'claude/posthog-impact-zh.jsonl', (s) => {
      expect(prompts(s)).toHaveLength(15);
      expect(beforeFirstSummary(s)).toHaveLength(4);
      expect(prompts(s)[0]?.text).toMatch(/^請閱讀\/Users\/linhungfan\/personal_project\/weave\/doc\.md, 這是我的take home project/);
    }],
    ['claude: 1.0.x /status, /cost and /compact are command prompts beside the typed ones', 'claude/bollywood-datastory-v1.jsonl', (s) => {
      expect(prompts(s).map((p) => (p.command ? p.text : 'typed'))).toEqual(['typed', '/status', '/cost', 'typed', '/compact', 'typed', 'typed', 'typed', 'typed']);
      expect(prompts(s)[0]?.text).toMatch(/^Create a beautiful award-worthy single page data story/);
    }],
    ['claude: a skill command with arguments, and /exit closing the session', 'claude/tokenforge-rwa-exit.jsonl', (s) => {
      expect(prompts(s)[0]).toMatchObject({ text: '/colosseum-copilot', command: true });
      expect(prompts(s).at(-1)).toMatchObject({ text: '/exit', command: true });
      expect(s.events.at(-1)?.kind).toBe('exit');
      expect(stateOf(s)).toBe('exited');
    }],
    ['claude: skill commands keep their arguments as typed', 'claude/flux-grant-cutoff.jsonl', (s) => {
      // Given the task's words, each is a prompt (not a bare command).
      expect(prompts(s).filter((p) => p.text.startsWith('/')).map((p) => [p.text.slice(0, 40), p.command === true])).toEqual([['/solana-dev use the <idea> and suggest m', false], ['/apply-grant Use this skill to help me a', false]]);
      expect(stateOf(s)).toBe('working'); // the file ends right after a tool result
    }],
    ['codex: a legacy rollout is read whole: 44 prompts, the first a spec-kit command body', 'codex/anpr-legacy-format-de.jsonl', (s) => {
      expect(s.id).toBe('d7e0b7f3-b7c1-47c6-9aee-b17ae9c41262');
      expect(prompts(s)).toHaveLength(44);
      expect(prompts(s)[0]?.text).toMatch(/^---\ndescription: Create or update the project constitution/);
      expect(stateOf(s)).toBe('idle');
    }],
    ['codex: a session ending on an escalated call with no result waits for approval', 'codex/soul-escalation.jsonl', (s) => {
      const calls = s.events.filter((e): e is Extract<TranscriptEvent, { kind: 'tool-call' }> => e.kind === 'tool-call');
      // 7 escalated calls; the user approved the export script's prefix ("Approved command prefix saved").
      expect(calls.filter((c) => c.approval)).toHaveLength(6);
      expect(calls.find((c) => c.command?.includes('export-session.sh'))).not.toHaveProperty('approval');
      expect(calls.at(-1)).toMatchObject({ approval: true, command: 'git remote -v' });
      expect(stateOf(s)).toBe('waiting');
    }],
    ['pi: two compactions keep all 9 prompts, 5 of them before the first', 'pi/welpy-stale-compaction-tail.jsonl', (s) => {
      expect(prompts(s)).toHaveLength(9);
      expect(beforeFirstSummary(s)).toHaveLength(5);
      expect(prompts(s)[0]).toMatchObject({ text: '/skill:improve-codebase-architecture', command: true });
      expect(s.events.at(-1)?.kind).toBe('summary');
    }],
    ['pi: the glued last line gives the final reply and the second compaction', 'pi/pi-mono-compact-glued-line.jsonl', (s) => {
      expect(prompts(s)).toHaveLength(77);
      expect(s.events.filter((e) => e.kind === 'summary')).toHaveLength(2);
      expect(s.skipped).toBe(0);
    }],
    ['qwen: 20 typed prompts and 13 commands; the spec-kit bodies are not prompts', 'qwen/hrcloud-mcp-setup.jsonl', (s) => {
      expect(prompts(s).filter((p) => !p.command)).toHaveLength(20);
      expect(prompts(s).filter((p) => p.command)).toHaveLength(13);
    }],
    ['gemini: "System: Please continue." is not counted as a prompt', 'gemini/axe-quota-auth-loop.jsonl', (s) => {
      expect(prompts(s)).toHaveLength(6);
      expect(prompts(s).some((p) => p.text === 'System: Please continue.')).toBe(false);
    }],
  ];
  for (const [name, rel, check] of checks) {
    it(name, async () => check(await loadSessionFile(file(rel))));
  }
});

async function recapOf(agent: AgentId, file: string) {
  const session = await loadSessionFile(file, { agent });
  return heuristicRecap(buildContext(session));
}

describe('heuristic recap on real transcripts', () => {
  it('has files to read', () => {
    expect(files.length).toBeGreaterThan(8);
  });

  it.each(files)('%s %s: composed for every width, in every live state, each line fits, is clean and keeps its state', async (agent, file) => {
    const session = await loadSessionFile(file, { agent });
    for (const activity of [undefined, 'working', 'waiting', 'exited'] as const) {
      const { parts, status } = recapParts(buildContext(session, activity));
      // Never "done" for a turn that was cut off, failed or was interrupted.
      if (status === 'aborted' || status === 'errored') expect(parts.state).not.toMatch(/\b(done|finished)\b/);
      for (let w = 20; w <= 240; w += 11) {
        const text = composeParts(parts, w);
        expect(displayWidth(text), `${w}: ${text}`).toBeLessThanOrEqual(w);
        // The project label first (from 40 cells on), then the state; the label gives way only to a next
        // step that then shows (the step survives a narrow pane).
        const stepTookLabel = !!parts.label && !!parts.next && text.startsWith(parts.state) && text.includes(' Next: ');
        const lead = parts.label && w >= 40 && !stepTookLabel ? `${parts.label} · ${parts.state.split(' ')[0]}` : (parts.state.split(' ')[0] as string);
        expect(text.startsWith(lead) || (parts.label !== undefined && w >= 40 && displayWidth(`${parts.label} · ${parts.state}`) > w && text.startsWith(parts.label)), `${w}: ${text}`).toBe(true);
        // No absolute home path, no user name (issue 27): paths are relative to the session's folder or `~`.
        expect(showsHomePath(text), `${w}: ${text}`).toBe(false);
        expect(text).not.toMatch(/[\x00-\x1f\x7f-\x9f]|":\s*"|=>/);
      }
    }
  });

  it.each(files)('%s %s: a non-empty, sanitized line within limits', async (agent, file) => {
    const r = await recapOf(agent, file);
    expect(r.line).toMatch(/^recap: \S/);
    // A next step only when one is worth saying (issue 27: generic ones are left out).
    if (r.next.length) expect(r.line).toContain(` Next: `);
    else expect(r.line).not.toContain(' Next: ');
    expect(displayWidth(r.line)).toBeLessThanOrEqual(220);
    expect(displayWidth(r.headline)).toBeLessThanOrEqual(80);
    expect(r.line).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
    for (const s of [...r.done, ...r.next]) expect(s).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
    // #28 item 5: no recap or card shows a home path (other people's included), also for an old session read later.
    const session = await loadSessionFile(file, { agent });
    const old = heuristicRecap(buildContext(session, undefined, { now: Date.now() }));
    const card = formatRecap({ ...old, generator: { type: 'heuristic' }, session: { agent, id: session.id, file }, stamp: session.stamp, createdAt: '' }, 'card', 100);
    for (const text of [r.line, old.line, r.headline, card]) expect(showsHomePath(text), text).toBe(false);
    expect(old.line).not.toMatch(/let it finish|review and commit|nothing pending|Next: Next/);
  });

  const known = (agent: AgentId, rel: string) => (findAdapter(agent) && corpusPresent ? join(RECAP_CORPUS_DIR, agent, rel) : undefined);
  // Checked against what a person reading the session would write (issue 17): the state, the outcome in
  // the agent's words, the next step; never raw tool input; never "done" for a turn that did not finish.
  const cases: Array<[string, AgentId, string | undefined, (r: Awaited<ReturnType<typeof recapOf>>) => void]> = [
    ['pi: a release whose publish build failed (TS2305 behind `| head`) says so first, and what was committed and pushed', 'pi', known('pi', 'pi-mono-selector-port-v1.jsonl'), (r) => {
      expect(r.line).toMatch(/^recap: pi-mono · failing check( — [^:]+)?: npm run build failed: error TS2305/);
      expect(r.next).toEqual(['fix what fails in npm run build']);
      expect(r.done).toContainEqual(expect.stringMatching(/^committed and pushed [0-9a-f]{7} to pi-mono: "Release v0\.8\.0"/));
      // The subject is the request that states the task, not the short reply after it.
      expect(r.parts?.subject).toBe("i believe we are ready to release new version, aren't we?");
      expect(r.status).toBe('idle');
    }],
    ['pi: a session ending on the agent’s question waits for the answer', 'pi', known('pi', 'kimchi-harness-version.jsonl'), (r) => {
      expect(r.line).toMatch(/^recap: kimchi-dev · waiting for you/);
      expect(r.line).toContain('Next: ok to explore implementing that approach?');
      expect(r.status).toBe('waiting');
    }],
    ['pi: a turn that only listed files does not claim the previous turn’s edit', 'pi', join(TRANSCRIPTS_DIR, 'pi', 'print-2turns.jsonl'), (r) => {
      expect(r.line).toMatch(/^recap: [\w-]+ · done — .*hello\.txt/i);
      expect(r.line).not.toContain('changed');
    }],
    ['claude: a session that only hit API errors says nothing was done', 'claude', known('claude', 'xeus-api-errors-only.jsonl'), (r) => {
      expect(r.line).toMatch(/^recap: API error 500, nothing happened/);
      expect(r.line).toContain('Next: switch to a supported model, then retry.');
      expect(r.status).toBe('errored');
    }],
    ['claude: credit too low is named', 'claude', known('claude', 'tokenapp-credit-low.jsonl'), (r) => {
      expect(r.line).toContain('Credit balance is too low');
      expect(r.line).toContain('Next: top up credit or switch account, then resend "apply for agentic');
    }],
    ['claude: a session that ends inside a tool call names the script, not its raw input', 'claude', known('claude', 'raze-hook-progress.jsonl'), (r) => {
      expect(r.line).toMatch(/^recap: raze · running export-session\.sh/);
      expect(r.line).not.toMatch(/Bash\(|command=/);
    }],
    ['claude: a session that ends on the user’s "yes please" says the agent has not answered and what it will do', 'claude', known('claude', 'random-site-ends-on-user.jsonl'), (r) => {
      expect(r.line).toMatch(/^recap: random · no answer yet/);
      expect(r.line).toContain('you said "yes please"');
      expect(r.line).toContain('Next: copy it into the repo and commit it?');
      expect(r.line).not.toMatch(/\bdone\b/);
    }],
    ['claude: a Japanese session keeps the Japanese words', 'claude', known('claude', 'subly-vault-count-ja.jsonl'), (r) => {
      expect(r.line).toContain('本当にそれだけ、、？');
      expect(r.line).toContain('失敗 2 件');
      expect(r.language).toBe('ja');
    }],
    ['codex: a question at the end of /init becomes the next step, with its options', 'codex', known('codex', 'init-question-0101.jsonl'), (r) => {
      expect(r.line).toMatch(/^recap: bnpl-yield · waiting for you/);
      expect(r.line).toContain('Next: What do you want init to produce? Stack / Shape / Git');
    }],
    ['codex: a session cut inside code-mode exec names the command it ran', 'codex', known('codex', 'edgerunner-codemode.jsonl'), (r) => {
      expect(r.line).toMatch(/^recap: EdgeRunner · running export-session\.sh/);
      expect(r.line).not.toMatch(/tools\.exec_command|const r =/);
    }],
    ['codex: edits made by apply_patch are named', 'codex', known('codex', 'opencode-zenmux.jsonl'), (r) => {
      expect(r.line).toContain('changed .config/opencode/opencode.jsonc, .zshrc');
    }],
    ['gemini: the pre-0.39 single-JSON recording: the task is not the role prompt', 'gemini', known('gemini', 'figma-dashstack.json'), (r) => {
      expect(r.line).toMatch(/^recap: DashStack Admin · done — Write production grade React/);
      expect(r.line).not.toContain('You are an expert');
    }],
    ['gemini: a 0.61 JSONL session (resumed once) finished with the agent’s answer', 'gemini', join(TRANSCRIPTS_DIR, 'gemini', 'print-2turns.jsonl'), (r) => {
      expect(r.line).toMatch(/^recap: [\w-]+ · done — /);
      expect(r.status).toBe('idle');
    }],
  ];
  for (const [name, agent, file, check] of cases) {
    it.skipIf(!file)(name, async () => check(await recapOf(agent, file!)));
  }
});
