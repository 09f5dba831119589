import { describe, expect, it } from 'vitest';
import { parseTmuxVersion, tmuxAtLeast } from './tmux-version.js';

describe('parseTmuxVersion', () => {
  it('reads releases, letters and next- builds; none from a build without a number', () => {
    expect(parseTmuxVersion('tmux 3.3a\n')).toEqual({ major: 3, minor: 3 });
    expect(parseTmuxVersion('tmux 3.1c')).toEqual({ major: 3, minor: 1 });
    expect(parseTmuxVersion('tmux next-3.6')).toEqual({ major: 3, minor: 6 });
    expect(parseTmuxVersion('tmux master')).toBeUndefined();
  });

  it('compares by major, then minor (3.10 is after 3.9)', () => {
    expect(tmuxAtLeast({ major: 3, minor: 10 }, 3, 9)).toBe(true);
    expect(tmuxAtLeast({ major: 3, minor: 2 }, 3, 2)).toBe(true);
    expect(tmuxAtLeast({ major: 3, minor: 1 }, 3, 2)).toBe(false);
    expect(tmuxAtLeast({ major: 1, minor: 8 }, 1, 9)).toBe(false);
    expect(tmuxAtLeast({ major: 4, minor: 0 }, 3, 3)).toBe(true);
  });
});
