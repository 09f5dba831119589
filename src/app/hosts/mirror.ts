/**
 * Mirror mode: `recapwrap index --host NAME --pull` copies the host's agent session folders with rsync
 * over ssh, add-only, into `<state>/hosts/<name>/home/`, and indexes them in that folder's own index
 * (`<state>/hosts/<name>/index.db`): every session there is the host's. Paths are shown as on the host
 * (its home, recorded at the pull, in place of the copy's folder).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readForgotten } from '../../memory/forgotten.js';
import { join } from 'node:path';
import type { Options } from '../../config/options-table.js';
import { getStateDir, type Env } from '../../config/paths.js';
import { ensurePrivateDir } from '../../util/safe-fs.js';
import { formatCommandForTerminal } from '../../util/shell-quote.js';
import type { RefreshStats, SessionMemory } from '../memory/api.js';
import type { HostSpec } from './config.js';
import { describeFailure, runBounded, runScript, sshOptionsFor, type HostContext } from './transport.js';
import { rsyncArgv } from './ssh-argv.js';

/** How long a pull may take (rsync has its own 60 s idle timeout besides). */
const PULL_TIMEOUT_MS = 30 * 60_000;

export interface MirrorMeta { remoteHome: string; pulledAt: string }

export function mirrorDir(env: Env, host: string): string {
  return join(getStateDir(env), 'hosts', host);
}

/** The environment the copy is indexed and read with: its folder as the home, its own state folder. */
export function mirrorEnv(env: Env, host: string): Env {
  const dir = mirrorDir(env, host);
  return { HOME: join(dir, 'home'), RECAPWRAP_STATE_DIR: dir, PATH: env.PATH ?? '' };
}

export function readMirrorMeta(env: Env, host: string): MirrorMeta | undefined {
  try {
    const o = JSON.parse(readFileSync(join(mirrorDir(env, host), 'meta.json'), 'utf8')) as Partial<MirrorMeta>;
    return typeof o.remoteHome === 'string' && typeof o.pulledAt === 'string' ? { remoteHome: o.remoteHome, pulledAt: o.pulledAt } : undefined;
  } catch {
    return undefined;
  }
}

const validHome = (h: string) => /^\/[^\0\n\r]{0,1000}$/.test(h) && !h.split('/').includes('..');

export type PullResult = { ok: true; stats: RefreshStats; sessions: number; pulled: number } | { ok: false; problem: string };

// The host's home, then its forgotten list (`<state>/forgotten` there, JSON lines), for the pull.
const PULL_HOME_SCRIPT = [
  'printf \'%s\\n\' "$HOME"',
  'f="${RECAPWRAP_STATE_DIR:-${XDG_STATE_HOME:-$HOME/.local/state}/recapwrap}/forgotten"',
  '[ -f "$f" ] && head -c 4000000 "$f"',
  'exit 0',
].join('; ');

/** The forgotten list a host sent: its transcript paths under its home (relative), checked; the rest left out. Pure. */
export function forgottenUnder(listText: string, home: string): { rel: string; agent: string; id: string }[] {
  const out: { rel: string; agent: string; id: string }[] = [];
  const root = home.replace(/\/+$/, '') + '/';
  for (const line of listText.split('\n').slice(0, 100_000)) {
    if (!line.trim()) continue;
    try {
      const e = JSON.parse(line) as { transcript?: unknown; agent?: unknown; id?: unknown };
      if (typeof e.transcript !== 'string' || !e.transcript.startsWith(root) || e.transcript.length > 4096) continue;
      const rel = e.transcript.slice(root.length);
      if (!rel || rel.split('/').includes('..') || /[\0\n\r]/.test(rel)) continue;
      out.push({ rel, agent: typeof e.agent === 'string' ? e.agent : '', id: typeof e.id === 'string' ? e.id : '' });
    } catch {
      // A damaged line: the others still hold
    }
  }
  return out;
}

// rsync's exclude list (anchored at the copy's root): a pattern with a wildcard character is left out
// (rsync would read it as one); such a file is deleted from the copy after the pull instead.
const excludeLines = (rels: readonly string[]) => rels.filter((r) => !/[*?[\\]/.test(r)).map((r) => `/${r}`).join('\n') + '\n';

/**
 * Copy a host's session files (add-only) and index the copy. Sessions forgotten there (the host's own
 * forgotten list) or here (`forget --host`: the copy's list) are never copied, and taken out of the copy:
 * its rows forgotten, its copied file deleted.
 */
export async function pullHost(host: HostSpec, ctx: HostContext, options: Options): Promise<PullResult> {
  const home = await runScript(host, PULL_HOME_SCRIPT, ctx, 8 * 1024 * 1024);
  if (!home.ok) return { ok: false, problem: home.problem };
  const newline = home.stdout.indexOf('\n');
  const remoteHome = (newline < 0 ? home.stdout : home.stdout.slice(0, newline)).trim();
  if (home.code !== 0 || !validHome(remoteHome)) return { ok: false, problem: 'did not say where its home is' };
  const dir = mirrorDir(ctx.env, host.name);
  const copyHome = join(dir, 'home');
  try {
    ensurePrivateDir(join(getStateDir(ctx.env), 'hosts'));
    ensurePrivateDir(dir);
    mkdirSync(copyHome, { recursive: true, mode: 0o700 });
  } catch (error) {
    return { ok: false, problem: `cannot make ${dir}: ${(error as Error).message}` };
  }
  const forgottenThere = forgottenUnder(newline < 0 ? '' : home.stdout.slice(newline + 1), remoteHome);
  const forgottenHere = forgottenUnder(readForgotten(join(dir, 'forgotten')).map((e) => JSON.stringify(e)).join('\n'), copyHome);
  const excludeFile = join(dir, 'pull-exclude');
  writeFileSync(excludeFile, excludeLines([...forgottenThere, ...forgottenHere].map((f) => f.rel)), { mode: 0o600 });
  const argv = rsyncArgv(host, remoteHome, copyHome, sshOptionsFor(host, ctx), excludeFile);
  const r = await runBounded([...argv.slice(0, 1), '--out-format=%n', ...argv.slice(1)], { timeoutMs: PULL_TIMEOUT_MS, env: ctx.env, maxBytes: 64 * 1024 * 1024, cwd: ctx.cwd });
  if (r.missing) return { ok: false, problem: 'rsync is not installed here' };
  const failure = describeFailure(r, PULL_TIMEOUT_MS / 1000, 'rsync');
  if (failure) return { ok: false, problem: failure.problem };
  // 23/24: some sources were missing or vanished (an agent never used there): the rest was copied.
  if (r.code !== 0 && r.code !== 23 && r.code !== 24) return { ok: false, problem: `rsync failed (exit ${r.code}): ${r.stderr.split('\n').filter(Boolean).pop() ?? ''}`.slice(0, 200) };
  const pulled = r.stdout.split('\n').filter((l) => l && !l.endsWith('/')).length;
  writeFileSync(join(dir, 'meta.json'), JSON.stringify({ remoteHome, pulledAt: new Date().toISOString() } satisfies MirrorMeta) + '\n', { mode: 0o600 });
  const memory = await openMirror(host.name, ctx.env, options);
  if ('error' in memory) return { ok: false, problem: memory.error };
  try {
    forgetInCopy(memory, copyHome, forgottenThere);
    const stats = await memory.refresh();
    return { ok: true, stats, sessions: memory.store.count(), pulled };
  } finally {
    memory.close();
  }
}

/** Take sessions out of a copy: their rows forgotten (so never indexed again), their copied files deleted. */
export function forgetInCopy(memory: SessionMemory, copyHome: string, gone: readonly { rel: string; agent: string; id: string }[]): number {
  const ids = new Set<string>();
  for (const g of gone) {
    const path = join(copyHome, g.rel);
    const byPath = memory.store.byTranscript(path);
    if (byPath) ids.add(byPath.id);
    const byId = g.id ? memory.store.get(g.id) : undefined;
    if (byId && byId.agent === g.agent) ids.add(byId.id);
    rmSync(path, { force: true });
  }
  return ids.size ? memory.forget([...ids]).count : 0;
}

/** The copy's index, when a pull made one. */
export async function openMirror(host: string, env: Env, options: Options): Promise<SessionMemory | { error: string }> {
  const dir = mirrorDir(env, host);
  if (!existsSync(join(dir, 'meta.json'))) return { error: `no copy: pull one with \`${formatCommandForTerminal(['recapwrap', 'index', '--host', host, '--pull'])}\`` };
  const { openSessionMemory } = await import('../memory/api.js');
  const menv = mirrorEnv(env, host);
  return openSessionMemory({ env: menv, options: { ...options, memory: true, memoryFolders: '' }, cwd: menv.HOME as string });
}

/** A path of the copy as it is on the host. */
export function hostPath(env: Env, host: string, meta: MirrorMeta, path: string): string {
  const copy = join(mirrorDir(env, host), 'home');
  return path === copy || path.startsWith(copy + '/') ? meta.remoteHome.replace(/\/+$/, '') + path.slice(copy.length) : path;
}
