import { describe, expect, it } from 'vitest';
import { suggestCommand } from './suggest.js';

const NAMES = ['recap', 'transcript', 'status', 'ls', 'board', 'resume', 'config', 'doctor', 'demo', 'help', 'next', 'completion'];

describe('suggestCommand', () => {
  it('names the subcommand a typo was meant to be', () => {
    expect(suggestCommand('doctr', NAMES)).toBe('doctor');
    expect(suggestCommand('docter', NAMES)).toBe('doctor');
    expect(suggestCommand('resmue', NAMES)).toBe('resume');
    expect(suggestCommand('stauts', NAMES)).toBe('status');
    expect(suggestCommand('Recap', NAMES)).toBe('recap');
    expect(suggestCommand('bord', NAMES)).toBe('board');
  });
  it('stays quiet for words that are not close, exact names, short words and paths', () => {
    expect(suggestCommand('claude', NAMES)).toBeUndefined();
    expect(suggestCommand('python3', NAMES)).toBeUndefined();
    expect(suggestCommand('doctor', NAMES)).toBeUndefined();
    expect(suggestCommand('vim', NAMES)).toBeUndefined();
    expect(suggestCommand('ls', NAMES)).toBeUndefined();
    expect(suggestCommand('lz', NAMES)).toBeUndefined();
    expect(suggestCommand('./doctr', NAMES)).toBeUndefined();
  });
});
