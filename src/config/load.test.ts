import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findHotkey, HOTKEY_SYNTAX, parseHotkey } from './hotkey.js';
import { addOptionFlags, flagValuesFromCommand, renderOptionsMarkdown, resolveConfig } from './load.js';
import { OPTIONS } from './options-table.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'rw-config-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const writeJson = (file: string, value: unknown) => {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
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
    expect(md.split('\n')).toHaveLength(OPTIONS.length + 2);
    expect(md).toContain('`--no-focus`');
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
