import { describe, expect, it } from 'vitest';
import { homeOf, shortenPaths, showsHomePath } from './paths.js';

describe('shortenPaths', () => {
  it('makes paths relative to the session folder, the folder itself `.`', () => {
    expect(shortenPaths('changed /home/ana/app/src/a.ts and /home/ana/app', '/home/ana/app')).toBe('changed src/a.ts and .');
    expect(shortenPaths('read C:\\Users\\ana\\proj\\README.md', 'C:\\Users\\ana\\proj')).toBe('read README.md');
    expect(shortenPaths('read C:/Users/ana/proj/README.md', 'C:\\Users\\ana\\proj')).toBe('read README.md');
  });

  it('writes any home folder as `~`, other people’s too, with no user name', () => {
    expect(shortenPaths('found /Users/anmol/Developer/trezo-ai', '/home/ana/app')).toBe('found ~/Developer/trezo-ai');
    expect(shortenPaths('see /home/bob/.codex/sessions and C:\\Users\\YAROSLAV\\RAVE-ERA\\x.ts')).toBe('see ~/.codex/sessions and ~\\RAVE-ERA\\x.ts');
    expect(shortenPaths('as root: /root/.bashrc')).toBe('as root: ~/.bashrc');
    // A session in a home folder itself: paths under it read as `~/…`, not relative.
    expect(shortenPaths('wrote /home/ahmadou/notes.md', '/home/ahmadou')).toBe('wrote ~/notes.md');
  });

  it('hides the user name in Claude’s and Qwen’s encoded project folders', () => {
    expect(shortenPaths('/x/.claude/projects/-Users-linhungfan/0c18.jsonl')).toBe('/x/.claude/projects/-~/0c18.jsonl');
    expect(shortenPaths('projects/c--users-chuhai-documents/chats')).toBe('projects/c--~-documents/chats');
  });

  it('leaves other text and non-home paths alone', () => {
    expect(shortenPaths('users of /usr/local/bin and /homepage')).toBe('users of /usr/local/bin and /homepage');
    expect(shortenPaths('src/app.ts', '/home/ana/app')).toBe('src/app.ts');
  });

  it('tells a home path when one is left, and where a folder’s home is', () => {
    expect(showsHomePath('at /Users/ana/x')).toBe(true);
    expect(showsHomePath('at C:\\Users\\ana\\x')).toBe(true);
    expect(showsHomePath('at ~/x and src/y')).toBe(false);
    expect(homeOf('/home/ana/app')).toBe('/home/ana');
    expect(homeOf('/srv/app')).toBeUndefined();
  });
});
