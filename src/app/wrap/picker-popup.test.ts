import { describe, expect, it } from 'vitest';
import { popupArgs, popupEnv } from './picker-popup.js';

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
