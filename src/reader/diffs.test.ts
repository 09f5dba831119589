import { describe, expect, it } from 'vitest';
import { diffsOfPatch, diffsOfToolCall } from './diffs.js';

describe('diffsOfToolCall: one form for every agent', () => {
  const edit = { file: 'a.ts', added: 1, removed: 1 };
  it('old/new strings of each agent\'s edit tool', () => {
    expect(diffsOfToolCall('Edit', { file_path: 'a.ts', old_string: 'x\ny\n', new_string: 'x\nz\n' })).toMatchObject([edit]); // Claude
    expect(diffsOfToolCall('edit', { path: 'a.ts', oldText: 'y', newText: 'z' })).toMatchObject([edit]); // pi
    expect(diffsOfToolCall('replace', { file_path: 'a.ts', old_string: 'y', new_string: 'z', instruction: 'fix' })).toMatchObject([edit]); // Gemini
    expect(diffsOfToolCall('edit', { file_path: 'a.ts', old_string: 'y', new_string: 'z' })).toMatchObject([edit]); // Qwen
    expect(diffsOfToolCall('Edit', { file_path: 'a.ts', old_string: 'y', new_string: 'z' })[0]?.unified).toBe('@@ -1,1 +1,1 @@\n-y\n+z');
  });

  it('several edits in one call (Claude MultiEdit, pi edits[]): one hunk each', () => {
    const d = diffsOfToolCall('MultiEdit', { file_path: 'a.ts', edits: [{ old_string: 'a', new_string: 'b' }, { old_string: 'c', new_string: 'd\ne' }] });
    expect(d).toMatchObject([{ file: 'a.ts', added: 3, removed: 2 }]);
    expect(d[0]?.unified.match(/^@@/gm)).toHaveLength(2);
    expect(diffsOfToolCall('edit', { path: 'a.ts', edits: [{ oldText: 'a', newText: 'b' }] })).toMatchObject([{ added: 1, removed: 1 }]);
  });

  it('writes are new files, all added', () => {
    expect(diffsOfToolCall('Write', { file_path: 'n.md', content: '# A\n\nb\n' })).toMatchObject([{ file: 'n.md', added: 3, removed: 0, created: true }]);
    expect(diffsOfToolCall('write_file', { file_path: 'n.md', content: 'x' })[0]?.unified).toBe('@@ -0,0 +1,1 @@\n+x');
  });

  it('a Codex patch, as apply_patch input or through the shell tool, file by file', () => {
    const patch = '*** Begin Patch\n*** Add File: new.md\n+one\n+two\n*** Update File: old.md\n*** Move to: moved.md\n@@ top\n ctx\n-gone\n+here\n*** Delete File: dead.md\n*** End Patch';
    const expected = [
      { file: 'new.md', added: 2, removed: 0, created: true },
      { file: 'old.md → moved.md', added: 1, removed: 1 },
      { file: 'dead.md', added: 0, removed: 0 },
    ];
    expect(diffsOfPatch(patch)).toMatchObject(expected);
    expect(diffsOfToolCall('apply_patch', patch)).toMatchObject(expected);
    expect(diffsOfToolCall('apply_patch', { input: patch })).toMatchObject(expected);
    expect(diffsOfToolCall('exec_command', { cmd: `apply_patch <<'EOF'\n${patch}\nEOF` })).toMatchObject(expected);
    expect(diffsOfToolCall('shell', { command: ['apply_patch', patch] })).toMatchObject(expected);
  });

  it('a call that changes no file has none; texts are cleaned first', () => {
    expect(diffsOfToolCall('Bash', { command: 'ls' })).toEqual([]);
    expect(diffsOfToolCall('Read', { file_path: 'a.ts' })).toEqual([]);
    const d = diffsOfToolCall('Edit', { file_path: 'a\u202e.ts', old_string: 'k', new_string: '\x1b[31mAKIAIOSFODNN7EXAMPLE' });
    expect(d[0]?.file).toBe('a.ts');
    expect(d[0]?.unified).toBe('@@ -1,1 +1,1 @@\n-k\n+[secret]');
  });
});
