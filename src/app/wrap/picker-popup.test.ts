import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_REQUEST_BYTES, requestControl, startControlServer, stopControlServer } from '../../display/control-socket.js';
import { MAX_PASTE_BYTES, checkedBlock, pasteRequestBytes, popupArgs, popupEnv } from './picker-popup.js';

describe('popupArgs', () => {
  it("takes the pane's width and the picker's rows at the pane's bottom left, borderless on tmux 3.3+", () => {
    const args = popupArgs({ pane: '%3', cols: 100, rows: 30, cwd: '/w', borderless: true }) as string[];
    expect(args.slice(0, 4)).toEqual(['display-popup', '-t', '%3', '-E']);
    expect(args).toContain('-B');
    const at = (flag: string) => args[args.indexOf(flag) + 1];
    expect([at('-w'), at('-h'), at('-x'), at('-y'), at('-d')]).toEqual(['100', '12', 'P', 'P', '/w']);
  });
  it('adds the border rows before tmux 3.3, fewer rows in a short pane, none in a tiny one', () => {
    const old = popupArgs({ pane: '%3', cols: 80, rows: 30, cwd: '/w', borderless: false }) as string[];
    expect(old).not.toContain('-B');
    expect(old[old.indexOf('-h') + 1]).toBe('14');
    const short = popupArgs({ pane: '%3', cols: 80, rows: 6, cwd: '/w', borderless: true }) as string[];
    expect(short[short.indexOf('-h') + 1]).toBe('6');
    expect(popupArgs({ pane: '%3', cols: 80, rows: 3, cwd: '/w', borderless: true })).toBeUndefined();
    expect(popupArgs({ pane: '%3', cols: 80, rows: 5, cwd: '/w', borderless: false })).toBeUndefined();
  });
});

describe('popupEnv', () => {
  it("hands on the folders and the index's settings only: never a key, a token, a base URL or the rest", () => {
    const env = popupEnv({
      HOME: '/h',
      PATH: '/bin',
      XDG_STATE_HOME: '/s',
      LC_ALL: 'C.UTF-8',
      RECAPWRAP_STATE_DIR: '/st',
      RECAPWRAP_MEMORY_FOLDERS: '~/src',
      CODEX_HOME: '/c',
      RECAPWRAP_OPENAI_API_KEY: 'sk-1',
      RECAPWRAP_OPENAI_BASE_URL: 'https://user:pass@llm.example/v1',
      RECAPWRAP_ANTHROPIC_BASE_URL: 'https://user:pass@llm.example',
      OPENAI_BASE_URL: 'https://user:pass@llm.example/v1',
      RECAPWRAP_GENERATOR: 'openai',
      RECAPWRAP_MEMORY: '1',
      RECAPWRAP_DEBUG_LOG: '/d.log',
      CLAUDE_CONFIG_DIR: '/cl',
      OPENAI_API_KEY: 'sk-2',
      GITHUB_TOKEN: 'ghp',
      TMUX: '/tmp/tmux-0/default,1,0',
      SHELL: '/bin/zsh',
      UNSET: undefined,
    });
    expect(env.sort()).toEqual([
      'CLAUDE_CONFIG_DIR=/cl', 'CODEX_HOME=/c', 'HOME=/h', 'LC_ALL=C.UTF-8', 'PATH=/bin', 'RECAPWRAP_DEBUG_LOG=/d.log',
      'RECAPWRAP_MEMORY=1', 'RECAPWRAP_MEMORY_FOLDERS=~/src', 'RECAPWRAP_STATE_DIR=/st', 'XDG_STATE_HOME=/s',
    ]);
    expect(env.join(' ')).not.toContain('pass@');
  });
});

describe('the largest block the wrapper takes', () => {
  // Windows paths (every `\\` doubled in JSON), quotes (doubled too) and CJK (3 bytes a character).
  function blockOf(bytes: number): string {
    const line = 'folder: C:\\Users\\山田\\プロジェクト\\"引用"\\src\\ | transcript: D:\\会话\\記録.jsonl';
    let text = line;
    while (pasteRequestBytes(text + '\n' + line) <= bytes) text += '\n' + line;
    return text + 'a'.repeat(bytes - pasteRequestBytes(text));
  }

  it('fits a control-socket request line and arrives whole; one byte more is refused by the wrapper, not the line limit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rw-paste-'));
    const path = join(dir, 'run', '1.sock');
    const got: string[] = [];
    const server = await startControlServer(path, async (cmd, request) => {
      const block = checkedBlock(request.text);
      got.push(block);
      return { pasted: true };
    });
    try {
      const biggest = blockOf(MAX_PASTE_BYTES);
      expect(pasteRequestBytes(biggest)).toBe(MAX_PASTE_BYTES);
      expect(biggest.length).toBeLessThan(MAX_PASTE_BYTES * 0.7); // the escaping and CJK are really in it
      const token = 'ab'.repeat(16);
      const line = JSON.stringify({ token, text: biggest, id: 1, cmd: 'paste' });
      expect(Buffer.byteLength(line)).toBeLessThanOrEqual(MAX_REQUEST_BYTES);
      expect(await requestControl(path, 'paste', 2000, { token, text: biggest })).toMatchObject({ ok: true, pasted: true });
      expect(got).toEqual([biggest.split('\n').slice(0, 12).join('\n')]);

      const over = await requestControl(path, 'paste', 2000, { token, text: biggest + 'a' });
      expect(over).toMatchObject({ ok: false });
      expect(String(over.error)).toContain(`at most ${MAX_PASTE_BYTES} bytes`);
      expect(got).toHaveLength(1);
    } finally {
      stopControlServer(server, path);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
