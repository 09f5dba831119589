/**
 * Which project a session is about, as a short label (≤ 16 cells) a user with six panes reads first.
 * Evidence comes from what the agent did (the folder it works in, the git remote it printed, the
 * package manifest and README it read) and is trusted in a fixed order (see LABEL_ORDER). Pure.
 */
import { displayWidth } from '../util/text-width.js';

export const PROJECT_LABEL_MAX = 16;

export type LabelSource = 'user' | 'remote' | 'manifest' | 'readme' | 'folder';

/**
 * The order of trust, decided on the development set (bench/quality-split.json, both halves): a name
 * the user also types wins (it is what they call the work); then the git remote's repository name (the
 * project's published name, present even when the session runs in the home folder); then the name in
 * the package manifest the agent read; then the README's title; then the working folder's name (almost
 * always there, but often a generic `app`, `new` or a home folder, which are skipped).
 */
export const LABEL_ORDER: readonly LabelSource[] = ['user', 'remote', 'manifest', 'readme', 'folder'];

export interface ProjectEvidence {
  /** Folders the agent worked in, in order (a call's `workdir`, `cd DIR &&`, `git -C DIR`). */
  folders: string[];
  /** Names found, in order, with the folder they belong to when known. */
  found: Array<{ source: Exclude<LabelSource, 'user' | 'folder'>; value: string; folder?: string }>;
}

export function emptyEvidence(): ProjectEvidence {
  return { folders: [], found: [] };
}

// Folder names that say nothing about the project.
const GENERIC_FOLDER = /^(new|new project|untitled|tmp|temp|test|tests|src|lib|code|codes|dev|work|workspace|projects?|repos?|git|github|desktop|documents|downloads|home|users?|root|app|apps|web|api|server|client|frontend|backend|packages?|e2e|[a-z]:?|folder|sandbox|scratch|playground|my-app|my-project|project\d*|demo|example|main|master|default|\.+)$/i;
// Subfolders of a project that name a part of it, not the project.
const GENERIC_SUBFOLDER = /^(services?|scripts|tools|utils?|docs?|components|modules|crates|cmd|internal|pkg|public|static|assets|config|infra|deploy|e2e|spec|specs)$/i;
// Manifest names that say nothing either (a workspace's placeholder, a template's default).
const GENERIC_NAME = /^(root|workspace|monorepo|app|my-app|my-project|project|package|vite-project|react-app|next-app|frontend|backend|server|client|web|api|cli|core|test|example|demo|untitled|template|starter)$/i;
const MANIFEST = /(?:^|[/\\])(package\.json|Cargo\.toml|pyproject\.toml|go\.mod|composer\.json|pubspec\.yaml|setup\.cfg|deno\.jsonc?)$/i;
const README = /(?:^|[/\\])readme(?:\.[a-z]{1,8})?$/i;
// Paths that belong to tools, not to the project (an agent's skills, dependencies, temp copies).
const NOT_PROJECT = /(?:^|[/\\])(?:\.[\w-]+|node_modules|site-packages|AppData)(?:[/\\]|$)|^\/(?:tmp|var|private|opt|usr|etc)(?:\/|$)/;

function dirOf(path: string): string {
  const i = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return i > 0 ? path.slice(0, i) : i === 0 ? path.slice(0, 1) : '';
}

function baseOf(path: string): string {
  const parts = path.split(/[/\\]/).filter(Boolean);
  return parts[parts.length - 1] ?? '';
}

function unquote(s: string): string {
  return s.replace(/^(['"])(.*)\1$/, '$2').replace(/'(?=[^']*$)|(?<=^[^']*)'/g, '');
}

/** An absolute form of a path the agent used (relative ones are taken from the session folder). */
function absolute(path: string, cwd: string | undefined): string {
  const p = unquote(path.trim()).replace(/[/\\]+$/, '');
  if (/^(?:[A-Za-z]:)?[/\\]/.test(p) || p.startsWith('~') || !cwd) return p;
  if (p === '.' || p === '') return cwd.replace(/[/\\]+$/, '');
  return `${cwd.replace(/[/\\]+$/, '')}/${p.replace(/^\.\//, '')}`;
}

/** A home folder itself (`/home/ana`, `/Users/ana`, `C:\Users\ana`) is no project. */
function isHome(folder: string): boolean {
  return /^(?:(?:[A-Za-z]:)?[/\\](?:Users|home)[/\\][^/\\]+|\/root|~)$/i.test(folder);
}

/** A folder that can be a project: not a home, not temp, not a tool's hidden folder. */
export function projectFolder(folder: string): boolean {
  return !!folder && !isHome(folder) && !NOT_PROJECT.test(folder) && folder.split(/[/\\]/).filter(Boolean).length >= 1;
}

/** The folder a call works in, when it says so: `workdir`, `cd DIR &&`, `git -C DIR`. */
export function callFolder(args: string, command: string | undefined, cwd: string | undefined): string | undefined {
  const wd = /"?(?:workdir|cwd|working_directory|dir_path)"?\s*[=:]\s*"((?:[^"\\]|\\.)+)"/.exec(args)?.[1];
  const cd = command ? /^\s*(?:cd|Set-Location|pushd)\s+("[^"]+"|'[^']+'|[^\s;&|]+)\s*(?:&&|;|\n)/i.exec(command)?.[1] : undefined;
  const gitC = command ? /\bgit\s+-C\s+("[^"]+"|'[^']+'|\S+)/.exec(command)?.[1] : undefined;
  const raw = gitC ?? cd ?? (wd ? wd.replace(/\\\\/g, '\\') : undefined);
  return raw ? absolute(raw, cwd) : undefined;
}

// The repository's name in a git URL printed by `git remote -v`, `git push` ("To …") or typed in `git clone`.
const GIT_URL = /(?:https?:\/\/|ssh:\/\/|git@)[\w.@-]+[/:](?:[\w.-]+\/)+?([\w.-]+?)(?:\.git)?\/?(?=[\s)'"]|$)/;

function remoteName(command: string, result: string): string | undefined {
  if (/\bgit\b[^|;&]*\b(remote|push|clone|fetch|pull)\b/.test(command)) {
    const origin = /^origin\s+(\S+)/m.exec(result)?.[1];
    const text = origin ?? (/\bclone\b/.test(command) ? command : /^To\s+(\S+)/m.exec(result)?.[1] ?? result);
    return GIT_URL.exec(`${text} `)?.[1];
  }
  if (/\bgh\s+repo\s+(view|create|clone)\b/.test(command)) return /(?:^name:\s*\S+\/|github\.com\/[\w.-]+\/)([\w.-]+)/m.exec(result)?.[1];
  return undefined;
}

// Line numbers a read tool puts before each line (`     1→`, `1\t`, `1: `).
const LINE_NO = /^\s*\d+(?:→|\t|:\s|\|\s?)/gm;

function manifestName(file: string, text: string): string | undefined {
  const t = text.replace(LINE_NO, '');
  const kind = baseOf(file).toLowerCase();
  if (kind === 'package.json' || kind === 'composer.json' || kind.startsWith('deno.')) return /"name"\s*:\s*"([^"]{1,80})"/.exec(t)?.[1];
  if (kind === 'go.mod') return /^module\s+(\S+)/m.exec(t)?.[1]?.split('/').pop();
  if (kind === 'cargo.toml' || kind === 'pyproject.toml') return /^\[(?:package|project|tool\.poetry)\][^[]*?^name\s*=\s*["']([^"']+)["']/ms.exec(t)?.[1];
  if (kind === 'pubspec.yaml' || kind === 'setup.cfg') return /^name\s*[:=]\s*["']?([\w.-]+)/m.exec(t)?.[1];
  return undefined;
}

function readmeTitle(text: string): string | undefined {
  const t = text.replace(LINE_NO, '');
  const h = /^#\s+(.+?)\s*#*\s*$/m.exec(t)?.[1] ?? /^([^\n]{2,80})\n={3,}\s*$/m.exec(t)?.[1];
  return h?.replace(/[*_`[\]]/g, '').replace(/<[^>]+>/g, '').trim() || undefined;
}

// The file a call reads: a read tool's path, else the last file argument of cat/sed/head/type/Get-Content.
function readFile(name: string, args: string, command: string | undefined, paths: readonly string[]): string | undefined {
  if (command) {
    const m = /^\s*(?:cat|sed\s+-n\s+'[^']*'|sed\s+-n\s+"[^"]*"|head(?:\s+-n?\s*\d+)?|tail(?:\s+-n?\s*\d+)?|nl(?:\s+-\w+)*|bat|less|type|Get-Content(?:\s+-\w+\s+\S+)*)\s+("[^"]+"|'[^']+'|\S+)\s*(?:$|\||;|&&|2>)/i.exec(command);
    return m?.[1];
  }
  if (/read|view|open|cat/i.test(name)) return paths[0] ?? /"(?:file_path|absolute_path|path)"\s*:\s*"([^"]+)"/.exec(args)?.[1];
  return undefined;
}

/** Note the folder a tool call works in (when it says), as soon as the call is made. */
export function noteFolder(ev: ProjectEvidence, step: { args: string; command?: string }, cwd: string | undefined): void {
  const folder = callFolder(step.args, step.command, cwd);
  // Only a folder known in full: a relative one with no session folder to anchor it names a subfolder.
  if (folder && /^(?:[A-Za-z]:)?[/\\]/.test(folder) && projectFolder(folder)) {
    ev.folders.push(folder);
    if (ev.folders.length > 40) ev.folders.splice(0, ev.folders.length - 20);
  }
}

// A string argument of a call's JSON arguments (`"content": "…"`), unescaped.
function stringArg(args: string, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const m = new RegExp(`(?:^|[\\s{,])"?${key}"?\\s*[=:]\\s*"((?:[^"\\\\]|\\\\.)*)"`).exec(args);
    if (!m) continue;
    try {
      return JSON.parse(`"${m[1]}"`) as string;
    } catch {
      return m[1];
    }
  }
  return undefined;
}

/**
 * Note the manifest or README a call writes (a write tool's content, or a patch's added lines): a
 * project the agent names in its own README title or manifest is named as surely as one it read.
 */
export function noteWritten(ev: ProjectEvidence, step: { name: string; args: string; paths: readonly string[] }, cwd: string | undefined): void {
  const files: Array<[string, string]> = [];
  // Patches (`*** Add File: README.md` then `+` lines), also inside a code-mode string with `\n` escapes.
  const text = /\*\*\* (?:Add|Update) File:/.test(step.args) ? step.args.replace(/\\n/g, '\n').replace(/\\"/g, '"') : '';
  for (const m of text.matchAll(/\*\*\* (?:Add|Update) File: ([^\n]+)\n((?:[+ @-][^\n]*\n?)*)/g)) {
    const added = (m[2] ?? '').split('\n').filter((l) => l.startsWith('+')).map((l) => l.slice(1)).join('\n');
    files.push([(m[1] as string).trim(), added]);
  }
  if (!files.length && /write|create|put|update_file/i.test(step.name)) {
    const path = step.paths[0] ?? stringArg(step.args, ['file_path', 'path', 'filename']);
    const content = stringArg(step.args, ['content', 'file_text', 'contents', 'text']);
    if (path && content) files.push([path, content]);
  }
  for (const [file, content] of files) {
    const path = absolute(file, cwd);
    if (NOT_PROJECT.test(dirOf(path))) continue;
    const value = MANIFEST.test(path) ? manifestName(path, content) : README.test(path) ? readmeTitle(content) : undefined;
    if (value) addFound(ev, MANIFEST.test(path) ? 'manifest' : 'readme', value, dirOf(path));
  }
}

function addFound(ev: ProjectEvidence, source: ProjectEvidence['found'][number]['source'], value: string | undefined, folder?: string): void {
  const v = value?.trim();
  if (!v || ev.found.some((f) => f.source === source && f.value === v && f.folder === folder)) return;
  ev.found.push({ source, value: v, folder });
  if (ev.found.length > 60) ev.found.splice(0, ev.found.length - 30);
}

/** Note what one finished tool call says about the project (its remote, manifest or README). */
export function noteEvidence(ev: ProjectEvidence, step: { name: string; args: string; command?: string; paths: readonly string[]; result?: string; ok?: boolean }, cwd: string | undefined): void {
  const folder = callFolder(step.args, step.command, cwd);
  if (step.ok === false || !step.result) return;
  const add = (source: ProjectEvidence['found'][number]['source'], value: string | undefined, at?: string) => addFound(ev, source, value, at);
  const command = step.command;
  if (command) add('remote', remoteName(command, step.result), folder ?? cwd);
  const file = readFile(step.name, step.args, command, step.paths);
  if (!file) return;
  const path = absolute(file, folder ?? cwd);
  if (NOT_PROJECT.test(dirOf(path))) return;
  if (MANIFEST.test(path)) add('manifest', manifestName(path, step.result), dirOf(path));
  else if (README.test(path)) add('readme', readmeTitle(step.result), dirOf(path));
}

const norm = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/**
 * The user's own prompts name this label: the whole name, or its first part (`raveera` of
 * `raveera-web-mvp`), typed as a word. A path pasted into a prompt does not count: its folders are
 * where the work is, not what the user calls it.
 */
export function userNames(label: string, requests: readonly string[]): boolean {
  const words = requests.join(' ').replace(/\S*[/\\]\S*/g, ' ').toLowerCase().split(/[^\p{L}\p{N}-]+/u).filter(Boolean);
  const whole = norm(label);
  const head = norm(label.split(/[-_\s.]/)[0] ?? '');
  const joined = new Set(words.map(norm));
  // Two words typed apart ("will it rain") are the name too.
  for (let i = 0; i + 1 < words.length; i++) joined.add(norm(`${words[i]}${words[i + 1]}`) + '');
  for (let i = 0; i + 2 < words.length; i++) joined.add(norm(`${words[i]}${words[i + 1]}${words[i + 2]}`));
  return (whole.length >= 4 && joined.has(whole)) || (head.length >= 4 && joined.has(head));
}

/** A name cut to the label's room: at a word or `-`/`_` boundary, without hashes, scopes or ids. */
export function shortLabel(name: string, max = PROJECT_LABEL_MAX): string | undefined {
  let s = name.trim().replace(/\.git$/, '');
  // `@scope/cli`: the scope names the project when the package part is generic.
  const scoped = /^@([\w.-]+)\/([\w.-]+)$/.exec(s);
  if (scoped) s = GENERIC_NAME.test(scoped[2] as string) ? (scoped[1] as string) : (scoped[2] as string);
  // Ids glued on (`figma-eval-85611489-0cec-…`, `app-3f9a2c1`): dropped.
  s = s.replace(/[-_.]?(?=[0-9a-f-]*\d)[0-9a-f]{6,}(?:-[0-9a-f]{3,})*/gi, '').replace(/[-_.\s]+$/, '').replace(/^[-_.\s]+/, '');
  // A title's acronym in brackets says it in a few cells: "Coordination Failure Oracle (CFO) PoC".
  if (displayWidth(s) > max && /\s/.test(s)) {
    const acronym = /\(([A-Z][A-Za-z0-9]{1,9})\)/.exec(s)?.[1];
    if (acronym) return acronym;
    s = s.replace(/\s*[(:—–|-]\s.*$/, '').trim();
  }
  // A name has letters: not a date, a version or a number (`2026-05-01`, `v2`, `123`).
  if (!s || GENERIC_NAME.test(s) || GENERIC_FOLDER.test(s) || (s.match(/\p{L}/gu) ?? []).length < 2 || /^v?\d+([._-]\d+)*$/i.test(s)) return undefined;
  if (displayWidth(s) <= max) return s;
  const words = s.split(/(?<=[-_\s])/);
  let out = '';
  for (const w of words) {
    if (displayWidth(out + w) > max) break;
    out += w;
  }
  out = out.replace(/[-_\s]+$/, '');
  return out.length >= 3 ? out : undefined;
}

function within(a: string, b: string): boolean {
  const x = a.replace(/\\/g, '/').toLowerCase();
  const y = b.replace(/\\/g, '/').toLowerCase();
  return x === y || x.startsWith(`${y}/`) || y.startsWith(`${x}/`);
}

/**
 * A folder's name as a label; a generic one (`web`, `services`, `src`) gives way to its parent's name,
 * up to two levels and never past a home folder (`~/shop/web` → `shop`, `~/Desktop/new` → none).
 */
export function folderLabel(folder: string): string | undefined {
  let f = folder.replace(/[/\\]+$/, '');
  for (let up = 0; up < 3 && f && !isHome(f) && projectFolder(f); up++) {
    const base = baseOf(f);
    if (!GENERIC_FOLDER.test(base) && !GENERIC_SUBFOLDER.test(base)) return shortLabel(base);
    f = dirOf(f);
  }
  return undefined;
}

/** The folder the work is in: the last project folder the agent went into, else the session's folder. */
export function workFolder(ev: ProjectEvidence, cwd: string | undefined): string | undefined {
  for (let i = ev.folders.length - 1; i >= 0; i--) {
    const f = ev.folders[i] as string;
    if (!GENERIC_FOLDER.test(baseOf(f))) return f;
  }
  return cwd;
}

/**
 * The project label and where it came from, by LABEL_ORDER: evidence of the folder the work is in (or
 * of no folder in particular), a candidate the user's own prompts name first.
 */
export function projectLabel(ev: ProjectEvidence, cwd: string | undefined, requests: readonly string[]): { label: string; source: LabelSource } | undefined {
  const folder = workFolder(ev, cwd);
  const mine = (f?: string) => !f || !folder || within(f, folder);
  const candidates: Array<{ label: string; source: LabelSource; deep?: boolean }> = [];
  // Evidence from a subfolder (a workspace member's manifest, a docs folder's README) names a part.
  const deeper = (f?: string) => !!f && !!folder && f.replace(/\\/g, '/').toLowerCase().startsWith(`${folder.replace(/\\/g, '/').toLowerCase().replace(/\/+$/, '')}/`);
  for (const source of ['remote', 'manifest', 'readme'] as const) {
    // The newest of each kind: a session that moved to another repository names the one it is in now.
    // The one nearest the project's root (a workspace's own manifest, not a member's), newest among equals.
    const depth = (f?: string) => (f ? f.split(/[/\\]/).filter(Boolean).length : 0);
    const hits = [...ev.found].reverse().filter((f) => f.source === source && mine(f.folder) && shortLabel(f.value));
    const hit = hits.reduce<(typeof hits)[number] | undefined>((best, f) => (!best || depth(f.folder) < depth(best.folder) ? f : best), undefined);
    if (hit) candidates.push({ label: shortLabel(hit.value) as string, source, deep: deeper(hit.folder) });
  }
  if (folder && projectFolder(folder)) {
    const name = folderLabel(folder);
    if (name) candidates.push({ label: name, source: 'folder' });
  }
  if (!candidates.length) return undefined;
  candidates.sort((a, b) => Number(!!a.deep) - Number(!!b.deep) || LABEL_ORDER.indexOf(a.source) - LABEL_ORDER.indexOf(b.source));
  // A README title is prose: its words in a prompt are not the user naming the project.
  const named = candidates.find((c) => c.source !== 'readme' && userNames(c.label, requests));
  const best = named ?? candidates[0];
  return best ? { label: best.label, source: named ? 'user' : best.source } : undefined;
}
