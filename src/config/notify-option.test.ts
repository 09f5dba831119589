import { describe, expect, it } from 'vitest';
import { resolveConfig } from './load.js';
import { parseNotifyOption, resolveNotifyChannels } from './notify-option.js';

describe('parseNotifyOption', () => {
  it('accepts words, a trailing command with commas in it, and arrays', () => {
    expect(parseNotifyOption('auto')).toMatchObject({ ok: true, value: 'auto' });
    expect(parseNotifyOption(' bell , tmux,bell ')).toMatchObject({ ok: true, value: 'bell,tmux' });
    expect(parseNotifyOption('bell,command:notify-send "a, b" "$RECAPWRAP_RECAP"')).toMatchObject({
      ok: true,
      list: { words: ['bell'], command: 'notify-send "a, b" "$RECAPWRAP_RECAP"' },
      value: 'bell,command:notify-send "a, b" "$RECAPWRAP_RECAP"',
    });
    expect(parseNotifyOption('command:ntfy publish me')).toMatchObject({ ok: true, list: { words: [], command: 'ntfy publish me' } });
    expect(parseNotifyOption(['command:say a, b', 'osc'])).toMatchObject({ ok: true, value: 'osc,command:say a, b' });
    expect(parseNotifyOption('none')).toMatchObject({ ok: true, value: 'none' });
    expect(parseNotifyOption('command:x,none')).toMatchObject({ ok: true, list: { words: [], command: 'x,none' } });
  });

  it('rejects unknown words, empty lists, empty or second commands, none with others, wrong types', () => {
    for (const bad of ['', 'beep', 'bell,,osc', 'command:', 'none,bell', 5, null, ['bell', 3], ['command:a', 'command:b'], 'bell command:x']) {
      const parsed = parseNotifyOption(bad, 'the `--notify` option');
      expect(parsed.ok, JSON.stringify(bad)).toBe(false);
      if (!parsed.ok) expect(parsed.message).toMatch(/^Expected the `--notify` option to be a list of auto, bell, osc, tmux, command:<cmd> or none/);
    }
  });
});

describe('resolveNotifyChannels', () => {
  it('auto is bell + tmux inside tmux and bell + osc outside it', () => {
    expect(resolveNotifyChannels('auto', true)).toEqual([{ type: 'bell' }, { type: 'tmux' }]);
    expect(resolveNotifyChannels('auto', false)).toEqual([{ type: 'bell' }, { type: 'osc' }]);
  });

  it('keeps explicit channels, adds the command, and none is nothing', () => {
    expect(resolveNotifyChannels('osc,auto,command:true', true)).toEqual([{ type: 'osc' }, { type: 'bell' }, { type: 'tmux' }, { type: 'command', command: 'true' }]);
    expect(resolveNotifyChannels('none', true)).toEqual([]);
    expect(resolveNotifyChannels('nonsense', false)).toEqual([]);
  });
});

describe('the notify option in the one config pass', () => {
  it('is validated like every option: a bad flag is a problem naming the flag, a good env value is canonical', () => {
    const home = '/nonexistent-home';
    const bad = resolveConfig({ env: { HOME: home, XDG_CONFIG_HOME: home }, cwd: home, flags: { notify: 'beep' } });
    expect(bad.problems).toEqual([expect.objectContaining({ source: 'flag', message: expect.stringMatching(/^Expected `--notify` to be a list of/) })]);
    expect(bad.options.notify).toBe('auto');
    const good = resolveConfig({ env: { HOME: home, XDG_CONFIG_HOME: home, RECAPWRAP_NOTIFY: ' tmux, bell ', RECAPWRAP_NOTIFY_MIN_SECONDS: '5' }, cwd: home });
    expect(good.problems).toEqual([]);
    expect(good.options).toMatchObject({ notify: 'tmux,bell', notifyMinSeconds: 5 });
  });
});
