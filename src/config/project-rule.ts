/**
 * The trust rule for config files, as pure decisions (docs/threat-model.md): whether a file found on disk
 * may be read at all, from its stat facts alone, and which keys of a project's `.recapwrap.json` are
 * taken. The I/O that gathers the facts is config-file.ts; the keys' rule is the options table's.
 */
import { isConfigKey, isProjectSafeKey } from './options-table.js';

/** What lstat/fstat say of a file or folder, as far as trust goes. */
export interface StatFacts {
  uid: number;
  mode: number;
}

export interface ConfigFileFacts {
  /** The path as found (for messages). */
  path: string;
  /** The file itself (a link followed to what it names). */
  file: StatFacts & { isFile: boolean };
  /** Each folder that holds it: where it was found and, for a link, where it really lies. */
  folders: ReadonlyArray<StatFacts & { path: string }>;
  /** The effective uid running recapwrap; undefined where there are none. */
  uid: number | undefined;
}

/**
 * 'project': a project's `.recapwrap.json` and the trust list (the file that says which of them may do
 * more): refused when group or others may write it. 'own': the user's global config file, which a
 * umask of 002 (user private groups) leaves group-writable: refused only when others may write it.
 * Both refuse a file someone else owns (root included: `sudo -E recapwrap doctor` in a folder of yours
 * reads nothing of another account's), and one lying in a folder everyone can write to.
 */
export type FileRule = 'project' | 'own';

/** Why a file was not read: someone else's, writable by others, in a folder anyone can write to, or no regular file. */
export type FileRefusal = 'owner' | 'permissions' | 'folder' | 'not a file';

export type FileVerdict = { ok: true } | { ok: false; reason: FileRefusal; message: string };

const GROUP_WRITE = 0o020;
const OTHER_WRITE = 0o002;

const octal = (mode: number) => (mode & 0o7777).toString(8);

/**
 * Whether a config file may be read, and if not why, in words that end with the fix. No sticky-bit
 * excuse for a world-writable folder (/tmp): a file there is ignored, whoever owns it, as anyone could
 * have put it there under a name the user then reads.
 */
export function judgeConfigFile(facts: ConfigFileFacts, rule: FileRule): FileVerdict {
  const { path, file, uid } = facts;
  if (!file.isFile) return { ok: false, reason: 'not a file', message: `${path} is not a regular file` };
  if (uid !== undefined && file.uid !== uid) {
    return { ok: false, reason: 'owner', message: `${path} belongs to uid ${file.uid}, not to you (uid ${uid})` };
  }
  const writers = rule === 'project' ? GROUP_WRITE | OTHER_WRITE : OTHER_WRITE;
  if ((file.mode & writers) !== 0) {
    const who = (file.mode & GROUP_WRITE) !== 0 && (file.mode & OTHER_WRITE) !== 0 ? 'group and others' : (file.mode & OTHER_WRITE) !== 0 ? 'others' : 'its group';
    return { ok: false, reason: 'permissions', message: `${path} is writable by ${who} (mode ${octal(file.mode)}; \`chmod go-w ${path}\` if its content is yours)` };
  }
  const open = facts.folders.find((d) => (d.mode & OTHER_WRITE) !== 0);
  if (open) return { ok: false, reason: 'folder', message: `${path} lies in ${open.path}, which everyone may write to (mode ${octal(open.mode)})` };
  return { ok: true };
}

/** Why a key of a project file was not taken. */
export type HeldKeyReason = 'untrusted key' | 'changed since trusted' | 'a link';

/**
 * The keys of a project file split by the options table's `project` rule: what is taken and what is
 * held back. `trust`: 'trusted' (the user trusted this exact content: every key is taken), 'changed'
 * (trusted once, edited since), 'link' (the file is a link to one lying elsewhere: a trust never carries
 * through a link, or another repo's link to a file trusted in its own folder would run that file's
 * relative commands, `ssh -F ssh_config`, `command:./notify.sh`, with its own files), 'none'. Unknown
 * keys are taken (the loader reports them as unknown).
 */
export function splitProjectKeys(keys: readonly string[], trust: 'trusted' | 'changed' | 'link' | 'none'): { take: string[]; held: Array<{ key: string; why: HeldKeyReason }> } {
  const take: string[] = [];
  const held: Array<{ key: string; why: HeldKeyReason }> = [];
  for (const key of keys) {
    if (trust === 'trusted' || !isConfigKey(key) || isProjectSafeKey(key)) take.push(key);
    else held.push({ key, why: trust === 'changed' ? 'changed since trusted' : trust === 'link' ? 'a link' : 'untrusted key' });
  }
  return { take, held };
}
