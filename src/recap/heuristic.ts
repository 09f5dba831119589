/**
 * The offline recap: deterministic and instant, built only from what the context proves. It names the
 * task in the user's own words, what changed (files, commits, tests), how the last turn ended, and a next
 * step (the agent's question or proposal, the failing thing, the interrupted request). It says "not yet
 * tested" rather than "done" when files changed and no test ran after them.
 */
import { sanitizeLine } from '../util/sanitize.js';
import { displayWidth, truncateToWidth } from '../util/text-width.js';
import type { RecapContext } from './context.js';
import type { Recap, RecapArtifact, RecapStatus } from './types.js';

/** A recap's text, before the engine adds who wrote it, for which session and when. */
export type RecapDraft = Omit<Recap, 'generator' | 'session' | 'stamp' | 'createdAt'>;

const LINE_MAX = 220;
const HEADLINE_MAX = 80;

// Replies that answer the agent rather than state a task.
const ACK = /^(y|yes|yep|yeah|no|nope|ok|okay|k|sure|go|go on|go ahead|continue|proceed|do it|please do|please continue|keep going|next|thanks|thank you|lgtm|sounds good|perfect|great|good|done|retry|try again|はい|いいえ|お願いします|続けて|继续|好|好的|是|可以|네|계속)[\s.!。！]*$/i;

const TEST_COMMAND = /\b((npm|pnpm|yarn|bun)\s+(run\s+)?(test|check|typecheck|lint|build)\b|vitest|jest|pytest|mocha|rspec|phpunit|cargo\s+(test|check|build|clippy)|go\s+(test|vet|build)|make\s+(test|check)|tsc\b|gradle\w*\s+test|mvn\s+test|deno\s+test|ctest|tox\b|ruff|eslint)/;
const COMMIT_COMMAND = /\bgit\s+commit\b/;
const PUSH_COMMAND = /\bgit\s+push\b/;
const URL = /https?:\/\/[^\s<>"'`)\]]+/g;
const PR_URL = /\/pull\/\d+|\/merge_requests\/\d+/;
// A sentence in which the agent proposes what comes next.
const PROPOSAL = /\b(next|I can|I could|I'll|I will|you can|you could|you may|would you like|should I|shall I|want me to|suggest|recommend|remaining|still need|to do|TODO|follow[- ]up|then run|consider)\b|次に|次は|ますか|建议|下一步|是否|可以/i;

/** The language of the conversation, from the user's words (script first, then common words). */
export function detectLanguage(texts: readonly string[]): string {
  const sample = texts.join(' ').slice(-4000);
  const count = (re: RegExp) => (sample.match(re) ?? []).length;
  const kana = count(/[\u3040-\u30ff]/g);
  const han = count(/[\u4e00-\u9fff]/g);
  const hangul = count(/[\uac00-\ud7af]/g);
  const cyrillic = count(/[\u0400-\u04ff]/g);
  const arabic = count(/[\u0600-\u06ff]/g);
  const latin = count(/[a-z]/gi);
  const scripts: Array<[string, number]> = [['ja', kana * 3 + (kana > 0 ? han : 0)], ['zh', kana > 0 ? 0 : han * 2], ['ko', hangul * 2], ['ru', cyrillic], ['ar', arabic]];
  const [lang, score] = scripts.reduce((a, b) => (b[1] > a[1] ? b : a));
  if (score > 0 && score * 2 >= latin * 0.5) return lang;
  const words = sample.toLowerCase().split(/[^a-zà-ÿ]+/);
  const hits = (list: string[]) => words.filter((w) => list.includes(w)).length;
  const latinScores: Array<[string, number]> = [
    ['en', hits(['the', 'and', 'to', 'is', 'it', 'this', 'that', 'please', 'with', 'for', 'add', 'fix'])],
    ['es', hits(['el', 'la', 'de', 'que', 'y', 'por', 'para', 'con', 'una', 'los', 'las', 'añade'])],
    ['fr', hits(['le', 'la', 'les', 'des', 'est', 'et', 'pour', 'avec', 'une', 'dans', 'ajoute', 'peux'])],
    ['de', hits(['der', 'die', 'das', 'und', 'ist', 'mit', 'nicht', 'ein', 'eine', 'bitte', 'füge', 'für'])],
    ['pt', hits(['o', 'os', 'de', 'que', 'e', 'não', 'uma', 'para', 'com', 'você', 'adicione', 'por'])],
  ];
  const [best, n] = latinScores.reduce((a, b) => (b[1] > a[1] ? b : a));
  return n >= 2 ? best : 'en';
}

// A short reply that starts with an acknowledgement ("yeah, do it all", "ok go ahead with option 2").
const ACK_START = /^(y|yes|yep|yeah|ok|okay|sure|go|do it|please|no|nope|continue|proceed|sounds good|great|perfect|lgtm)\b/i;

function isAcknowledgement(line: string): boolean {
  return ACK.test(line) || (ACK_START.test(line) && line.split(/\s+/).length <= 5);
}

function firstLine(text: string): string {
  const line = text.split(/\r?\n/).map((l) => l.trim()).find((l) => l && !/^```/.test(l)) ?? '';
  return sanitizeLine(line.replace(/^#+\s*/, '').replace(/^[>*-]\s+/, '').replace(/^\d{1,2}[.)]\s+/, ''));
}

function fit(text: string, width: number): string {
  return truncateToWidth(sanitizeLine(text), width);
}

/** The user's task in their own words: the latest real request, not a "yes"/"go on". */
export function pickTask(ctx: Pick<RecapContext, 'requests' | 'firstRequest' | 'summaries' | 'title'>): string | undefined {
  // The latest request that states a task: not an acknowledgement, and not a short reply to the agent
  // ("minor, this is a big change") when an earlier request says more.
  let shortReply: string | undefined;
  for (let i = ctx.requests.length - 1; i >= 0; i--) {
    const line = firstLine(ctx.requests[i] as string);
    if (!line || isAcknowledgement(line) || displayWidth(line) < 6) continue;
    if (line.split(/\s+/).length > 6 || /[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]/.test(line)) return line;
    shortReply ??= line;
  }
  if (shortReply) return shortReply;
  const first = ctx.firstRequest ? firstLine(ctx.firstRequest) : '';
  if (first) return first;
  if (ctx.title) return firstLine(ctx.title);
  return ctx.summaries.length ? firstLine(ctx.summaries[ctx.summaries.length - 1] as string) : undefined;
}

function sentences(text: string): string[] {
  return text
    .replace(/```[\s\S]*?```/g, ' ')
    .split(/(?<=[.!?。！？])\s+|\n+/)
    .map((s) => sanitizeLine(s.replace(/^[#>*\-\d.)\s]+/, '').replace(/\*\*/g, '')))
    .filter((s) => s.length > 2);
}

/** The agent's question (last sentence ending in ?), or its last proposal of what comes next. */
export function agentNextStep(text: string | undefined, wantQuestion: boolean): string | undefined {
  if (!text) return undefined;
  const list = sentences(text.slice(-2000));
  if (wantQuestion) {
    const q = [...list].reverse().find((s) => /[?？]$/.test(s));
    if (q) return q;
  }
  return [...list].reverse().find((s) => PROPOSAL.test(s));
}

function shortPath(path: string, cwd: string | undefined): string {
  if (cwd && path.startsWith(cwd.endsWith('/') ? cwd : cwd + '/')) return path.slice(cwd.length + (cwd.endsWith('/') ? 0 : 1));
  return path;
}

function baseName(path: string): string {
  const parts = path.split(/[/\\]/).filter(Boolean);
  return parts[parts.length - 1] ?? path;
}

// Files as the project knows them (relative to its folder) when short enough, else their names.
function listFiles(files: readonly string[]): string {
  const names = [...new Set(files.map((f) => (f.length <= 24 && !f.startsWith('/') ? f : baseName(f))))];
  const shown = names.slice(-3);
  return shown.join(', ') + (names.length > shown.length ? ` +${names.length - shown.length}` : '');
}

function commitMessage(command: string): string | undefined {
  // git commit -m "$(cat <<'EOF' subject … EOF)": the subject follows the heredoc marker.
  // (Commands are folded to one line and may be cut: the closing marker can be missing.)
  const heredoc = /<<-?\s*['"]?(\w+)['"]?\s+(.+?)(?:\s+\1\b|$)/.exec(command);
  if (heredoc) return heredoc[2]?.split(/ Co-Authored-By:|\. /)[0]?.trim();
  const m = /\s-[a-zA-Z]*m\s*(?:"([^"]+)"|'([^']+)'|(\S+))/.exec(command);
  return m ? (m[1] ?? m[2] ?? m[3]) : undefined;
}

function testLabel(command: string): string {
  const m = TEST_COMMAND.exec(command);
  return (m?.[0] ?? command).trim();
}

interface Facts {
  task?: string;
  files: string[];
  commits: string[];
  pushed: boolean;
  lastTest?: { command: string; ok?: boolean };
  testedAfterEdit: boolean;
  urls: string[];
}

function gatherFacts(ctx: RecapContext): Facts {
  const commits: string[] = [];
  let pushed = false;
  let lastTest: { command: string; ok?: boolean } | undefined;
  for (const c of ctx.commands) {
    if (COMMIT_COMMAND.test(c.command) && c.ok !== false) commits.push(commitMessage(c.command) ?? 'changes');
    if (PUSH_COMMAND.test(c.command) && c.ok !== false) pushed = true;
    if (TEST_COMMAND.test(c.command)) lastTest = { command: testLabel(c.command), ok: c.ok };
  }
  // A test counts as run after the edits when a test command follows the last edit in the dialogue.
  let testedAfterEdit = false;
  for (const item of ctx.dialogue) {
    if (item.role !== 'tool') continue;
    if (/^(edit|write|multiedit|apply_patch|str_replace|create|replace|write_file|notebookedit)/i.test(item.text)) testedAfterEdit = false;
    else if (TEST_COMMAND.test(item.text)) testedAfterEdit = true;
  }
  const urls = [...new Set((ctx.lastAssistant?.match(URL) ?? []).map((u) => u.replace(/[.,;:]+$/, '')))].slice(0, 5);
  return { task: pickTask(ctx), files: ctx.filesTouched.map((f) => shortPath(f, ctx.cwd)), commits, pushed, lastTest, testedAfterEdit: testedAfterEdit || (lastTest !== undefined && ctx.filesTouched.length === 0), urls };
}

function statusOf(ctx: RecapContext): RecapStatus {
  switch (ctx.ending) {
    case 'empty':
      return 'empty';
    case 'interrupted':
      return 'aborted';
    case 'api-error':
      return 'errored';
    case 'question':
      return 'waiting';
    case 'finished':
      return ctx.activity === 'working' ? 'working' : 'idle';
    case 'mid-tool':
    case 'mid-turn':
      if (ctx.activity === 'waiting') return 'waiting';
      if (ctx.activity === 'exited') return 'aborted';
      return 'working';
  }
}

function endingPhrase(ctx: RecapContext, facts: Facts): string {
  const tool = ctx.pendingTool ? fit(ctx.pendingTool, 50) : 'a tool';
  switch (ctx.ending) {
    case 'empty':
      return 'nothing asked yet';
    case 'interrupted':
      return 'interrupted by you';
    case 'api-error': {
      const err = ctx.errors[ctx.errors.length - 1];
      const did = facts.files.length || ctx.counts.toolCalls ? '' : '; nothing was done';
      return `stopped on an API error${err ? ` (${fit(err, 60)})` : ''}${did}`;
    }
    case 'question':
      return 'waiting for your answer';
    case 'finished':
      if (facts.lastTest?.ok === false) return 'finished with failing checks';
      if (facts.files.length && !facts.testedAfterEdit) return 'finished, not yet tested';
      return 'finished';
    case 'mid-tool':
      if (ctx.activity === 'working') return `running ${tool}`;
      if (ctx.activity === 'waiting') return `waiting for your approval of ${tool}`;
      return `cut off mid-tool-call (${tool})`;
    case 'mid-turn':
      if (ctx.activity === 'working') return 'working';
      if (ctx.activity === 'waiting') return 'waiting for you';
      return 'cut off before the agent answered';
  }
}

function nextStep(ctx: RecapContext, facts: Facts): string {
  const tool = ctx.pendingTool ? fit(ctx.pendingTool, 40) : 'the last tool call';
  switch (ctx.ending) {
    case 'empty':
      return 'type the first request';
    case 'interrupted':
      return facts.task ? `redirect or re-run "${fit(facts.task, 50)}"` : 'say how to continue';
    case 'api-error':
      return 'fix the provider problem (key, credit, rate limit) and retry';
    case 'question':
      return `answer: ${agentNextStep(ctx.lastAssistant, true) ?? 'the agent’s question'}`;
    case 'mid-tool':
      if (ctx.activity === 'waiting') return `approve or deny ${tool}`;
      if (ctx.activity === 'working') return 'let the turn finish';
      return `check whether ${tool} finished, then continue`;
    case 'mid-turn':
      return ctx.activity === 'working' ? 'let the turn finish' : 'ask the agent to continue';
    case 'finished': {
      if (facts.lastTest?.ok === false) return `fix what fails in ${facts.lastTest.command}`;
      const proposal = agentNextStep(ctx.lastAssistant, false);
      if (proposal) return proposal;
      if (facts.files.length && !facts.testedAfterEdit) return 'review the changes and run the tests';
      if (facts.files.length && !facts.commits.length) return 'review and commit the changes';
      return 'give the next task';
    }
  }
}

function doneItems(ctx: RecapContext, facts: Facts): string[] {
  const done: string[] = [];
  if (facts.files.length) done.push(`changed ${listFiles(facts.files)}`);
  if (facts.commits.length) done.push(`committed "${fit(facts.commits[facts.commits.length - 1] as string, 50)}"${facts.pushed ? ' and pushed' : ''}`);
  if (facts.lastTest) done.push(`${facts.lastTest.command} ${facts.lastTest.ok === false ? 'failed' : facts.lastTest.ok ? 'passed' : 'ran'}`);
  if (!done.length && ctx.counts.toolCalls) done.push(`${ctx.counts.toolCalls} tool call${ctx.counts.toolCalls === 1 ? '' : 's'}, no file changed`);
  return done;
}

function artifactsOf(ctx: RecapContext, facts: Facts): RecapArtifact[] {
  const out: RecapArtifact[] = [];
  for (const f of ctx.filesTouched.slice(-8)) out.push({ kind: 'file', label: baseName(f), locator: f });
  for (const c of facts.commits.slice(-3)) out.push({ kind: 'commit', label: c, locator: c });
  for (const u of facts.urls) out.push({ kind: PR_URL.test(u) ? 'pr' : 'url', label: u, locator: u });
  if (facts.lastTest) out.push({ kind: 'command', label: facts.lastTest.command, locator: facts.lastTest.command });
  return out;
}

export function heuristicRecap(ctx: RecapContext): RecapDraft {
  const facts = gatherFacts(ctx);
  const status = statusOf(ctx);
  const language = detectLanguage(ctx.requests);
  const ending = endingPhrase(ctx, facts);
  const done = doneItems(ctx, facts);
  const next = nextStep(ctx, facts);
  const task = facts.task ? `"${fit(facts.task, 70)}"` : undefined;
  if (ctx.ending === 'empty') {
    return { line: 'recap: nothing asked yet in this session. Next: type the first request.', headline: 'nothing asked yet', done: [], next: [next], artifacts: [], status, language };
  }
  const head = `recap: ${task ? `${task} — ` : ''}${ending}${done.length ? `; ${done.join(', ')}` : ''}.`;
  const nextText = next.replace(/[:：,;]$/, '');
  const nextPart = `Next: ${nextText}${/[.!?。！？]$/.test(nextText) ? '' : '.'}`;
  // Keep "Next:" visible: cut the head first, then the next step.
  const headRoom = Math.max(90, LINE_MAX - 1 - Math.min(displayWidth(nextPart), 110));
  const headText = truncateToWidth(sanitizeLine(head), headRoom);
  const line = truncateToWidth(`${headText} ${truncateToWidth(sanitizeLine(nextPart), LINE_MAX - 1 - displayWidth(headText))}`, LINE_MAX);
  const shortEnding = truncateToWidth(ending, 40);
  const headline = truncateToWidth(`${truncateToWidth(sanitizeLine(facts.task ?? 'session'), HEADLINE_MAX - 2 - displayWidth(shortEnding))}: ${shortEnding}`, HEADLINE_MAX);
  return { line, headline, done, next: [sanitizeLine(next)], artifacts: artifactsOf(ctx, facts), status, language };
}

/** A short line while the agent works: the task and what it is doing right now. */
export function workingLine(ctx: RecapContext): string {
  const task = pickTask(ctx);
  const doing = ctx.pendingTool ?? (ctx.ending === 'mid-turn' ? 'thinking' : undefined);
  const text = `working: ${task ? `"${fit(task, 70)}"` : 'the current turn'}${doing ? ` — ${fit(doing, 80)}` : ''}`;
  return truncateToWidth(sanitizeLine(text), LINE_MAX);
}
