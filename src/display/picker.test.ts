import { describe, expect, it } from 'vitest';
import { applyPickerKey, createPickerState, MAX_QUERY_CHARS, parsePickerKeys, withItems, type PickerItem, type PickerKey, type PickerState } from './picker.js';

const item = (id: string): PickerItem => ({ id, name: `name-${id}`, agent: 'pi', folder: 'proj', age: '2d', headline: `headline ${id}` });
const items = ['a', 'b', 'c'].map(item);

function run(state: PickerState, input: string) {
  const actions = [];
  for (const key of parsePickerKeys(input)) {
    const next = applyPickerKey(state, key);
    state = next.state;
    actions.push(next.action);
  }
  return { state, actions };
}

describe('parsePickerKeys', () => {
  it.each<[string, string, PickerKey[]]>([
    ['typed text', 'auth', [{ type: 'text', text: 'auth' }]],
    ['CJK text', '認証', [{ type: 'text', text: '認証' }]],
    ['a space alone', ' ', [{ type: 'text', text: ' ' }]],
    ['arrows (CSI and SS3)', '\x1b[A\x1b[B\x1bOA\x1bOB', [{ type: 'up' }, { type: 'down' }, { type: 'up' }, { type: 'down' }]],
    ['page keys', '\x1b[5~\x1b[6~', [{ type: 'page-up' }, { type: 'page-down' }]],
    ['Enter as CR, LF and kitty CSI 13u', '\r\n\x1b[13u', [{ type: 'enter' }, { type: 'enter' }, { type: 'enter' }]],
    ['a lone Esc, kitty Esc, Ctrl-C', '\x1b[27u\x03\x1b', [{ type: 'escape' }, { type: 'escape' }, { type: 'escape' }]],
    ['Ctrl-C as kitty and modifyOtherKeys', '\x1b[99;5u\x1b[27;5;99~', [{ type: 'escape' }, { type: 'escape' }]],
    ['backspace forms and Ctrl-U', '\x7f\b\x1b[127u\x15', [{ type: 'backspace' }, { type: 'backspace' }, { type: 'backspace' }, { type: 'clear' }]],
    ['text between keys', 'ab\x1b[Bc', [{ type: 'text', text: 'ab' }, { type: 'down' }, { type: 'text', text: 'c' }]],
    ['a paste becomes one line of text', '\x1b[200~fix\nthe\x1b[31m bug\x1b[201~', [{ type: 'text', text: 'fix the bug' }]],
    ['Alt+key, other CSI, tab and bidi controls are ignored', '\x1bx\x1b[2J\t\u202e', []],
    ['kitty printable key', '\x1b[97u', [{ type: 'text', text: 'a' }]],
  ])('%s', (_name, input, keys) => {
    expect(parsePickerKeys(input)).toEqual(keys);
  });
});

describe('applyPickerKey', () => {
  it('typing searches with the query; backspace drops one character (a whole CJK one)', () => {
    const { state, actions } = run(createPickerState(items), 'ab認\x7f');
    expect(state.query).toBe('ab');
    expect(actions).toEqual([{ type: 'search', query: 'ab認' }, { type: 'search', query: 'ab' }]);
  });

  it('arrows move the selection within the list, Enter picks it', () => {
    const { state, actions } = run(createPickerState(items), '\x1b[B\x1b[B\x1b[B\x1b[A\r');
    expect(state.selected).toBe(1);
    expect(actions.at(-1)).toEqual({ type: 'pick', item: items[1] });
  });

  it('Enter with nothing listed does nothing; Esc cancels', () => {
    expect(run(createPickerState([]), '\r').actions).toEqual([{ type: 'none' }]);
    expect(run(createPickerState(items), '\x1b').actions).toEqual([{ type: 'cancel' }]);
  });

  it('backspace and Ctrl-U on an empty query do not search again', () => {
    expect(run(createPickerState(items), '\x7f\x15').actions).toEqual([{ type: 'none' }, { type: 'none' }]);
  });

  it('the query is capped', () => {
    const { state } = run(createPickerState(), 'x'.repeat(MAX_QUERY_CHARS + 50));
    expect(state.query).toHaveLength(MAX_QUERY_CHARS);
  });
});

describe('withItems', () => {
  it('keeps the selection on the same session when it is still listed, else the first', () => {
    const state = { ...createPickerState(items), selected: 2 };
    expect(withItems(state, [item('c'), item('a')]).selected).toBe(0);
    expect(withItems(state, [item('x'), item('c')]).selected).toBe(1);
    expect(withItems(state, [item('x')]).selected).toBe(0);
  });
});
