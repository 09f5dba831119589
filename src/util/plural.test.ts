import { describe, expect, it } from 'vitest';
import { formatCount } from './plural.js';

describe('formatCount (#43.9: "1 prompts")', () => {
  it('one takes the singular; zero and many the plural; irregular plurals are given', () => {
    expect(formatCount(1, 'prompt')).toBe('1 prompt');
    expect(formatCount(0, 'prompt')).toBe('0 prompts');
    expect(formatCount(2, 'tool call')).toBe('2 tool calls');
    expect(formatCount(1, 'try', 'tries')).toBe('1 try');
    expect(formatCount(3, 'try', 'tries')).toBe('3 tries');
  });
});
