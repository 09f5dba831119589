import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TRANSCRIPTS_DIR } from '../../test/helpers/shared.js';
import { detectAgentFromFile, loadSessionFile, loadSessionTail } from './load.js';
import { agentFromCommand, isAgentId } from './registry.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rw-load-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('loadSessionFile', () => {
  it('loads and detects a real pi file', async () => {
    const file = join(TRANSCRIPTS_DIR, 'pi/print-2turns.jsonl');
    expect(await detectAgentFromFile(file)).toBe('pi');
    const s = await loadSessionFile(file);
    expect(s).toMatchObject({ agent: 'pi', file, id: '01a208c8-f9f9-7327-8f3d-28359f1049e4', skipped: 0 });
    expect(s.events.filter((e) => e.kind === 'user')).toHaveLength(2);
  });

  it.skipIf(process.platform === 'win32')('refuses a FIFO and a symlink to /dev/zero with one clear line, at once (#19)', async () => {
    const fifo = join(dir, 'fifo.jsonl');
    execFileSync('mkfifo', [fifo]);
    const zero = join(dir, 'zero.jsonl');
    symlinkSync('/dev/zero', zero);
    const start = Date.now();
    await expect(loadSessionFile(fifo)).rejects.toThrow(`${fifo} is not a regular file (a FIFO, device or socket); recapwrap reads only session files`);
    await expect(loadSessionFile(fifo, { agent: 'pi' })).rejects.toThrow(/is not a regular file/);
    await expect(loadSessionFile(zero, { agent: 'pi' })).rejects.toThrow(`${zero} is not a regular file`);
    await expect(detectAgentFromFile(zero)).rejects.toThrow(/is not a regular file/);
    await expect(loadSessionFile(dir)).rejects.toThrow(/is a folder, not a session file/);
    expect(Date.now() - start).toBeLessThan(5000);
  });

  it('parses a last line without a newline', async () => {
    const file = join(dir, 's.jsonl');
    writeFileSync(file, '{"type":"session","version":3,"id":"s","cwd":"/w"}\n{"type":"message","id":"u","parentId":null,"message":{"role":"user","content":"hi"}}');
    const s = await loadSessionFile(file);
    expect(s.events).toMatchObject([{ kind: 'user', text: 'hi' }]);
  });

  it('gives one clear error for a missing file, a folder, an unreadable file, or an unknown format', async () => {
    await expect(loadSessionFile(join(dir, 'nope.jsonl'))).rejects.toThrow(`No such file: ${join(dir, 'nope.jsonl')}`);
    await expect(loadSessionFile(dir)).rejects.toThrow('is a folder');
    const unknown = join(dir, 'x.jsonl');
    writeFileSync(unknown, '{"hello":1}\n');
    await expect(loadSessionFile(unknown)).rejects.toThrow(/Cannot tell which agent wrote .*--agent/);
    if (process.getuid?.() !== 0) {
      chmodSync(unknown, 0);
      await expect(loadSessionFile(unknown)).rejects.toThrow('permission denied');
    }
  });

  it('loadSessionTail, midLine: a start inside a line skips to the next line; one at a line start keeps it', async () => {
    const file = join(dir, 'tail.jsonl');
    const t = (i: number) => new Date(Date.UTC(2026, 10, 20, 10, 0, i)).toISOString();
    const msg = (id: string, parent: string | null, text: string, i: number) => JSON.stringify({ type: 'message', id, parentId: parent, timestamp: t(i), message: { role: 'user', content: [{ type: 'text', text }], timestamp: i } });
    const lines = [JSON.stringify({ type: 'session', version: 3, id: 's', timestamp: t(0), cwd: '/w' }), msg('u1', null, 'first prompt here', 1), msg('u2', 'u1', 'second prompt here', 2), msg('u3', 'u2', 'third prompt here', 3)];
    const text = lines.join('\n') + '\n';
    writeFileSync(file, text);
    const second = text.indexOf(lines[2] as string);
    const prompts = (r: Awaited<ReturnType<typeof loadSessionTail>>) => r?.snapshot.events.flatMap((e) => (e.kind === 'user' ? [e.text] : []));
    // Inside the second line: without midLine its rest is a malformed line; with it, skipped.
    const inside = await loadSessionTail(file, { agent: 'pi', from: second + 20, wholeFile: true });
    const skipped = await loadSessionTail(file, { agent: 'pi', from: second + 20, wholeFile: true, midLine: true });
    expect(skipped?.end).toBe(text.length);
    expect(inside?.snapshot.skipped).toBeGreaterThan(0);
    expect(skipped?.snapshot.skipped).toBe(0);
    expect(prompts(skipped)).toEqual(['third prompt here']);
    // At the second line's start: it is a line of its own.
    expect(prompts(await loadSessionTail(file, { agent: 'pi', from: second, wholeFile: true, midLine: true }))).toEqual(['second prompt here', 'third prompt here']);
    // Inside the last line: no line after it; the end is the file's (its newline ends that line).
    expect(await loadSessionTail(file, { agent: 'pi', from: text.length - 5, wholeFile: true, midLine: true })).toMatchObject({ end: text.length, snapshot: { events: [] } });
    // until: no further than that line end.
    expect(prompts(await loadSessionTail(file, { agent: 'pi', from: 0, until: text.indexOf(lines[3] as string), wholeFile: true }))).toEqual(['first prompt here', 'second prompt here']);
    // Inside a last line not yet ended: no complete line; the end stays where the read started.
    writeFileSync(file, text + lines[3]?.slice(0, 40));
    expect(await loadSessionTail(file, { agent: 'pi', from: text.length + 10, wholeFile: true, midLine: true })).toMatchObject({ end: text.length + 10, snapshot: { events: [] } });
  });

  it('names agents from wrapped commands', () => {
    expect(agentFromCommand('/usr/local/bin/claude')).toBe('claude');
    expect(agentFromCommand('claude.exe')).toBe('claude');
    expect(agentFromCommand('vim')).toBeUndefined();
    expect(isAgentId('codex')).toBe(true);
    expect(isAgentId('cursor')).toBe(false);
  });
});
