import { describe, expect, it } from 'vitest';
import { buildOscNotification, chooseOscKind, composeNotification, recapHeadline, terminalNamesFromEnv, wrapForTmuxPassthrough } from './notify-text.js';

describe('composeNotification', () => {
  it('says the agent, the folder and the recap headline, or the state word', () => {
    expect(composeNotification({ agent: 'claude', folder: 'billing-api', event: 'waiting', recapLine: 'recap: Asked whether to drop the old table. Next: answer it.' })).toEqual({
      title: 'claude · billing-api',
      body: 'waiting for you: Asked whether to drop the old table.',
    });
    expect(composeNotification({ agent: 'pi', folder: 'x', event: 'done' })).toEqual({ title: 'pi · x', body: 'finished its turn' });
    expect(composeNotification({ agent: 'pi', folder: 'x', event: 'error', recapLine: '' }).body).toBe('stopped on an error');
  });

  it('sanitizes transcript text: no escape sequences or control characters survive, one line, bounded', () => {
    const evil = 'recap: \x1b]0;pwned\x07Fixed\x1b[31m it\x07\r\nnow\u202e ' + 'x'.repeat(500);
    const text = composeNotification({ agent: 'pi', folder: 'dir\x1b[2J', event: 'done', recapLine: evil });
    expect(text.body).not.toMatch(/[\x00-\x1f\x7f-\x9f\u202e]/);
    expect(text.title).toBe('pi · dir');
    expect(text.body.startsWith('finished its turn: Fixed it now')).toBe(true);
    expect(text.body.length).toBeLessThanOrEqual(160);
  });

  it('recapHeadline drops the label and the Next: tail', () => {
    expect(recapHeadline('✦ recap: Tests pass. Next: ship it.')).toBe('Tests pass.');
    expect(recapHeadline(undefined)).toBeUndefined();
  });
});

describe('desktop sequences', () => {
  it('chooses OSC 9 for iTerm2, OSC 777 for Ghostty/WezTerm/foot/rxvt, nothing for the unknown', () => {
    expect(chooseOscKind(terminalNamesFromEnv({ TERM_PROGRAM: 'iTerm.app' }))).toBe('osc9');
    expect(chooseOscKind(terminalNamesFromEnv({ LC_TERMINAL: 'iTerm2', TERM_PROGRAM: 'tmux' }))).toBe('osc9');
    expect(chooseOscKind(terminalNamesFromEnv({ TERM_PROGRAM: 'ghostty' }))).toBe('osc777');
    expect(chooseOscKind(terminalNamesFromEnv({ TERM_PROGRAM: 'tmux', GHOSTTY_RESOURCES_DIR: '/x' }))).toBe('osc777');
    expect(chooseOscKind(terminalNamesFromEnv({ TERM_PROGRAM: 'WezTerm' }))).toBe('osc777');
    expect(chooseOscKind(['foot'])).toBe('osc777');
    expect(chooseOscKind(['rxvt-unicode-256color'])).toBe('osc777');
    expect(chooseOscKind(terminalNamesFromEnv({ TERM: 'xterm-256color', TERM_PROGRAM: 'Apple_Terminal' }))).toBeUndefined();
    expect(chooseOscKind(terminalNamesFromEnv({ TERM: 'tmux-256color', TERM_PROGRAM: 'tmux' }))).toBeUndefined();
    // Inside tmux: what tmux heard from the client (TERM, XTVERSION).
    expect(chooseOscKind(['xterm-256color', 'iTerm2 3.5.0'])).toBe('osc9');
  });

  it('builds BEL-terminated OSC 9 / OSC 777 with no control bytes or stray separators in the text', () => {
    const text = { title: 'pi · a;b', body: 'done: x;y' };
    expect(buildOscNotification('osc9', text)).toBe('\x1b]9;pi · a;b: done: x;y\x07');
    expect(buildOscNotification('osc777', text)).toBe('\x1b]777;notify;pi · a,b;done: x,y\x07');
    expect(buildOscNotification('osc9', { title: 't\x07', body: 'b\x1b\\' })).toBe('\x1b]9;t: b\x07');
  });

  it('wraps for tmux passthrough with every ESC doubled', () => {
    expect(wrapForTmuxPassthrough('\x1b]9;hi\x07')).toBe('\x1bPtmux;\x1b\x1b]9;hi\x07\x1b\\');
  });
});
