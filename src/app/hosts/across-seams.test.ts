// Where the hosts branch (#35) met the others: `resume REF --host NAME --fork` (#36) resumes a session of a
// host as a new branch there, with the agent's own fork, never the session itself; `search --all-words`
// (#32) holds on a host too. Host gpu is a pulled copy (mirror mode: no ssh needed to read it), host dev is
// asked over ssh; `ssh` on PATH is a stand-in that records the argv it was given (and answers nothing).
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../config/load.js';
import { mirrorDir, openMirror } from './mirror.js';
import { splitHostRef } from './host-ref.js';
import { resumeAcrossHosts } from './resume-across.js';

const root = mkdtempSync(join(tmpdir(), 'rw-host-fork-'));
const bin = join(root, 'bin');
const argvFile = join(root, 'ssh-argv');
const env: Record<string, string> = {
  HOME: join(root, 'home'), XDG_CONFIG_HOME: join(root, 'cfg'), RECAPWRAP_STATE_DIR: join(root, 'state'),
  PATH: `${bin}:${process.env.PATH ?? ''}`,
};
const REMOTE_HOME = '/home/me';
const ID = '0d3c2b1a-2222-4333-8444-555555555555';
const remoteFile = `${REMOTE_HOME}/.pi/agent/sessions/--home-me-proj--/2026-11-20T10-00-00-000Z_${ID}.jsonl`;

beforeAll(async () => {
  mkdirSync(bin, { recursive: true });
  mkdirSync(join(root, 'home'), { recursive: true });
  mkdirSync(join(root, 'cfg', 'recapwrap'), { recursive: true });
  // Host canned answers what the test put in answer / answer-code (as a host's recapwrap would).
  writeFileSync(join(bin, 'ssh'), `#!/bin/sh\nprintf '%s\\n' "$@" > '${argvFile}'\ncase "$*" in *' canned '*) cat '${root}/answer'; exit "$(cat '${root}/answer-code')";; esac\n`);
  chmodSync(join(bin, 'ssh'), 0o755);
  writeFileSync(join(root, 'cfg', 'recapwrap', 'config.json'), JSON.stringify({ hosts: [{ name: 'gpu', ssh: ['gpu'], mirror: true }, { name: 'dev', ssh: ['dev'] }, { name: 'evil', ssh: ['evil'], mirror: true }, { name: 'twice', ssh: ['twice'], mirror: true }, { name: 'canned', ssh: ['canned'] }, { name: 'forgetme', ssh: ['forgetme'], mirror: true }] }));
  await layOutCopy('gpu', ID, 'tune the walrus exporter');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

// The copy a pull made: the host's pi session under <state>/hosts/NAME/home, and where the host's home is.
async function layOutCopy(host: string, id: string, prompt: string): Promise<void> {
  const copy = mirrorDir(env, host);
  const dir = join(copy, 'home', '.pi', 'agent', 'sessions', '--home-me-proj--');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const t = '2026-11-20T10:00:00.000Z';
  writeFileSync(join(dir, `2026-11-20T10-00-00-000Z_${id}.jsonl`), [
    { type: 'session', version: 3, id, timestamp: t, cwd: `${REMOTE_HOME}/proj` },
    { type: 'message', id: 'u1', parentId: null, timestamp: t, message: { role: 'user', content: [{ type: 'text', text: prompt }], timestamp: Date.parse(t) } },
    { type: 'message', id: 'a1', parentId: 'u1', timestamp: t, message: { role: 'assistant', content: [{ type: 'text', text: 'Tuned.' }], timestamp: Date.parse(t) } },
  ].map((l) => JSON.stringify(l)).join('\n') + '\n');
  writeFileSync(join(copy, 'meta.json'), JSON.stringify({ remoteHome: REMOTE_HOME, pulledAt: t }) + '\n');
  const memory = await openMirror(host, env, resolveConfig({ env, cwd: env.HOME as string }).options);
  if ('error' in memory) throw new Error(memory.error);
  await memory.refresh();
  memory.close();
}

const resume = (flags: { fork?: boolean; next?: boolean; cwd?: string }) => resumeAcrossHosts(ID, { host: ['gpu'], ...flags }, { env, cwd: env.HOME as string, now: Date.now(), runLocal: async () => ({ out: '', err: '', code: 1 }) });

describe('resume of a session on a host', () => {
  it('resumes the session itself without --fork', async () => {
    expect(await resume({})).toMatchObject({ kind: 'done', code: 0 });
    expect(readFileSync(argvFile, 'utf8').trimEnd().split('\n').at(-1)).toBe(`cd ${REMOTE_HOME}/proj && pi --session ${remoteFile}`);
  });

  it('with --fork, branches it there with the agent\'s own fork', async () => {
    const r = await resume({ fork: true });
    expect(r).toMatchObject({ kind: 'done', code: 0 });
    expect(readFileSync(argvFile, 'utf8').trimEnd().split('\n').at(-1)).toBe(`cd ${REMOTE_HOME}/proj && pi --fork ${remoteFile}`);
  });

  it('says --next and --cwd are for this machine\'s sessions rather than drop them', async () => {
    writeFileSync(argvFile, '');
    const r = await resume({ next: true });
    expect(r).toMatchObject({ kind: 'done', code: 2, err: expect.stringMatching(/--next .*this machine/) });
    expect(await resume({ cwd: '/elsewhere' })).toMatchObject({ kind: 'done', code: 2, err: expect.stringMatching(/--cwd .*this machine/) });
    expect(readFileSync(argvFile, 'utf8')).toBe('');
  });

  it('show --host gives the fork through ssh too, never the copy\'s own path', async () => {
    const { runMemoryCommand } = await import('../../cli/commands/memory-run.js');
    const deps = { env, cwd: env.HOME as string, now: Date.now(), columns: 400, color: false };
    const card = JSON.parse((await runMemoryCommand('show', [ID], { host: ['gpu'], json: true }, deps)).out) as { forkCommand?: string[] };
    expect(card.forkCommand?.at(-1)).toBe(`cd ${REMOTE_HOME}/proj && pi --fork ${remoteFile}`);
    const text = (await runMemoryCommand('show', [ID], { host: ['gpu'] }, deps)).out;
    expect(text).toMatch(new RegExp(`^fork: +recapwrap resume ${ID} --host gpu --fork `, 'm'));
  });
});

describe("the lines show prints for pasting, of a host's session", () => {
  // A host's session whose id is a shell command (an id is whatever the transcript says).
  const EVIL = 'x;touch pwned$(touch pwned2)';
  it('are quoted: pasted into a shell, they run recapwrap and ssh with that id as one word, nothing else', async () => {
    await layOutCopy('evil', EVIL, 'hostile id');
    const { runMemoryCommand } = await import('../../cli/commands/memory-run.js');
    const deps = { env, cwd: env.HOME as string, now: Date.now(), columns: Number.POSITIVE_INFINITY, color: false };
    const r = await runMemoryCommand('show', ['hostile'], { host: ['evil'] }, deps);
    expect(r.err).toBe('');
    const fork = /^fork: +(.+?) {3}\((.+)\)$/m.exec(r.out);
    const resumeLine = /^resume: +(.+)$/m.exec(r.out)?.[1];
    expect(fork).not.toBeNull();
    // Each line run by a real sh, recapwrap and ssh stand-ins that print their arguments one a line.
    const shell = mkdtempSync(join(root, 'paste-'));
    const stubs = join(shell, 'bin');
    mkdirSync(stubs);
    for (const cmd of ['recapwrap', 'ssh']) {
      writeFileSync(join(stubs, cmd), `#!/bin/sh\nprintf '%s\\n' ${cmd} "$@"\n`);
      chmodSync(join(stubs, cmd), 0o755);
    }
    const paste = (line: string) => execFileSync('sh', ['-c', line], { cwd: shell, env: { PATH: `${stubs}:/usr/bin:/bin` }, encoding: 'utf8' }).trimEnd().split('\n');
    expect(paste(fork?.[1] as string)).toEqual(['recapwrap', 'resume', EVIL, '--host', 'evil', '--fork']);
    const remoteFork = paste(fork?.[2] as string);
    expect(remoteFork.slice(0, 3)).toEqual(['ssh', '-t', 'evil']);
    expect(remoteFork.at(-1)).toBe(`cd ${REMOTE_HOME}/proj && pi --fork '${REMOTE_HOME}/.pi/agent/sessions/--home-me-proj--/2026-11-20T10-00-00-000Z_${EVIL}.jsonl'`);
    expect(paste(resumeLine as string).slice(0, 3)).toEqual(['ssh', '-t', 'evil']);
    expect(readdirSync(shell)).toEqual(['bin']);
  });
});

describe('show REF on a host that has none or several', () => {
  const deps = () => ({ env, cwd: env.HOME as string, now: Date.now(), columns: Number.POSITIVE_INFINITY, color: false });
  it("says no session matches there (exit 1) when the host's recapwrap says so, never that it answered junk", async () => {
    const { runMemoryCommand } = await import('../../cli/commands/memory-run.js');
    // What a host's recapwrap prints for `show --json -- REF` it has no session for (memory-run's jsonOnFailure), exit 1.
    writeFileSync(join(root, 'answer'), JSON.stringify({ error: 'no session matches "nothing-here" (try `recapwrap search`)', code: 1 }, null, 2) + '\n');
    writeFileSync(join(root, 'answer-code'), '1');
    const r = await runMemoryCommand('show', ['nothing-here'], { host: ['canned'] }, deps());
    expect(r).toMatchObject({ code: 1, out: '' });
    expect(r.err).toBe('recapwrap: no session matches "nothing-here" on host canned\n');
  });

  it("exits 2 with the host's candidates when REF names several sessions there, as here", async () => {
    const { runMemoryCommand } = await import('../../cli/commands/memory-run.js');
    writeFileSync(join(root, 'answer'), JSON.stringify({ error: '"walrus" matches 2 sessions; use one of these id prefixes (or a longer name)', code: 2, candidates: ['0d3c2b1a  proj-tune-walrus  pi  3d  ~/proj  tune', '7e7e7e7e  proj-walrus-again  pi  3d  ~/proj  again'] }, null, 2) + '\n');
    writeFileSync(join(root, 'answer-code'), '2');
    const r = await runMemoryCommand('show', ['walrus'], { host: ['canned'] }, deps());
    expect(r.code).toBe(2);
    expect(r.err).toBe('recapwrap: host canned: "walrus" matches 2 sessions there; use one of these as canned:ID (or a longer name):\n  0d3c2b1a proj-tune-walrus pi 3d ~/proj tune\n  7e7e7e7e proj-walrus-again pi 3d ~/proj again\n');
    // The same from a pulled copy; and beside a machine where it is one session, still exit 2.
    await layOutCopy('twice', '1a1a1a1a-2222-4333-8444-555555555555', 'walrus feeding plan');
    await layOutCopy('twice', '2b2b2b2b-2222-4333-8444-555555555555', 'walrus feeding again');
    const copy = await runMemoryCommand('show', ['walrus-feeding'], { host: ['twice'] }, deps());
    expect(copy.code).toBe(2);
    expect(copy.err).toMatch(/^recapwrap: host twice: "walrus-feeding" matches 2 sessions there; use one of these as twice:ID/m);
    const both = await runMemoryCommand('show', ['walrus'], { host: ['gpu', 'twice'] }, deps());
    expect(both.code).toBe(2);
    expect(both.err).toMatch(/also matches; name one as HOST:REF \(gpu:walrus; this machine's without a prefix\):\n {2}gpu:/);
  });
});

describe('HOST:REF wherever a REF is taken', () => {
  const deps = () => ({ env, cwd: env.HOME as string, now: Date.now(), columns: Number.POSITIVE_INFINITY, color: false });
  it('the part before the first colon must be a host of the config file; a path or name with a colon stays this machine\'s', () => {
    const hosts = [{ name: 'gpu' }, { name: 'me@box.lan' }];
    expect(splitHostRef('gpu:infra-nginx-reverse-proxy', hosts)).toEqual({ host: 'gpu', ref: 'infra-nginx-reverse-proxy' });
    expect(splitHostRef('me@box.lan:0d3c2b1a', hosts)).toEqual({ host: 'me@box.lan', ref: '0d3c2b1a' });
    expect(splitHostRef('@@gpu:walrus', hosts)).toEqual({ host: 'gpu', ref: '@@walrus' });
    expect(splitHostRef('gpu:@@walrus~1', hosts)).toEqual({ host: 'gpu', ref: '@@walrus~1' });
    expect(splitHostRef('/data/gpu:runs/x.jsonl', hosts)).toBeUndefined();
    expect(splitHostRef('./gpu:x.jsonl', hosts)).toBeUndefined();
    expect(splitHostRef('cpu:walrus', hosts)).toBeUndefined();
    expect(splitHostRef('gpu:', hosts)).toBeUndefined();
    expect(splitHostRef(':walrus', hosts)).toBeUndefined();
    expect(splitHostRef('walrus', hosts)).toBeUndefined();
  });

  it('show, resume and MCP get_session take gpu:NAME as the lists print it; --host OTHER beside it is an error', async () => {
    const { runMemoryCommand } = await import('../../cli/commands/memory-run.js');
    const name = (JSON.parse((await runMemoryCommand('show', [ID], { host: ['gpu'], json: true }, deps())).out) as { name: string }).name;
    const shown = await runMemoryCommand('show', [`gpu:${name}`], { json: true }, deps());
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.out)).toMatchObject({ id: ID, host: 'gpu', name });
    expect((await runMemoryCommand('show', [`gpu:${ID.slice(0, 8)}`], {}, deps())).out).toMatch(/^host: +gpu$/m);
    // This machine has no such name: without the prefix it is not found here.
    expect((await runMemoryCommand('show', [name], {}, deps())).code).toBe(1);
    const other = await runMemoryCommand('show', [`gpu:${name}`], { host: ['dev'] }, deps());
    expect(other).toMatchObject({ code: 2, err: `recapwrap: "gpu:${name}" names a session of host gpu, but --host asks dev: give one of them\n` });
    // A colon that names no host: a REF of this machine, as given.
    expect((await runMemoryCommand('show', [`cpu:${name}`], {}, deps())).err).toBe(`recapwrap: no session matches "cpu:${name}" (try \`recapwrap search\`)\n`);
    const { runResume } = await import('../../cli/commands/resume-run.js');
    writeFileSync(argvFile, '');
    const resumed = await runResume(`gpu:${name}`, {}, { env, cwd: env.HOME as string, columns: 80, now: Date.now(), interactive: false, ask: async () => null, write: () => {}, launch: async () => 99 });
    expect(resumed.code).toBe(0);
    expect(readFileSync(argvFile, 'utf8').trimEnd().split('\n').at(-1)).toBe(`cd ${REMOTE_HOME}/proj && pi --session ${remoteFile}`);
    const { getSession } = await import('../mcp/tools.js');
    const { createMcpHosts } = await import('./mcp-hosts.js');
    const ctx = {
      memory: () => Promise.reject(new Error('this machine is not asked')), cwd: env.HOME as string, now: () => Date.now(),
      answerer: { unavailable: 'no model' }, hosts: createMcpHosts(env, env.HOME as string),
    };
    expect(await getSession({ session: `gpu:${name}` }, ctx)).toMatchObject({ id: ID, host: 'gpu' });
  });
});

describe('forget --host NAME REF of a host read from its copy', () => {
  it('forgets it in the copy (row and copied file; a pull leaves it out) and says the host keeps it', async () => {
    const id = '4a4a4a4a-2222-4333-8444-555555555555';
    await layOutCopy('forgetme', id, 'walrus secrets to forget');
    const { runMemoryCommand } = await import('../../cli/commands/memory-run.js');
    const deps = { env, cwd: env.HOME as string, now: Date.now(), columns: Number.POSITIVE_INFINITY, color: false };
    const file = join(mirrorDir(env, 'forgetme'), 'home', '.pi', 'agent', 'sessions', '--home-me-proj--', `2026-11-20T10-00-00-000Z_${id}.jsonl`);
    expect(existsSync(file)).toBe(true);
    const r = await runMemoryCommand('forget', [`forgetme:${id}`], { yes: true }, deps);
    expect(r).toMatchObject({ code: 0, out: `forgot "${id}" in the copy of host forgetme here; a pull does not copy it again\n` });
    expect(r.err).toBe('recapwrap: host forgetme: forgetme is read from its copy (mirror: true): the host itself still has the session\n');
    expect(existsSync(file)).toBe(false);
    expect((await runMemoryCommand('show', [id], { host: ['forgetme'] }, deps)).code).toBe(1);
    // What the next pull leaves out: the copy's own forgotten list names it.
    const { forgottenUnder } = await import('./mirror.js');
    const { readForgotten } = await import('../../memory/forgotten.js');
    const listed = forgottenUnder(readForgotten(join(mirrorDir(env, 'forgetme'), 'forgotten')).map((e) => JSON.stringify(e)).join('\n'), join(mirrorDir(env, 'forgetme'), 'home'));
    expect(listed.map((e) => e.rel)).toEqual([`.pi/agent/sessions/--home-me-proj--/2026-11-20T10-00-00-000Z_${id}.jsonl`]);
    // name and note are kept by a host's recapwrap: a copy has none to keep them.
    const named = await runMemoryCommand('name', [`gpu:${ID}`, 'my-walrus'], {}, deps);
    expect(named).toMatchObject({ code: 2, err: 'recapwrap: host gpu: it is read from its copy (mirror: true), which has no recapwrap to keep your name; give it there\n' });
    // One host at a time, a session (not a folder).
    expect((await runMemoryCommand('forget', [id], { allHosts: true, yes: true }, deps)).code).toBe(2);
  });
});

describe('search --all-words on a host', () => {
  const deps = () => ({ env, cwd: env.HOME as string, now: Date.now(), columns: 400, color: false });
  it("keeps only the copy's sessions holding every word", async () => {
    const { runMemoryCommand } = await import('../../cli/commands/memory-run.js');
    const hits = (words: string, allWords: boolean) => runMemoryCommand('search', [words], { host: ['gpu'], json: true, allWords }, deps());
    expect(JSON.parse((await hits('walrus zeppelin', false)).out)).toHaveLength(1);
    const strict = await hits('walrus zeppelin', true);
    expect(strict.code).toBe(1);
    expect(JSON.parse(strict.out)).toEqual([]);
  });

  it('checks --limit as this machine does (a clear message, exit 2), before any host is asked', async () => {
    const { runMemoryCommand } = await import('../../cli/commands/memory-run.js');
    writeFileSync(argvFile, '');
    for (const limit of ['99999999999999999999', '2000000', '1e3']) {
      const r = await runMemoryCommand('search', ['walrus'], { host: ['dev'], json: true, limit }, deps());
      expect(r.code, limit).toBe(2);
      expect(r.err, limit).toContain('Expected `--limit` to be a whole number from 1 to 1,000,000');
      expect(JSON.parse(r.out), limit).toMatchObject({ code: 2 });
    }
    expect(readFileSync(argvFile, 'utf8')).toBe('');
  });

  it("asks a host's recapwrap with --all-words", async () => {
    const { runMemoryCommand } = await import('../../cli/commands/memory-run.js');
    writeFileSync(argvFile, '');
    await runMemoryCommand('search', ['walrus zeppelin'], { host: ['dev'], json: true, allWords: true }, deps());
    // The remote command is the last argument (the guard's script: several lines).
    expect(readFileSync(argvFile, 'utf8')).toMatch(/ search --json .*--all-words/);
  });
});

describe('MCP get_session on a host', () => {
  it('takes REF~N as the session (its parents are not read there, and it says so)', async () => {
    const { getSession } = await import('../mcp/tools.js');
    const { createMcpHosts } = await import('./mcp-hosts.js');
    const ctx = {
      memory: () => Promise.reject(new Error('this machine is not asked')), cwd: env.HOME as string, now: () => Date.now(),
      answerer: { unavailable: 'no model' }, hosts: createMcpHosts(env, env.HOME as string),
    };
    const card = (await getSession({ session: `${ID}~1`, host: 'gpu' }, ctx)) as { id: string; host: string; parentsNote?: string };
    expect(card).toMatchObject({ id: ID, host: 'gpu', parentsNote: expect.stringContaining('host gpu') });
  });
});

describe('search on a host, as plain text', () => {
  it('says when no session holds every word, and which words each holds', async () => {
    const { runMemoryCommand } = await import('../../cli/commands/memory-run.js');
    const deps = { env, cwd: env.HOME as string, now: Date.now(), columns: 400, color: false };
    const partial = await runMemoryCommand('search', ['walrus zeppelin'], { host: ['gpu'] }, deps);
    expect(partial.out).toMatch(/^no session holds every word of "walrus zeppelin"; closest matches/);
    expect(partial.out).toContain('[walrus] ');
    const whole = await runMemoryCommand('search', ['walrus exporter'], { host: ['gpu'] }, deps);
    expect(whole.out).not.toContain('closest');
    expect(whole.out).toMatch(/^gpu:/);
  });
});

describe('MCP search_sessions and list_sessions on a host read as the CLI does', () => {
  it("read a pulled copy's sessions (mirror mode), paths as on the host", async () => {
    const { searchSessions, listSessions } = await import('../mcp/tools.js');
    const { createMcpHosts } = await import('./mcp-hosts.js');
    const ctx = {
      memory: () => Promise.reject(new Error('this machine is not asked')), cwd: env.HOME as string, now: () => Date.now(),
      answerer: { unavailable: 'no model' }, hosts: createMcpHosts(env, env.HOME as string),
    };
    const found = (await searchSessions({ query: 'walrus', host: 'gpu' }, ctx)) as { sessions: Array<{ id: string; host: string; snippet: string }> };
    expect(found.sessions.map((s) => [s.id, s.host])).toEqual([[ID, 'gpu']]);
    expect(found.sessions[0]?.snippet).toContain('walrus');
    const listed = (await listSessions({ host: 'gpu' }, ctx)) as { sessions: Array<{ id: string; host: string }> };
    expect(listed.sessions.map((s) => [s.id, s.host])).toEqual([[ID, 'gpu']]);
  });
});

describe('what a host answers', () => {
  it('has its secrets masked before any cut, like a transcript (an older recapwrap there may have kept one)', async () => {
    const { parseRemoteList, parseRemoteObject, remoteCardSchema, remoteHitSchema } = await import('./remote-schema.js');
    const token = 'ghp_' + 'Zq7Xw2Vb9Nc4Mk8Lj3Hg6Fd1Sa5Pt0Ry7Eu42';
    const item = {
      id: 'abc-123', agent: 'claude', cwd: '/home/me/proj', project: 'proj', name: 'proj-push', createdAt: '2026-11-20T10:00:00.000Z', updatedAt: '2026-11-21T10:00:00.000Z',
      transcript: '/home/me/.claude/projects/x/abc-123.jsonl', headline: 'h'.repeat(490) + ' ' + token, title: `push with ${token}`,
      snippet: 'x'.repeat(1990) + ' ' + token, score: 0, matched: ['push'],
    };
    const hits = parseRemoteList(JSON.stringify([item]), remoteHitSchema);
    const card = parseRemoteObject(JSON.stringify({ ...item, summary: `pushed with ${token}`, done: [`pushed with ${token}`], line: 'r'.repeat(995) + ' ' + token }), remoteCardSchema);
    const kept = JSON.stringify([hits, card]);
    expect(kept).toContain('/home/me/.claude/projects/x/abc-123.jsonl');
    for (let n = 6; n <= token.length; n++) expect(kept, `the token's first ${n} characters`).not.toContain(token.slice(0, n));
  });
});

describe("a host's card", () => {
  it('keeps your note, the parent it was forked from and its forks, as this machine shows them', async () => {
    const { parseRemoteObject, remoteCardSchema } = await import('./remote-schema.js');
    const card = {
      id: 'abc-123', agent: 'pi', cwd: '/home/me/proj', project: 'proj', name: 'proj-push', createdAt: '2026-11-20T10:00:00.000Z', updatedAt: '2026-11-21T10:00:00.000Z',
      transcript: '/home/me/.pi/agent/sessions/x/abc-123.jsonl', headline: 'my own recap', generator: { type: 'user_edited' },
      note: 'my own recap\nnext: the tests', noteAt: '2026-11-22T10:00:00.000Z', parent: 'par-1', parentName: 'proj-start',
      children: [{ id: 'kid-1', name: 'proj-try', agent: 'pi' }], latest: { headline: 'push: done', line: 'recap: pushed', generator: { type: 'heuristic' } },
    };
    const parsed = parseRemoteObject(JSON.stringify(card), remoteCardSchema);
    expect(parsed).toMatchObject({ ok: true, item: { note: card.note.replace('\n', ' '), noteAt: card.noteAt, parent: 'par-1', parentName: 'proj-start', children: card.children, latest: card.latest } });
  });
});
