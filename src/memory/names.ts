/**
 * Short session names that are easy to type: lowercase kebab from the project and the task (for a task in
 * a non-Latin script: the project, the files and the commands it touched), unique per folder. Pure.
 */

const MAX_NAME = 40;
const MAX_TASK_WORDS = 3;
// Words that say nothing about a task.
const STOP = new Set(
  'a an the and or but to of in on at for with from by into onto up about as is are be was were it its this that these those i me my we our you your please pls can could would should will let lets us do does did make get have has just now then also some any all there here what how why when which who whom whose ok okay hi hello hey thanks thank yes no not so very really want need like help me use using file files code'.split(' '),
);

/** Lowercase kebab of Latin letters and digits (accents dropped); '' when nothing is left. */
export function kebab(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** A name a user typed, in the stored shape: lowercase kebab (any script kept), or undefined when empty. */
export function normalizeUserName(name: string): string | undefined {
  const out = name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);
  return out || undefined;
}

function taskWords(task: string): string[] {
  const words = kebab(task.replace(/https?:\/\/\S+/g, ' ').replace(/[\w./-]+\.[a-z]{1,5}\b/gi, ' ')).split('-').filter(Boolean);
  return words.filter((w) => !STOP.has(w) && !/^\d+$/.test(w) && w.length > 1).slice(0, MAX_TASK_WORDS);
}

function stem(path: string): string {
  const base = path.split(/[\\/]/).pop() ?? '';
  return kebab(base.replace(/\.[^.]+$/, ''));
}

/** The name a session would get before uniqueness: project + task words (else files, commands). */
export function baseName(input: { project: string; task: string; files: readonly string[]; commands: readonly string[] }): string {
  const project = kebab(input.project).split('-').slice(0, 3).join('-').slice(0, 16).replace(/-+$/, '');
  let words = taskWords(input.task);
  if (words.length === 0) {
    const fromFiles = input.files.map(stem).filter(Boolean);
    const fromCommands = input.commands.map((c) => kebab(c.trim().split(/\s+/).slice(0, 2).join(' '))).filter(Boolean);
    words = [...new Set([...fromFiles, ...fromCommands])].slice(0, 2);
  }
  const parts = [project, ...words].filter(Boolean);
  let name = parts.join('-') || 'session';
  if (name.length > MAX_NAME) name = name.slice(0, MAX_NAME).replace(/-[^-]*$/, '') || name.slice(0, MAX_NAME);
  return name;
}

/** A uuid, or 8+ hex digits with at least one digit (uuid-shaped groups allowed): what an id looks like. */
export function looksLikeId(name: string): boolean {
  return /^[0-9a-f]{8,}(-[0-9a-f]+)*$/.test(name) && /\d/.test(name);
}

/** `base`, or `base-2`, `base-3`, … : the first that `taken` does not hold. */
export function uniqueName(base: string, taken: (name: string) => boolean): string {
  if (!taken(base)) return base;
  for (let i = 2; ; i++) {
    const candidate = `${base}-${i}`;
    if (!taken(candidate)) return candidate;
  }
}
