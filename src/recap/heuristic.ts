/**
 * The offline recap: extractive, deterministic, instant. It writes what a person writes when glancing
 * back, as parts composed by priority for any width: the state in a few words, the outcome in the agent's
 * own words (its sentences that say what was done or found), the subject (the task's gist), and the next
 * step (the agent's question or proposal, the failing check, the pending tool as a person says it).
 * It never says "done" for a turn that was cut off, failed or interrupted. Pure: no I/O.
 */
import { sanitizeLine } from '../util/sanitize.js';
import { displayWidth, truncateToWidth } from '../util/text-width.js';
import { composeParts } from './compose.js';
import { commandOf, type RecapContext, type ToolStep, type Turn } from './context.js';
import { specificNext } from './next-step.js';
import { shortenPaths } from './paths.js';
import { findQuestion, isGenericOffer, isQuestion, splitSentences, stripInlineMarkdown, type Sentence } from './sentences.js';
import { RECAP_LINE_MAX_CHARS, type Recap, type RecapArtifact, type RecapParts, type RecapStatus } from './types.js';

/** A recap's text, before the engine adds who wrote it, for which session and when. */
export type RecapDraft = Omit<Recap, 'generator' | 'session' | 'stamp' | 'createdAt'>;

const HEADLINE_MAX = 80;
const LABEL = 'recap: ';

// Replies that answer the agent rather than state a task.
const ACK = /^(y|yes|yep|yeah|yup|no|nope|ok|okay|k|sure|go|go on|go ahead|continue|proceed|do it|please do|please continue|keep going|next|thanks|thank you|lgtm|sounds good|perfect|great|good|cool|nice|done|retry|try again|all|both|option \w+|\w|\d+|はい|いいえ|お願いします|続けて|继续|好|好的|是|可以|行|对|네|계속|sí|si|vale|oui|ja)[\s.!。！,]*(please|pls|thanks|thank you)?[\s.!。！]*$/i;
// A short reply that starts with an acknowledgement ("yeah, do it all", "ok go ahead with option 2").
const ACK_START = /^(y|yes|yep|yeah|ok|okay|sure|go|do it|please|no|nope|continue|proceed|sounds good|great|perfect|lgtm|thanks)\b/i;

const TEST_COMMAND = /\b((npm|pnpm|yarn|bun)\s+(run\s+)?(test|check|typecheck|lint|build)\b|vitest|jest|pytest|mocha|rspec|phpunit|cargo\s+(test|check|build|clippy)|go\s+(test|vet|build)|make\s+(test|check)|tsc\b|gradlew?\s+\S*(test|build|compile)\w*|mvn\s+(test|verify|package)|deno\s+test|ctest|tox\b|ruff|eslint)/i;
const EDIT_TOOL = /edit|write|patch|replace|create_file|str_replace|notebook|multiedit/i;
const ASK_TOOL = /^(AskUserQuestion|request_user_input|ask_user|ask_followup_question|.*AskQuestions?)$/i;
const URL = /https?:\/\/[^\s<>"'`)\]]+/g;
const PR_URL = /\/pull\/\d+|\/merge_requests\/\d+/;
const CJK = /[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]/;
const CODE_FILE = /\.(ts|tsx|js|jsx|mjs|cjs|py|rs|go|java|kt|kts|swift|c|cc|cpp|h|hpp|cs|rb|php|scala|sol|vue|svelte|dart|lua|ex|exs|zig|sh)$/i;

// Folder names that say nothing about the project.
const GENERIC_FOLDER = /^(new|tmp|temp|test|src|code|dev|work|workspace|projects?|repos?|git|desktop|documents|downloads|home|users?|root|app|apps|[a-z]:?|untitled|folder|sandbox|scratch|playground)$/i;

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

function isAcknowledgement(text: string): boolean {
  const line = sanitizeLine(text);
  return ACK.test(line) || (ACK_START.test(line) && line.split(/\s+/).length <= 5);
}

// A slash command that only manages the session (no task in it).
function isHousekeepingCommand(text: string): boolean {
  return /^\/[\w:-]+\s*$/.test(text.trim()) && !/^\/(init|review|security-review|pr-comments|test|fix)\b/i.test(text.trim());
}

function cutWords(text: string, max: number): string {
  if (displayWidth(text) <= max) return text;
  const hard = truncateToWidth(text, max);
  const body = hard.slice(0, -1);
  const space = body.lastIndexOf(' ');
  return space > max / 2 ? `${body.slice(0, space).replace(/[\s,;:—-]+$/u, '')}…` : hard;
}

// Articles carry nothing in a few words: dropped inside English sentences (never at their start).
function dropArticles(text: string): string {
  if (!/^[\x00-\x7f]*$/.test(text.replace(/[’‘“”—–…]/g, ''))) return text;
  return text.replace(/(?<=[A-Za-z0-9,;:)"'`] )(the|a|an) (?=[\w"'`])/gi, '');
}

// A line a person wrote, not pasted markup, log output, JSON or a fragment (`[INFO] …`, `<tag …>`, `{`, `foo)`).
function looksLikeWords(line: string): boolean {
  // Pasted or romanised text run together (`haiimakennsyousitekureta…`): no word of a language is this long.
  if (/(?<![\w/.:-])[a-z]{24,}(?![\w/.-])/i.test(line.replace(/https?:\/\/\S+/g, ''))) return false;
  // A scrap of JSON or a list of quoted strings (`"mcp-remote", "https://…"`): no words outside the quotes.
  if (/^["'`]/.test(line) && ((line.replace(/"(?:[^"\\]|\\.)*"|'[^']*'|`[^`]*`/g, ' ').match(/\p{L}{3,}/gu) ?? []).length < 2)) return false;
  if (/^[<{}[\]]|^\$ |^[A-Z_]{3,}[^a-z\s]*\s|^\[[A-Z]+\]|^"[^"]+"\s*:|^["'][^"']*["'],?$/.test(line)) return false;
  const opens = (line.match(/\(/g) ?? []).length;
  const closes = (line.match(/\)/g) ?? []).length;
  if (closes > opens && /^[^(]*\)/.test(line)) return false;
  // Words: at least two, or one short phrase of letters (`init`, `deploy`).
  if (!CJK.test(line) && (line.match(/\p{L}{3,}/gu) ?? []).length < 2 && !/^\/?\p{L}[\p{L}\s-]{2,30}$/u.test(line)) return false;
  return codeRatio(line) < 0.08;
}

/** A request that states a task: written words, not only markup or a pasted log. */
function statesTask(text: string): boolean {
  return text.split(/\r?\n/).some((l) => l.trim() && looksLikeWords(l.trim()));
}

/**
 * The gist of a request in a few words: its first sentence without greetings and requests for help
 * ("can you", "please", "help me"), markdown or code.
 */
export function gistOf(request: string): string {
  const lines = request.split(/\r?\n/).map((l) => l.trim());
  let text = '';
  let fence = false;
  for (const l of lines) {
    if (/^(```|~~~)/.test(l)) {
      fence = !fence;
      continue;
    }
    if (fence || !l || /^https?:\/\/\S+$/.test(l) || !looksLikeWords(l)) continue;
    text = l;
    break;
  }
  text = sanitizeLine(stripInlineMarkdown(text.replace(/^#+\s*/, '').replace(/^[>*-]\s+/, '').replace(/^\d{1,2}[.)]\s+/, '')));
  const polite = /^(hi|hello|hey|ok(ay)?|so|now|alright|great|thanks|thank you)\b[!,.]*\s+|^(please|pls|kindly|can you|could you|would you|will you|can we|could we|i want you to|i'd like you to|i would like you to|i need you to|i want to|i'd like to|i need to|help me( to)?|let's|lets|go ahead and)\b[,\s]*/i;
  for (let i = 0; i < 4 && polite.test(text); i++) text = text.replace(polite, '');
  const sentences = text.split(/(?<=[.!?])\s+|(?<=[。！？])|\s\d\.\s/u).filter((x) => x.trim());
  // A role prompt ("You are an expert …") is not the task: the sentence after it is.
  const first = (sentences.length > 1 && /^you are (a|an|the)\b/i.test(sentences[0] as string) ? sentences[1] : sentences[0]) ?? text;
  // Articles and determiners carry nothing in a few words (English only; other languages stay as written).
  // No dangling punctuation from a list it was cut from (`…~30 words),` / `Steps:`).
  const gist = dropArticles(first.replace(/[\s.!。！,，、;；:：]+$/u, '')).trim();
  return cutWords(gist, 80);
}

function folderName(cwd: string | undefined): string | undefined {
  if (!cwd) return undefined;
  const parts = cwd.split(/[/\\]/).filter(Boolean);
  const name = parts[parts.length - 1];
  if (!name) return undefined;
  // A home folder (/home/x, /Users/x, C:\Users\x) is not a project.
  const parent = parts[parts.length - 2]?.toLowerCase();
  if (parent === 'home' || parent === 'users' || GENERIC_FOLDER.test(name)) return undefined;
  return name;
}

function substantive(turn: Turn | undefined): boolean {
  const r = turn?.request?.trim();
  // A slash command is never the task, with or without arguments (`/model opus`, `/compact keep the API`).
  if (!r || turn?.command || isAcknowledgement(r) || isHousekeepingCommand(r) || !statesTask(r)) return false;
  return r.length >= 3 || CJK.test(r);
}

/**
 * The user's task in their own words: the latest real request, not a "yes"/"go on". A short reply to the
 * agent ("minor, this is a big change") gives way to a longer request among the last few.
 */
export function pickTask(ctx: Pick<RecapContext, 'requests' | 'firstRequest' | 'summaries' | 'title' | 'turns'>): string | undefined {
  const recent: string[] = [];
  for (let i = ctx.turns.length - 1; i >= 0; i--) if (substantive(ctx.turns[i])) recent.push(ctx.turns[i]?.request as string);
  for (let i = ctx.requests.length - 1; i >= 0 && recent.length < 3; i--) {
    const r = ctx.requests[i] as string;
    if (!isAcknowledgement(r) && !isHousekeepingCommand(r) && statesTask(r) && (r.trim().length >= 3 || CJK.test(r)) && !recent.some((x) => x.startsWith(r.slice(0, 100)))) recent.push(r);
  }
  const long = recent.slice(0, 3).find((r) => CJK.test(r) || r.trim().split(/\s+/).length > 6);
  for (const r of long ? [long, ...recent] : recent) {
    const gist = gistOf(r);
    if (gist) return gist;
  }
  const fallback = [ctx.title, ctx.firstRequest].find((t) => t && !isAcknowledgement(t) && statesTask(t));
  const gist = fallback ? gistOf(fallback) : '';
  return gist || undefined;
}

function baseName(path: string): string {
  const parts = path.split(/[/\\]/).filter(Boolean);
  return parts[parts.length - 1] ?? path;
}

function shortPath(path: string, cwd: string | undefined): string {
  let p = path;
  if (cwd) {
    const base = cwd.replace(/[/\\]+$/, '');
    if (p.startsWith(base + '/') || p.startsWith(base + '\\')) p = p.slice(base.length + 1);
  }
  return p.length <= 32 && !/^([a-z]:)?[/\\]/i.test(p) ? p : truncateToWidth(baseName(p), 32);
}

function argOf(args: string, key: string): string | undefined {
  const m = new RegExp(`(?:^|[\\s{,])"?${key}"?\\s*[=:]\\s*"((?:[^"\\\\]|\\\\.)*)"`).exec(args);
  if (!m) return undefined;
  try {
    return JSON.parse(`"${m[1]}"`) as string;
  } catch {
    return m[1];
  }
}

function unquote(token: string): string {
  return token.replace(/^['"]|['"]$/g, '');
}

/** A shell command as a person names it: `running deploy.sh`, `reading lib.rs`, `running npm test`, `git push`. */
export function describeCommand(command: string, cwd?: string): string {
  const segments = command.replace(/\\\n/g, ' ').split(/\s*(?:&&|\|\||;|\n|\\n)\s*/).map((s) => s.trim()).filter(Boolean);
  const useful = segments.find((s) => !/^(cd|echo|printf|export|set|source|\.|pwd|true|clear|sleep|mkdir|date)\b/.test(s)) ?? segments[0] ?? command;
  const first = useful.split(/\s*\|\s*/)[0] ?? useful;
  const tokens = (first.match(/"[^"]*"|'[^']*'|\S+/g) ?? []).filter((t) => !/^\w+=\S*$/.test(t));
  while (tokens.length && /^(sudo|time|exec|env|nohup|command)$/.test(tokens[0] as string)) {
    tokens.shift();
    while (tokens.length && /^-/.test(tokens[0] as string)) tokens.shift();
  }
  const prog = baseName(unquote(tokens[0] ?? ''));
  const rest = tokens.slice(1).map(unquote);
  const nonFlag = rest.filter((t) => !t.startsWith('-'));
  const test = TEST_COMMAND.exec(first);
  if (test) return `running ${test[0].trim()}`;
  if (/^(bash|sh|zsh|fish|python\d?(\.\d+)?|node|deno|bun|ruby|perl|tsx|ts-node|pwsh|powershell)$/.test(prog)) {
    const script = nonFlag.find((t) => /\.\w{1,4}$/.test(t));
    if (script) return `running ${baseName(script)}`;
  }
  if (/\.(sh|py|js|mjs|ts|rb|pl|ps1|bat|cmd)$/.test(prog)) return `running ${prog}`;
  if (/^(sed|cat|head|tail|nl|less|more|bat|Get-Content|type|wc)$/i.test(prog)) {
    const file = [...nonFlag].reverse().find((t) => /[\w-]\.\w{1,8}$|\/[\w.-]+$/.test(t));
    if (file) return `reading ${shortPath(file, cwd)}`;
  }
  if (/^(rg|grep|ag|find|fd|ls|tree|Get-ChildItem|dir|locate)$/i.test(prog)) return prog === 'ls' || prog === 'tree' || /Get-ChildItem|dir/i.test(prog) ? 'listing files' : 'searching the code';
  if (prog === 'git') {
    const args = rest.filter((t, i) => !(/^-[Cc]$/.test(t) || /^-[Cc]$/.test(rest[i - 1] ?? '')));
    const sub = args.filter((t) => !/^-/.test(t));
    const words = (sub[0] === 'commit' ? ['commit'] : sub.slice(0, sub[0] === 'push' || sub[0] === 'pull' ? 1 : 2)).join(' ');
    return `running git ${words}`.trim();
  }
  if (/^(curl|wget|http)$/.test(prog)) {
    const url = rest.find((t) => /^https?:\/\//.test(t));
    return url ? `fetching ${url.replace(/^https?:\/\//, '').split('/')[0]}` : `running ${prog}`;
  }
  if (/^(cp|mv|Copy-Item|Move-Item|rsync)$/i.test(prog) && nonFlag[0]) return `${/^(mv|Move-Item)$/i.test(prog) ? 'moving' : 'copying'} ${shortPath(nonFlag[0], cwd)}`;
  if (!/^[\w+-]{1,30}$/.test(prog) || /^\$/.test(tokens[0] ?? '')) return scriptAction(command) ?? 'running a shell command';
  const words = [prog, ...nonFlag.slice(0, 2)].filter((t) => /^[\w@./:+-]{1,40}$/.test(t) && !/^['"$]/.test(t));
  return cutWords(`running ${words.join(' ') || prog}`, 48);
}

/**
 * What a multi-line script (PowerShell or shell, starting with variable assignments) does, from the
 * strongest action word in it: a copy or move (with the one file name it quotes), a git step, a check.
 */
function scriptAction(command: string): string | undefined {
  const test = TEST_COMMAND.exec(command);
  if (test) return `running ${test[0].trim()}`;
  const git = /\bgit\s+(commit|push|pull|clone|merge|rebase|checkout|switch|tag)\b/.exec(command);
  if (git) return `running git ${git[1]}`;
  const copy = /(?:^|[\s;|&({])(Copy-Item|cp|rsync|robocopy|xcopy|Move-Item|mv)\s/i.exec(command);
  if (copy) {
    const files = [...new Set([...command.matchAll(/["']([\w.-]+\.[A-Za-z]\w{0,7})["']/g)].map((m) => m[1] as string))];
    return `${/^(Move-Item|mv)$/i.test(copy[1] as string) ? 'moving' : 'copying'} ${files.length === 1 ? files[0] : 'files'}`;
  }
  if (/(?:^|[\s;|&({])(Invoke-WebRequest|Invoke-RestMethod|curl|wget)\s/i.test(command)) return 'fetching a page';
  return undefined;
}

/** A tool call as a person names it: never its raw arguments, JSON or code. */
export function describeTool(step: Pick<ToolStep, 'name' | 'args' | 'command' | 'paths'>, cwd?: string): string {
  const name = step.name;
  const command = commandOf(step);
  const description = argOf(step.args, 'description');
  if (command) {
    const said = describeCommand(command, cwd);
    // The agent's own words for a command (Claude's `description`) unless the command names itself
    // well (a script, a check, git, a file read).
    if (description && !STRONG_COMMAND.test(said) && displayWidth(description) <= 60) return asDoing(sanitizeLine(description).replace(/[.]$/, ''));
    return said;
  }
  if (step.paths.length && EDIT_TOOL.test(name)) {
    const verb = /write|create/i.test(name) ? 'writing' : 'editing';
    const files = [...new Set(step.paths.map((p) => shortPath(p, cwd)))];
    return `${verb} ${files.slice(0, 2).join(', ')}${files.length > 2 ? ` +${files.length - 2}` : ''}`;
  }
  const file = argOf(step.args, 'file_path') ?? argOf(step.args, 'absolute_path') ?? argOf(step.args, 'path');
  if (/read|view|open|cat/i.test(name) && file) return `reading ${shortPath(file, cwd)}`;
  if (/web_?search|google|search_web/i.test(name)) {
    const q = argOf(step.args, 'query');
    return q && displayWidth(q) <= 50 ? `searching the web for ${q}` : 'searching the web';
  }
  if (/fetch|browse|url/i.test(name)) {
    const url = argOf(step.args, 'url') ?? (step.args.match(URL) ?? [])[0];
    return url ? `fetching ${url.replace(/^https?:\/\//, '').split('/')[0]}` : 'fetching a page';
  }
  if (/grep|glob|search|find/i.test(name)) return 'searching the code';
  if (/^(ls|list_dir\w*|list_directory)$/i.test(name)) return 'listing files';
  if (/^(agent|task|invoke_agent|spawn_agent|.*__Agents?)$/i.test(name)) return description ? `running a subagent: ${lowerFirst(cutWords(description, 40))}` : 'running a subagent';
  if (/todo|plan|phase/i.test(name)) return /exitplanmode/i.test(name) ? 'presenting a plan' : 'updating the plan';
  if (/^skill$|activate_skill/i.test(name)) {
    const skill = argOf(step.args, 'skill') ?? argOf(step.args, 'name');
    return skill ? `using the ${skill} skill` : 'using a skill';
  }
  const mcp = /^mcp__(?:[^_]+(?:_[^_]+)*?)__(.+)$/.exec(name);
  const shown = (mcp?.[1] ?? name).replace(/[_-]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().trim();
  return `calling ${cutWords(shown, 30)}`;
}

const STRONG_COMMAND = /^(running \S+\.(sh|py|js|mjs|cjs|ts|rb|pl|ps1|bat|cmd)$|running (npm|pnpm|yarn|bun|cargo|go|make|pytest|vitest|jest|tsc|gradlew?|mvn|deno|ruff|eslint)\b|running git\b|reading |copying |moving )/;
const DOUBLED = /^(run|get|set|put|stop|drop|plan|begin|ship|skip|split|scan|commit|submit|shut|cut|hit|dig|swap|tap|log|grab|wrap|chop|trim)$/i;

// "Move source to workbench" → "moving source to workbench": a description as what is going on.
function asDoing(description: string): string {
  const m = /^([A-Za-z]+)\b(.*)$/.exec(description);
  if (!m || /ing$/i.test(m[1] as string)) return lowerFirst(description);
  const verb = (m[1] as string).toLowerCase();
  if (!/^[a-z]{2,12}$/.test(verb) || /^(the|a|an|this|that|all|new|npm|git|to|for|in|on|of)$/.test(verb)) return `running: ${description}`;
  const ing = DOUBLED.test(verb) ? `${verb}${verb.slice(-1)}ing` : /[^e]e$/.test(verb) ? `${verb.slice(0, -1)}ing` : /ie$/.test(verb) ? `${verb.slice(0, -2)}ying` : `${verb}ing`;
  return `${ing}${m[2]}`;
}

function lowerFirst(s: string): string {
  return /^[A-Z][a-z]/.test(s) ? s[0]?.toLowerCase() + s.slice(1) : s;
}

/** Several pending calls in a few words: one verb with its objects when they share it. */
function describeTools(steps: readonly ToolStep[], cwd?: string): string {
  const all = steps.map((s) => describeTool(s, cwd));
  const verb0 = all[all.length - 1]?.split(' ')[0];
  let from = all.length - 1;
  while (from > 0 && all[from - 1]?.split(' ')[0] === verb0 && all.length - from < 3) from--;
  const said = [...new Set(all.slice(from))];
  if (said.length === 1) return said[0] as string;
  // Commands do not list well ("running git log, git remote"): the last one that says something.
  if (verb0 === 'running') return [...said].reverse().find((s) => s !== 'running a shell command') ?? (said[said.length - 1] as string);
  const verb = said[0]?.split(' ')[0];
  if (verb && said.every((s) => s.split(' ')[0] === verb)) return cutWords(`${verb} ${said.map((s) => s.slice(verb.length + 1)).join(', ')}`, 60);
  return said[said.length - 1] as string;
}

// --- Sentences of the agent's answer ---

const PLEASANTRY = /^(great|awesome|perfect|excellent|nice|cool|sure|of course|certainly|absolutely|got it|understood|you're welcome|no problem|happy to help|glad|thanks|thank you|okay|ok|alright|all set|done|here you go|here's|here is|here are|good (question|catch|point))\b,?( \w+)?[!.,]?\s*$|\b(hope (this|that) helps|feel free|happy to help|glad (it|that|to)|enjoy|let me know if|don't hesitate|good luck|have fun)\b/i;
const INTENT = /^(now,? |let me|let's|i'll|i will|i'm going to|i am going to|now (let me|i'll|i will)|first,? (let me|i'll)|next,? (let me|i'll)|i need to|i should|i'm (now )?(using|checking|looking|reading|running|going|starting|exporting|copying))\b|^(让我|我来|我先|我将|まず|次に)/i;
// A short announcement of a step ("Re-running the tests.", "Checking the config first."): in a turn that has
// ended, what the agent was about to do then, not where the work stands.
const PROGRESS = /^(?:re-?)?[a-z]+ing\b[^.!?]{0,50}[.…]?$/i;
const RESULT = /\b(done|fixed|added|updated|created|removed|deleted|renamed|moved|committed|pushed|merged|deployed|published|released|passe[sd]|passing|fail(s|ed|ing|ure)?|found|works|implemented|shipped|landed|built|installed|configured|verified|confirmed|resolved|refactored|wrote|written|generated|exported|live|ready|error|because|cause[sd]?|risk|finding|missing|broken|can't|cannot|isn't|aren't|doesn't|won't|no longer|root cause|succeeded|complete[ds]?|finished|need(s)? more (context|info|information|details))\b|完成|已|修复|添加|更新|失败|通过|推送|提交|创建|删除|发现|完了|修正|追加|作成|成功|失敗|確認|しました|완료|수정|추가|했습니다/i;
const FILEISH = /\b[\w-]+\.(?:[a-z]{1,5})\b|(?:^|\s)[\w.-]*\/[\w./-]+/i;
const CODEISH = /[{};=<>]|=>|\(\)|^\s*(const|let|var|import|export|def|function|class|return|if|for)\b/;

// How much of a sentence is code: braces, semicolons, assignments, calls (`name(`).
function codeRatio(s: string): number {
  return ((s.match(/[{}[\];=<>$\\|]/g) ?? []).length + (s.match(/\w\(/g) ?? []).length) / Math.max(1, s.length);
}

// Sentences that sum up ("The main risk is …", "In short, …", "Root cause: …").
const SUMMARY = /\b(main (risk|finding|issue|problem|change|point)|key (finding|point|change)|root cause|the (problem|issue|cause|fix|result) (is|was)|in short|tl;?dr|bottom line|to summari[sz]e|in summary|overall|conclusion)\b|总结|总之|结论|要するに|まとめ/i;

function cleanSentence(s: string): string {
  return sanitizeLine(s.replace(/^(so|ok(ay)?|alright|now|well|done|great|perfect|good news)[,!.:—-]+\s*/i, '').replace(/[:：]$/, '.'));
}

/**
 * An English sentence in the few words of a note: no "I've"/"I have" before the verb, no articles,
 * "The main risk is that X" as "main risk: X". Other languages stay as written.
 */
export function telegraphic(s: string): string {
  if (CJK.test(s) || !/\b(the|a|an|is|I|I've|I have)\b/i.test(s)) return s;
  let t = s
    .replace(/^I(?:'ve| have)\s+(?=\w)/i, '')
    .replace(/^I\s+(?=(found|fixed|added|updated|created|removed|renamed|moved|committed|pushed|merged|ran|wrote|checked|verified|implemented|built|changed|replaced|refactored|deleted|installed|set up|read|reviewed)\b)/i, '')
    .replace(/^(?:the|a|an)\s+((?:main|key|real|root|only|biggest)\s+\w+)\s+(?:is|was)\s+(?:that\s+)?/i, '$1: ');
  t = dropArticles(t);
  // Capitalize a leading word, never a name: `hello.txt`, `src/app.ts`, `npm`, `parseDuration` stay as written.
  if (!/^\S*[./_\d]|^[a-z]+[A-Z]/.test(t) && !/^(npm|pnpm|yarn|git|gh|make|cargo|go|node|python3?|pip|bun|deno)\b/.test(t)) t = t.replace(/^./, (c) => c.toUpperCase());
  return t.length >= 8 ? t : s;
}

function scoreSentence(s: Sentence, lastMessage: boolean, settled: boolean): number {
  const t = s.text;
  let score = 0;
  if (isQuestion(t)) return -99;
  if (PLEASANTRY.test(t)) return -20;
  if (codeRatio(t) > 0.06 || (CODEISH.test(t) && codeRatio(t) > 0.03)) return -20;
  if (t.length < 14 && !CJK.test(t)) score -= 3;
  if (t.length > 240) score -= 2;
  if (s.listIntro) score -= 3;
  if (/^(pros|cons|note|tip|tradeoff|trade-off|example|e\.g\.|option \w+|caveat)\b[^:：]{0,12}[:：]/i.test(t)) score -= 3;
  if (/^(you (can|could|may|might|should)|if you|want me to)\b/i.test(t)) score -= 2;
  if (/\d/.test(t)) score += 2;
  if (FILEISH.test(t)) score += 2;
  if (/\b[0-9a-f]{7,12}\b/.test(t)) score += 1;
  if (RESULT.test(t)) score += 2;
  if (SUMMARY.test(t)) score += 3;
  if (/https?:\/\//.test(t)) score -= 2;
  if (INTENT.test(t)) score += settled ? -4 : 1;
  else if (settled && PROGRESS.test(t) && !RESULT.test(t.replace(/^\S+/, ''))) score -= 4;
  if (lastMessage) score += settled ? 1 : 2;
  if (s.index === 0) score += 2;
  else if (s.index === 1) score += 1;
  else if (s.index < 5) score += 0.5;
  if (/^\(/.test(t)) score -= 5;
  if (s.listItem) score -= 1.5;
  return score;
}

/** The sentences of the agent's words in a turn that say what was done or found, best first. */
export function outcomeSentences(texts: readonly string[], settled: boolean, max = 2, answersQuestion = false): string[] {
  const scored: Array<{ text: string; score: number; order: number }> = [];
  texts.forEach((text, m) => {
    const last = m === texts.length - 1;
    const list = splitSentences(text.length > 8000 ? text.slice(0, 4000) + '\n\n' + text.slice(-4000) : text);
    // A short lead ("Both commits landed.") reads with the sentence after it.
    for (let i = 0; i < list.length - 1; i++) {
      const a = list[i] as Sentence;
      const b = list[i + 1] as Sentence;
      if (a.text.length <= 24 && !CJK.test(a.text) && !isQuestion(a.text) && !a.listIntro && !b.listIntro && !isQuestion(b.text) && a.paragraph === b.paragraph && !PLEASANTRY.test(a.text) && !ACK.test(a.text)) {
        list.splice(i, 2, { ...a, text: `${a.text} ${b.text}` });
      }
    }
    for (const s of list) {
      // The user asked a question: the answer's opening sentence is the answer.
      const score = scoreSentence(s, last, settled) + (answersQuestion && s.index === 0 && m === 0 ? 2 : 0);
      if (score > 0) scored.push({ text: cleanSentence(s.text), score, order: (texts.length - m) * 10_000 + s.index });
    }
  });
  scored.sort((a, b) => b.score - a.score || a.order - b.order);
  const out: string[] = [];
  for (const s of scored) {
    if (out.length >= max) break;
    const text = telegraphic(s.text);
    if (text && !out.includes(text)) out.push(text);
  }
  return out;
}

// "Want me to copy it?" → "ok to copy it?": the question as the decision it asks for.
function asDecision(question: string): string {
  const m = /^(?:(?:do you )?want me to|should I|shall I|would you like me to|do you want me to|can I|may I)\s+(.+)$/i.exec(question);
  return m ? `ok to ${m[1]}` : question;
}

// The labels of the options listed before or after a question ("1. Stack: …", "Option 2: …").
function optionLabels(text: string): string[] {
  const labels: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*(?:[-*]\s*)?(?:\*\*)?(?:(?:option\s*)?(\d{1,2}|[a-c])[.):]|option\s+(\d{1,2}|[a-c])\b)\s*(?:\*\*)?\s*(.+)$/i.exec(line);
    if (!m) continue;
    const body = stripInlineMarkdown(m[3] ?? '').replace(/\*+/g, '').trim();
    const head = /^([^:：]{2,24})[:：]/.exec(body)?.[1];
    labels.push(cutWords(head && !/^option\b/i.test(head) ? head : body.replace(/^option\s*\w+[:.]?\s*/i, ''), 28));
    if (labels.length >= 4) break;
  }
  return labels.length >= 2 ? labels : [];
}

/** The agent's question (to the user), as the next step. */
export function agentQuestion(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const q = findQuestion(text);
  if (!q) return undefined;
  let said = q.text;
  // "Want me to copy it? Something like session.jsonl?": a short follow-up reads with the question before it.
  if (displayWidth(said) < 40 && !q.listItem) {
    const list = splitSentences(text.slice(-3000));
    const at = list.findIndex((s) => s.text === q.text);
    const before = at > 0 ? list[at - 1] : undefined;
    if (before && isQuestion(before.text) && !before.listItem) said = `${before.text} ${said}`;
  }
  let out = asDecision(cleanQuestion(said));
  const fromList = q.text.includes(':') && /[:：]\s/.test(q.text);
  const labels = fromList ? [] : optionLabels(text).filter((l) => !out.includes(l) && !isQuestion(l));
  if (labels.length && displayWidth(out) < 120) out = `${out.replace(/[:：]$/, '?')} ${labels.slice(0, 3).join(' / ')}`;
  return out;
}

function cleanQuestion(s: string): string {
  return sanitizeLine(s.replace(/^(so|ok(ay)?|alright|now)[,!.:]+\s*/i, ''));
}

const PROPOSAL = /^(next(,| step| steps?:)?|i (can|could|would|'d) (also|next|then)?|you (can|could|may|might|should) (now |then )?|(the )?(next|remaining|follow-up) (step|task|work)s? (is|are|would be)|i (suggest|recommend)|(my )?recommendation|consider|to (finish|complete|ship)|once .+, |then )|\b(next step|still need(s|ed)? to|remaining (work|steps?|tasks?|items?)|todo|follow[- ]up|not yet (done|tested|implemented|committed|pushed))\b|次に|次は|建议|下一步|接下来|还需要|다음/i;

/** The agent's proposal of what comes next, from its last words (not a heading, not a pleasantry). */
export function agentProposal(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const list = splitSentences(text.slice(-3000));
  for (let i = list.length - 1; i >= 0 && i >= list.length - 6; i--) {
    const s = list[i] as Sentence;
    if (PLEASANTRY.test(s.text) || isGenericOffer(s.text) || codeRatio(s.text) > 0.06 || s.text.length < 12) continue;
    if (PROPOSAL.test(s.text) && !s.listIntro) return cleanSentence(s.text.replace(/^([\w-]+\s){0,2}next( steps?)?[,:：]\s*(1[.)]\s*)?/i, ''));
  }
  return undefined;
}

// --- Facts from the tools ---

interface Facts {
  /** What changed in the current turn (files), newest last. */
  files: string[];
  /** The last check run after the last edit, and how it went. */
  check?: { label: string; ok?: boolean; error?: string };
  commitLine?: string;
  commitKey?: string;
  /** A commit followed the turn's last edit. */
  committedAfterEdit: boolean;
}

function gatherFacts(ctx: RecapContext, turn: Turn | undefined): Facts {
  const files: string[] = [];
  let check: Facts['check'];
  let committedAfterEdit = false;
  for (const step of turn?.tools ?? []) {
    const cmd = commandOf(step);
    if (cmd && /\bgit\s+(?:-C\s+\S+\s+)?commit\b/.test(cmd) && step.ok !== false) committedAfterEdit = true;
    if (step.paths.length && EDIT_TOOL.test(step.name)) {
      committedAfterEdit = false;
      for (const p of step.paths) {
        const s = shortPath(p, ctx.cwd);
        const i = files.indexOf(s);
        if (i >= 0) files.splice(i, 1);
        files.push(s);
      }
      check = undefined;
    }
    const command = commandOf(step);
    const test = command ? TEST_COMMAND.exec(command) : null;
    if (test && step.ok !== undefined) {
      // A pipe (`| head`, `| tail`) hides a failing exit code: the check's own output says it failed.
      const error = checkError(step.result ?? '');
      check = { label: test[0].trim(), ok: step.ok && !error, ...(error ? { error } : {}) };
    }
  }
  const commit = ctx.commits[ctx.commits.length - 1];
  let commitLine: string | undefined;
  if (commit) {
    const subject = commit.subject ? `: "${cutWords(commit.subject, 60)}"` : '';
    const verb = commit.pushed ? (commit.hash || commit.subject ? 'committed and pushed' : 'pushed') : 'committed';
    if (commit.hash || commit.subject || commit.pushed) commitLine = `${verb}${commit.hash ? ` ${commit.hash}` : ''}${commit.pushedTo ? ` to ${commit.pushedTo}` : ''}${subject}`;
  }
  return { files, check, commitLine, commitKey: commit?.hash ?? commit?.pushedTo, committedAfterEdit };
}

// The first line of a check's output that reports an error (a compiler's code, a failing test count).
const CHECK_ERROR = /(?:^|\s)((?:[\w./-]+\(\d+,\d+\): )?error (?:TS\d{4}|\[?E\d{4}\]?)[^\n]{0,120}|\d+ (?:tests? )?(?:failed|failing)\b|(?:^|\n)\s*FAIL\s+\S+|npm ERR! [^\n]{0,80}|error: could not compile [^\n]{0,60})/;

export function checkError(output: string): string | undefined {
  const m = CHECK_ERROR.exec(output);
  if (!m?.[1] || /^0 /.test(m[1])) return undefined;
  return cutWords(sanitizeLine(m[1].replace(/^[\w./-]+\(\d+,\d+\): /, '')), 80);
}

function filesPhrase(files: readonly string[]): string {
  const shown = files.slice(-3);
  return `changed ${shown.join(', ')}${files.length > shown.length ? ` +${files.length - shown.length}` : ''}`;
}

// --- API errors ---

function errorMessage(text: string): string {
  const json = /"message"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(text)?.[1];
  const msg = (json ?? text).replace(/^(api\s*)?error:?\s*(\d{3}\b:?)?\s*/i, '').replace(/\{.*$/, '').trim();
  return cutWords(sanitizeLine(msg || text), 90);
}

// The step after a provider error names what to resend (the request that got no answer) when there is one.
function errorNext(text: string, request?: string): string {
  const what = request ? `"${cutWords(request, 32)}"` : 'the request';
  if (/\b429\b|rate.?limit|too many requests|quota|capacity|usage limit|limit reached|hit your limit|resets? (at|in|\d)|限流|频率|レート制限/i.test(text)) return request ? `resend ${what} after the limit resets` : 'retry after the rate limit resets';
  if (/credit|balance|billing|payment|insufficient|额度|余额|欠费|残高|クレジット|잔액/i.test(text)) return `top up credit or switch account, then resend ${what}`;
  if (/\b40[13]\b|auth|api.?key|unauthori[sz]ed|forbidden|log ?in|token (expired|invalid)|permission/i.test(text)) return 'log in again or fix the API key, then retry';
  if (/not support|model.*(not found|unavailable|does not exist)|unknown model|invalid model|\b404\b/i.test(text)) return 'switch to a supported model, then retry';
  if (/\b5\d\d\b|overload|unavailable|timeout|timed out|network|connection/i.test(text)) return request ? `resend ${what} once the API responds` : 'retry once the API responds';
  return 'fix the provider problem, then retry';
}

// --- Putting it together ---

interface Plan {
  state: string;
  status: RecapStatus;
  outcome: string[];
  next: string;
}

function lastRequestTurn(ctx: RecapContext): Turn | undefined {
  return ctx.turns[ctx.turns.length - 1];
}

// The agent's plan for the rest of a turn in progress ("then I'll build the draft from …").
function statedPlan(texts: readonly string[]): string | undefined {
  const last = texts[texts.length - 1];
  if (!last) return undefined;
  const list = splitSentences(last);
  for (let i = list.length - 1; i >= 0; i--) {
    const t = list[i]?.text ?? '';
    const then = /\b(?:then|next|after that|and then),? (?:I(?:'ll| will)|we(?:'ll| will)) (.+)$/i.exec(t);
    if (then?.[1]) return cleanSentence(then[1]);
  }
  return undefined;
}

/** A session file with no new line for this long, read with no live state, is not running anything. */
export const STALE_AFTER_MS = 30 * 60_000;

function isStale(ctx: Pick<RecapContext, 'activity' | 'now' | 'updatedAt'>): boolean {
  return ctx.activity === undefined && ctx.now !== undefined && ctx.updatedAt !== undefined && ctx.now - ctx.updatedAt > STALE_AFTER_MS;
}

function planFor(ctx: RecapContext, facts: Facts): Plan {
  const turn = lastRequestTurn(ctx);
  const texts = turn?.assistant ?? [];
  // The agent's last words in full (the context's copy is cut in the middle for models).
  const lastWords = texts[texts.length - 1] ?? ctx.lastAssistant;
  const finishedFacts = (): string[] => {
    const out: string[] = [];
    if (facts.commitLine) out.push(facts.commitLine);
    if (facts.check) out.push(`${facts.check.label} ${facts.check.ok === false ? `failed${facts.check.error ? `: ${facts.check.error}` : ''}` : 'passed'}`);
    if (facts.files.length) out.push(filesPhrase(facts.files));
    return out;
  };
  switch (ctx.ending) {
    case 'empty':
      return { state: 'nothing asked yet', status: 'empty', outcome: [], next: 'type the first request' };
    case 'api-error': {
      const err = ctx.errors[ctx.errors.length - 1] ?? '';
      const code = /\b([45]\d\d)\b/.exec(err)?.[1];
      const didNothing = !(turn?.tools.length || texts.length);
      const sessionDidNothing = ctx.counts.toolCalls === 0 && !ctx.summaries.length && ctx.turns.every((t) => !t.assistant.length) && !ctx.dialogue.some((d) => d.role === 'assistant');
      const outcome = [errorMessage(err)].filter(Boolean);
      if (!didNothing) outcome.push(...outcomeSentences(texts, false, 1));
      else if (!sessionDidNothing) outcome.push('no reply to the last request');
      return { state: `API error${code ? ` ${code}` : ''}${sessionDidNothing ? ', nothing happened' : ''}`, status: 'errored', outcome, next: errorNext(err, turn?.request && substantive(turn) ? gistOf(turn.request) : undefined) };
    }
    case 'interrupted': {
      const outcome = [...outcomeSentences(texts, false, 1)];
      if (facts.files.length) outcome.push(filesPhrase(facts.files));
      return { state: 'interrupted', status: 'aborted', outcome, next: 'say how to go on, or repeat the request' };
    }
    case 'question':
    case 'finished': {
      const answer = texts.length ? texts : [];
      const question = ctx.ending === 'question' ? agentQuestion(lastWords) : undefined;
      const asked = (t: Turn | undefined) => !!t?.request && isQuestion(sanitizeLine(t.request)) && !t.tools.some((x) => x.paths.length);
      let outcome = outcomeSentences(answer, true, 2, asked(turn));
      // A closing pleasantry after a short reply ("thanks" → "you're welcome"): the earlier turn's outcome.
      if (!outcome.length && !turn?.tools.length) {
        const prev = ctx.turns[ctx.turns.length - 2];
        if (prev) outcome = outcomeSentences(prev.assistant, true, 2, asked(prev));
      }
      const factList = finishedFacts().filter((f) => !outcome.some((o) => facts.commitKey && f.startsWith('committed') && o.includes(facts.commitKey)));
      outcome = [...outcome.slice(0, 1), ...factList.slice(0, 1), ...outcome.slice(1), ...factList.slice(1)];
      if (question) return { state: 'waiting for you', status: 'waiting', outcome, next: question };
      const failing = facts.check?.ok === false;
      if (failing) {
        // What failed, with its error, before the agent's words about it.
        const checkFact = outcome.find((o) => o.startsWith(`${facts.check?.label} failed`));
        const ordered = checkFact ? [checkFact, ...outcome.filter((o) => o !== checkFact)] : outcome;
        return { state: 'failing check', status: ctx.activity === 'working' ? 'working' : 'idle', outcome: ordered, next: `fix what fails in ${facts.check?.label}` };
      }
      const proposal = agentProposal(lastWords);
      let next = proposal;
      const code = facts.files.some((f) => CODE_FILE.test(f));
      if (!next && code && !facts.check && !facts.committedAfterEdit) next = 'review and run the tests';
      if (!next && facts.files.length && !facts.committedAfterEdit) next = 'review and commit';
      next ??= 'nothing pending';
      return { state: 'done', status: ctx.activity === 'working' ? 'working' : 'idle', outcome, next };
    }
    case 'mid-tool': {
      const pending = ctx.pendingTools.length ? ctx.pendingTools : [];
      const ask = pending.find((s) => ASK_TOOL.test(s.name));
      const what = pending.length ? describeTools(pending.filter((s) => !ASK_TOOL.test(s.name)), ctx.cwd) : 'a tool';
      const outcome = outcomeSentences(texts, false, 2);
      if (ask && ctx.activity !== 'exited') {
        const q = argOf(ask.args, 'question');
        return { state: 'waiting for you', status: 'waiting', outcome, next: q ? cutWords(sanitizeLine(q), 140) : 'answer the agent’s question' };
      }
      if (ctx.activity === 'exited' || ctx.exited) return { state: `cut off while ${what}`, status: 'aborted', outcome, next: statedPlan(texts) ?? `check whether it finished, then ask the agent to continue` };
      // A file that stopped changing long ago is not running anything, whatever its last line says.
      if (isStale(ctx)) {
        // An approval asked for long ago still names what was waiting: the user may owe it yet.
        if (ctx.approval) return { state: `stopped waiting for approval of ${what.replace(/^running /, '')}`, status: 'aborted', outcome, next: statedPlan(texts) ?? '' };
        return { state: `stopped while ${what}`, status: 'aborted', outcome, next: statedPlan(texts) ?? '' };
      }
      if (ctx.approval || ctx.activity === 'waiting') {
        const object = what.replace(/^running /, '');
        return { state: `waiting for approval of ${object}`, status: 'waiting', outcome, next: `approve or deny ${object}` };
      }
      return { state: what, status: 'working', outcome, next: statedPlan(texts) ?? 'let it finish' };
    }
    case 'mid-turn': {
      const prev = ctx.turns[ctx.turns.length - 2];
      const acked = turn?.request !== undefined && isAcknowledgement(turn.request) && !texts.length && !turn.tools.length;
      if (acked) {
        const agreed = agentQuestion(prev?.assistant[prev.assistant.length - 1]) ?? agentProposal(prev?.assistant[prev.assistant.length - 1]);
        const said = `you said "${cutWords(sanitizeLine(turn?.request ?? ''), 30)}"`;
        const next = agreed ? agreed.replace(/^ok to /, '') : 'the agent acts on your reply';
        const state = ctx.activity === 'working' ? 'working' : ctx.activity === 'exited' || ctx.exited ? 'cut off before the agent answered' : isStale(ctx) ? 'stopped, unanswered' : 'no answer yet';
        return { state, status: state === 'working' ? 'working' : state.startsWith('cut') || state.startsWith('stopped') ? 'aborted' : 'working', outcome: [said], next };
      }
      const outcome = outcomeSentences(texts, false, 2);
      const last = turn?.tools[turn.tools.length - 1];
      if (last) outcome.unshift(`${describeTool(last, ctx.cwd)} (last step${last.ok === false ? ', failed' : ''})`);
      if (ctx.activity === 'exited' || ctx.exited) return { state: texts.length || last ? 'cut off mid-turn' : 'cut off before the agent answered', status: 'aborted', outcome, next: 'ask the agent to continue' };
      if (isStale(ctx)) return { state: texts.length || last ? 'stopped mid-turn' : 'stopped, unanswered', status: 'aborted', outcome, next: statedPlan(texts) ?? '' };
      if (ctx.activity === 'waiting') return { state: 'waiting for you', status: 'waiting', outcome, next: 'ask the agent to continue' };
      const state = ctx.activity === 'working' ? 'working' : texts.length || last ? 'in progress' : 'no answer yet';
      return { state, status: 'working', outcome, next: statedPlan(texts) ?? (texts.length || last ? 'let it finish' : 'wait for the answer') };
    }
  }
}

function artifactsOf(ctx: RecapContext): RecapArtifact[] {
  const out: RecapArtifact[] = [];
  // A file's label is its path as a person reads it (relative, `~`); the locator stays the path to open.
  for (const f of ctx.filesTouched.slice(-8)) out.push({ kind: 'file', label: shortenPaths(f, ctx.cwd), locator: f });
  for (const c of ctx.commits.slice(-3)) if (c.hash || c.subject) out.push({ kind: 'commit', label: c.subject ?? c.hash ?? '', locator: c.hash ?? c.subject ?? '' });
  const urls = [...new Set((ctx.lastAssistant?.match(URL) ?? []).map((u) => u.replace(/[.,;:]+$/, '')))].slice(0, 5);
  for (const u of urls) out.push({ kind: PR_URL.test(u) ? 'pr' : 'url', label: u, locator: u });
  const test = [...ctx.commands].reverse().find((c) => TEST_COMMAND.test(c.command));
  if (test) {
    const label = (TEST_COMMAND.exec(test.command)?.[0] ?? test.command).trim();
    out.push({ kind: 'command', label, locator: label });
  }
  return out;
}

function subjectOf(ctx: RecapContext): string | undefined {
  return pickTask(ctx) ?? (ctx.project ? undefined : folderName(ctx.cwd));
}

/**
 * A session whose last prompt is a housekeeping command nobody answers (`/exit`, `/clear`, `/cost`) is
 * recapped from the turn before it: that is where the work stands.
 */
function beforeHousekeeping(ctx: RecapContext): RecapContext {
  const last = ctx.turns[ctx.turns.length - 1];
  const prev = ctx.turns[ctx.turns.length - 2];
  if (!last?.request || !last.command || !isHousekeepingCommand(last.request) || last.assistant.length || last.tools.length || !prev?.request) return ctx;
  const words = prev.assistant[prev.assistant.length - 1];
  const ending = words ? (findQuestion(words) ? 'question' : 'finished') : prev.tools.length ? ctx.ending : 'mid-turn';
  return { ...ctx, turns: ctx.turns.slice(0, -1), ending, lastAssistant: words, pendingTools: ending === 'mid-tool' ? ctx.pendingTools : [] };
}

/** The parts of the recap, before composition: paths relative to the session's folder, no home paths. */
export function recapParts(whole: RecapContext): { parts: RecapParts; status: RecapStatus } {
  const ctx = beforeHousekeeping(whole);
  const turn = lastRequestTurn(ctx);
  const facts = gatherFacts(ctx, turn);
  const plan = planFor(ctx, facts);
  // The user closed the session after a finished turn: say so (a recap read later should know).
  if ((ctx.exited || ctx.activity === 'exited') && (ctx.ending === 'finished' || ctx.ending === 'question')) {
    plan.state = 'closed';
    if (plan.status === 'waiting' || plan.status === 'working') plan.status = 'idle';
  }
  const clean = (s: string) => sanitizeLine(shortenPaths(s, ctx.cwd));
  const subject = ctx.ending === 'empty' ? undefined : subjectOf(ctx);
  const label = ctx.project?.label ? clean(ctx.project.label) : undefined;
  const next = specificNext(clean(plan.next));
  return {
    parts: { ...(label ? { label } : {}), state: clean(plan.state), subject: subject ? clean(subject) : undefined, outcome: plan.outcome.map(clean).filter(Boolean), next, ...(plan.status === 'waiting' && next ? { owed: true } : {}) },
    status: plan.status,
  };
}

export function heuristicRecap(ctx: RecapContext): RecapDraft {
  const { parts, status } = recapParts(ctx);
  const language = detectLanguage(ctx.requests);
  const line = LABEL + composeParts(parts, RECAP_LINE_MAX_CHARS - LABEL.length);
  const lead = parts.label ? `${parts.label} · ` : '';
  const headline = truncateToWidth(lead + (parts.subject ? `${cutWords(parts.subject, HEADLINE_MAX - 3 - displayWidth(lead) - Math.min(40, displayWidth(parts.state)))}: ${parts.state}` : parts.state), HEADLINE_MAX);
  return { line, headline, done: parts.outcome, next: parts.next ? [parts.next] : [], artifacts: artifactsOf(ctx), status, language, parts };
}

/** A short line while the agent works: the task and what it is doing right now. */
export function workingLine(ctx: RecapContext): string {
  const task = pickTask(ctx);
  const doing = ctx.ending === 'mid-tool' && ctx.pendingTools.length ? describeTools(ctx.pendingTools, ctx.cwd) : ctx.ending === 'mid-turn' ? 'thinking' : undefined;
  const text = `working: ${task ? `"${cutWords(task, 70)}"` : 'the current turn'}${doing ? ` — ${cutWords(doing, 80)}` : ''}`;
  return truncateToWidth(sanitizeLine(shortenPaths(text, ctx.cwd)), RECAP_LINE_MAX_CHARS);
}
