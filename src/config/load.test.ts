import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findHotkey, HOTKEY_SYNTAX, parseHotkey } from './hotkey.js';
import { addOptionFlags, findProjectConfig, flagValuesFromCommand, renderOptionsMarkdown, resolveConfig } from './load.js';
import { OPTIONS } from './options-table.js';
import { readTrustList, trustProjectFile, untrustProjectFile } from './trust-list.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'rw-config-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

// Modes set, not left to the umask: a group-writable project file is refused (#40 item 1).
const writeJson = (file: string, value: unknown) => {
  mkdirSync(join(file, '..'), { recursive: true, mode: 0o755 });
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  chmodSync(file, 0o644);
};

describe('resolveConfig', () => {
  it('uses the table defaults with no files, env or flags', () => {
    const c = resolveConfig({ env: { HOME: home }, cwd: home });
    expect(c.options.awaySeconds).toBe(30);
    expect(c.options.idleSeconds).toBe(120);
    expect(c.options.display).toBe('auto');
    expect(c.sources.awaySeconds).toEqual({ source: 'default' });
    expect(c.problems).toEqual([]);
  });

  it('layers global file < project file < env < flags, and says where each value came from', () => {
    const project = join(home, 'work', 'proj');
    const sub = join(project, 'src');
    mkdirSync(sub, { recursive: true });
    writeJson(join(home, '.config', 'recapwrap', 'config.json'), { awaySeconds: 10, idleSeconds: 5, position: 'top', display: 'tmux' });
    writeJson(join(project, '.recapwrap.json'), { idleSeconds: 7, position: 'bottom' });
    const c = resolveConfig({ env: { HOME: home, RECAPWRAP_POSITION: 'top', RECAPWRAP_DISPLAY: 'none' }, cwd: sub, flags: { display: 'overlay' } });
    expect(c.options).toMatchObject({ awaySeconds: 10, idleSeconds: 7, position: 'top', display: 'overlay' });
    expect(c.sources.awaySeconds.source).toBe('global file');
    expect(c.sources.idleSeconds).toEqual({ source: 'project file', where: join(project, '.recapwrap.json') });
    expect(c.sources.position).toEqual({ source: 'env', where: 'RECAPWRAP_POSITION' });
    expect(c.sources.display).toEqual({ source: 'flag', where: '--display' });
  });

  it('reports bad values with what was expected and keeps the lower layer', () => {
    writeJson(join(home, '.config', 'recapwrap', 'config.json'), { awaySeconds: 'soon', colour: 'red' });
    const c = resolveConfig({ env: { HOME: home, RECAPWRAP_IDLE: '-5', RECAPWRAP_LLM: 'maybe' }, cwd: home, flags: { display: 'popup', hotkey: 'ctrl-c' } });
    expect(c.options.awaySeconds).toBe(30);
    expect(c.options.idleSeconds).toBe(120);
    expect(c.options.display).toBe('auto');
    const messages = c.problems.map((p) => p.message);
    // Each source named as the user wrote it: the key and its file, the environment variable, the flag (#18).
    const globalFile = join(home, '.config', 'recapwrap', 'config.json');
    expect(messages).toContain(`Expected \`awaySeconds\` in ${globalFile} to be a number of seconds from 0 to 86400, got \`"soon"\``);
    expect(messages.some((m) => m.startsWith('Unknown option `colour`'))).toBe(true);
    expect(messages).toContain('Expected the environment variable RECAPWRAP_IDLE to be a number of seconds from 0 to 86400, got `-5`');
    expect(messages).toContain('Expected the environment variable RECAPWRAP_LLM to be true or false, got `maybe`');
    expect(messages).toContain('Expected `--display` to be one of auto, overlay, tmux, none, got `popup`');
    expect(messages).toContain('Expected `--hotkey` to be a key the agent does not need (the terminal sends ctrl-c as Ctrl-C), got `ctrl-c`');
    for (const m of messages) expect(m).not.toMatch(/\((string|number)\)|the `RECAPWRAP_\w+` option/);
    expect(c.problems.find((p) => p.where === '--display')?.source).toBe('flag');
  });

  it('collects unreadable files instead of throwing', () => {
    writeJson(join(home, '.config', 'recapwrap', 'config.json'), '{oops');
    const c = resolveConfig({ env: { HOME: home }, cwd: home });
    expect(c.problems[0]?.message).toMatch(/^Cannot read .*config\.json/);
    writeJson(join(home, '.config', 'recapwrap', 'config.json'), '[1]');
    expect(resolveConfig({ env: { HOME: home }, cwd: home }).problems[0]?.message).toContain('JSON object, got an array');
  });

  it('reads OPENAI_BASE_URL as a fallback for the openai endpoint', () => {
    const c = resolveConfig({ env: { HOME: home, OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' }, cwd: home });
    expect(c.options.openaiBaseUrl).toBe('http://127.0.0.1:11434/v1');
    const own = resolveConfig({ env: { HOME: home, OPENAI_BASE_URL: 'http://a', RECAPWRAP_OPENAI_BASE_URL: 'http://b' }, cwd: home });
    expect(own.options.openaiBaseUrl).toBe('http://b');
  });
});

describe('flags from the table', () => {
  it('declares every flagged option and reads back only what the user gave', () => {
    const cmd = new Command('x').exitOverride();
    addOptionFlags(cmd);
    cmd.parse(['--away', '5', '--no-llm', '--display', 'tmux'], { from: 'user' });
    expect(flagValuesFromCommand(cmd)).toEqual({ awaySeconds: '5', llm: false, display: 'tmux' });
    const flags = cmd.options.map((o) => o.long);
    for (const o of OPTIONS) if ('flag' in o && o.flag) expect(flags.some((f) => f?.endsWith(o.flag))).toBe(true);
  });

  it('renders the README table from the same source', () => {
    const md = renderOptionsMarkdown();
    expect(md.split('\n')).toHaveLength(OPTIONS.length + 3);
    expect(md).toContain('`--no-focus`');
    // Which keys a project file may set, from the same table (#40 item 1).
    expect(md).toMatch(/^\| `awaySeconds` .*\| yes \|/m);
    expect(md).toMatch(/^\| `openaiBaseUrl` .*\| if trusted \|/m);
    expect(md).toMatch(/^\| `hosts` .*\| if trusted \|/m);
  });
});

describe('hotkeys', () => {
  it('knows legacy, kitty and modifyOtherKeys forms of ctrl keys', () => {
    const k = parseHotkey('ctrl-]');
    expect(k).toMatchObject({ sequences: ['\x1d', '\x1b[93;5u', '\x1b[27;5;93~'] });
    if (!k || typeof k === 'string') throw new Error('unreachable');
    expect(findHotkey(k, 'ab\x1dcd')).toEqual({ index: 2, length: 1 });
    expect(findHotkey(k, 'x\x1b[93;5u')).toEqual({ index: 1, length: 7 });
    expect(findHotkey(k, 'plain')).toEqual({ index: -1, length: 0 });
  });
  it('knows ctrl-^ as a kitty-protocol terminal reports it, Ctrl+Shift+6 (pi turns that protocol on)', () => {
    const k = parseHotkey('ctrl-^');
    if (!k || typeof k === 'string') throw new Error('expected a key');
    for (const form of ['\x1e', '\x1b[94;5u', '\x1b[54;6u', '\x1b[54:94;6u', '\x1b[54;5u', '\x1b[27;6;94~']) expect(findHotkey(k, `a${form}b`), JSON.stringify(form)).toEqual({ index: 1, length: form.length });
    expect(findHotkey(k, '\x1b[54;2u6')).toEqual({ index: -1, length: 0 }); // Shift-6 alone is `^`
    expect((parseHotkey('ctrl-]') as { sequences: string[] }).sequences).toHaveLength(3);
  });
  it('accepts f-keys and none, rejects keys the agent needs', () => {
    expect(parseHotkey('F12')).toMatchObject({ sequences: ['\x1b[24~'] });
    expect(parseHotkey('none')).toBeNull();
    expect(parseHotkey('ctrl-m')).toMatch(/Enter/);
    expect(parseHotkey('alt-x')).toBe(HOTKEY_SYNTAX);
    // A key that is no key at all gets the syntax, not an explanation about Esc and Enter (#18).
    expect(parseHotkey('ctrl-1')).toBe(HOTKEY_SYNTAX);
    const flag = resolveConfig({ env: { HOME: home }, cwd: home, flags: { hotkey: 'ctrl-1' } }).problems[0]?.message;
    expect(flag).toBe('Expected `--hotkey` to be ctrl-<letter>, ctrl-] (or ctrl-\\ ctrl-^ ctrl-_), f1–f12 or none, got `ctrl-1`');
    const env = resolveConfig({ env: { HOME: home, RECAPWRAP_HOTKEY: 'ctrl-1' }, cwd: home }).problems[0]?.message;
    expect(env).toMatch(/^Expected the environment variable RECAPWRAP_HOTKEY to be ctrl-<letter>/);
  });
});

// #40 item 1: a cloned repo's .recapwrap.json never makes recapwrap run a command, reach a host or send text
// anywhere; it sets display and timing only, unless the user trusted that very content.
describe('the project file under the trust rule', () => {
  const hostile = {
    awaySeconds: 12,
    display: 'none',
    hosts: [{ name: 'build', ssh: ["-oProxyCommand=sh -c 'touch /tmp/pwned'", 'x'] }],
    notify: 'command:touch /tmp/pwned',
    pastGenerator: 'openai',
    openaiBaseUrl: 'http://elsewhere/v1',
    memoryFolders: '/etc',
  };
  const setUp = () => {
    const project = join(home, 'clone');
    writeJson(join(project, '.recapwrap.json'), hostile);
    return { project, file: join(project, '.recapwrap.json'), env: { HOME: home } };
  };

  it('takes its display and timing keys only, says which keys it ignored and why, in one line', () => {
    const { project, file, env } = setUp();
    const c = resolveConfig({ env, cwd: project });
    expect(c.options).toMatchObject({ awaySeconds: 12, display: 'none', notify: 'auto', pastGenerator: 'heuristic', openaiBaseUrl: 'https://api.openai.com/v1', memoryFolders: '' });
    expect(c.hosts).toBeUndefined();
    expect(c.sources.awaySeconds).toEqual({ source: 'project file', where: file });
    expect(c.project).toMatchObject({ file, status: 'read', ignoredKeys: ['hosts', 'notify', 'pastGenerator', 'openaiBaseUrl', 'memoryFolders'].map((key) => ({ key, why: 'untrusted key' })) });
    expect(c.notice).toBe(`${file}: hosts, notify, pastGenerator, openaiBaseUrl, memoryFolders ignored (a project file sets display and timing only; read it, then \`recapwrap config trust\` to use them)`);
    expect(c.problems).toEqual([]);
    // The user's own file still sets all of them.
    writeJson(join(home, '.config', 'recapwrap', 'config.json'), { hosts: ['devbox'], notify: 'bell' });
    const own = resolveConfig({ env, cwd: project });
    expect(own.hosts).toMatchObject({ value: ['devbox'], source: 'global file' });
    expect(own.options.notify).toBe('bell');
  });

  it('takes every key once trusted (path and content hash, kept in the config folder), and none again once edited or untrusted', () => {
    const { project, file, env } = setUp();
    const trusted = trustProjectFile(env, project, undefined, new Date('2026-01-02T03:04:05Z'));
    expect(trusted).toMatchObject({ ok: true, file, already: false, unlocked: [{ key: 'hosts', value: hostile.hosts }, { key: 'notify' }, { key: 'pastGenerator' }, { key: 'openaiBaseUrl' }, { key: 'memoryFolders' }] });
    expect(readTrustList(env)).toMatchObject({ file: join(home, '.config', 'recapwrap', 'trusted-projects.json'), entries: { [file]: { sha256: expect.stringMatching(/^[0-9a-f]{64}$/), trustedAt: '2026-01-02T03:04:05.000Z' } } });
    const c = resolveConfig({ env, cwd: join(project) });
    expect(c.project).toMatchObject({ status: 'trusted', ignoredKeys: [] });
    expect(c.notice).toBeUndefined();
    expect(c.hosts).toEqual({ value: hostile.hosts, file, source: 'project file' });
    expect(c.options).toMatchObject({ notify: 'command:touch /tmp/pwned', pastGenerator: 'openai', openaiBaseUrl: 'http://elsewhere/v1' });
    expect(trustProjectFile(env, project, file)).toMatchObject({ ok: true, already: true });
    // One byte changed: untrusted again, and said so.
    writeJson(file, { ...hostile, openaiBaseUrl: 'http://elsewhere2/v1' });
    const changed = resolveConfig({ env, cwd: project });
    expect(changed.project?.ignoredKeys.map((k) => k.why)).toEqual(Array(5).fill('changed since trusted'));
    expect(changed.options.openaiBaseUrl).toBe('https://api.openai.com/v1');
    expect(changed.notice).toMatch(/changed since you trusted it: hosts, notify, .* ignored until you read it and trust it again/);
    expect(untrustProjectFile(env, project, undefined)).toEqual({ ok: true, file });
    expect(readTrustList(env).entries).toEqual({});
    expect(untrustProjectFile(env, project, undefined)).toMatchObject({ ok: false, message: expect.stringContaining('is not trusted') });
  });

  it('ignores the whole file when group or others may write it, or when its folder is writable by everyone', () => {
    const { project, file, env } = setUp();
    chmodSync(file, 0o666);
    const open = resolveConfig({ env, cwd: project });
    expect(open.options.awaySeconds).toBe(30);
    expect(open.project).toMatchObject({ status: 'ignored', refused: { reason: 'permissions' } });
    expect(open.notice).toBe(`ignored ${file} is writable by group and others (mode 666; \`chmod go-w ${file}\` if its content is yours)`);
    expect(trustProjectFile(env, project, undefined)).toMatchObject({ ok: false, message: expect.stringMatching(/^cannot trust it: .* is writable by group and others/) });
    chmodSync(file, 0o644);
    chmodSync(project, 0o1777);
    const folder = resolveConfig({ env, cwd: project });
    expect(folder.options.awaySeconds).toBe(30);
    expect(folder.project).toMatchObject({ status: 'ignored', refused: { reason: 'folder' } });
    expect(folder.notice).toContain('which everyone may write to (mode 1777)');
    // Trusted before the folder was opened up: still ignored.
    chmodSync(project, 0o755);
    expect(trustProjectFile(env, project, undefined).ok).toBe(true);
    chmodSync(project, 0o777);
    expect(resolveConfig({ env, cwd: project }).hosts).toBeUndefined();
  });

  it.skipIf(typeof process.getuid !== 'function' || process.getuid() !== 0)("ignores another user's file, also when root runs recapwrap (and another user's global file)", () => {
    const { project, file, env } = setUp();
    expect(trustProjectFile(env, project, undefined).ok).toBe(true);
    chownSync(file, 65534, 65534);
    const c = resolveConfig({ env, cwd: project });
    expect(c.hosts).toBeUndefined();
    expect(c.project).toMatchObject({ status: 'ignored', refused: { reason: 'owner', message: `${file} belongs to uid 65534, not to you (uid 0)` } });
    const globalFile = join(home, '.config', 'recapwrap', 'config.json');
    writeJson(globalFile, { hosts: ['devbox'] });
    chownSync(globalFile, 65534, 65534);
    const g = resolveConfig({ env, cwd: home });
    expect(g.hosts).toBeUndefined();
    expect(g.problems).toEqual([{ source: 'global file', where: globalFile, message: `ignored ${globalFile} belongs to uid 65534, not to you (uid 0)` }]);
  });

  it('walks up to below the home folder, or to the repository root outside it; outside a repository only the folder itself', () => {
    writeJson(join(home, '.recapwrap.json'), { awaySeconds: 1 });
    mkdirSync(join(home, 'a', 'b'), { recursive: true });
    expect(findProjectConfig(join(home, 'a', 'b'), home)).toBeUndefined();
    expect(findProjectConfig(home, home)).toBeUndefined();
    expect(resolveConfig({ env: { HOME: home }, cwd: join(home, 'a', 'b') }).options.awaySeconds).toBe(30);
    writeJson(join(home, 'a', '.recapwrap.json'), { awaySeconds: 2 });
    expect(findProjectConfig(join(home, 'a', 'b'), home)).toBe(join(home, 'a', '.recapwrap.json'));
    // Outside home (HOME elsewhere): the repository root bounds the walk.
    const elsewhere = join(home, 'srv');
    const other = { HOME: join(home, 'nobody') };
    writeJson(join(elsewhere, '.recapwrap.json'), { awaySeconds: 3 });
    mkdirSync(join(elsewhere, 'repo', '.git', 'x'), { recursive: true });
    mkdirSync(join(elsewhere, 'repo', 'src', 'deep'), { recursive: true });
    expect(findProjectConfig(join(elsewhere, 'repo', 'src', 'deep'), other.HOME)).toBeUndefined();
    writeJson(join(elsewhere, 'repo', '.recapwrap.json'), { awaySeconds: 4 });
    expect(findProjectConfig(join(elsewhere, 'repo', 'src', 'deep'), other.HOME)).toBe(join(elsewhere, 'repo', '.recapwrap.json'));
    mkdirSync(join(elsewhere, 'loose', 'x'), { recursive: true });
    expect(findProjectConfig(join(elsewhere, 'loose', 'x'), other.HOME)).toBeUndefined();
    expect(findProjectConfig(join(elsewhere, 'loose'), other.HOME)).toBeUndefined();
    expect(findProjectConfig(elsewhere, other.HOME)).toBe(join(elsewhere, '.recapwrap.json'));
    // HOME=/ (services, containers): no home bounds the walk, the repository rule does.
    expect(findProjectConfig(join(elsewhere, 'loose', 'x'), '/')).toBeUndefined();
    expect(findProjectConfig(join(elsewhere, 'repo', 'src', 'deep'), '/')).toBe(join(elsewhere, 'repo', '.recapwrap.json'));
  });
});
