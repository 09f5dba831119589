import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TRANSCRIPTS_DIR } from '../../../test/helpers/shared.js';
import { runTranscript } from './transcript.js';

const FILE = join(TRANSCRIPTS_DIR, 'pi/print-2turns.jsonl');

describe('recapwrap transcript', () => {
  it('prints one JSON object with the normalized session, thinking text withheld', async () => {
    const { out, code } = await runTranscript(FILE, { json: true });
    expect(code).toBe(0);
    const s = JSON.parse(out) as { agent: string; id: string; state: string; events: Array<{ kind: string; text?: string; chars?: number }>; skipped: number };
    expect(s).toMatchObject({ agent: 'pi', id: '01a208c8-f9f9-7327-8f3d-28359f1049e4', state: 'idle', skipped: 0 });
    expect(s.events.filter((e) => e.kind === 'user').map((e) => e.text)).toEqual(['please create hello.txt', 'now list the files with ls']);
    const thinking = s.events.filter((e) => e.kind === 'thinking');
    expect(thinking.length).toBeGreaterThan(0);
    expect(thinking.every((e) => e.text === undefined && typeof e.chars === 'number')).toBe(true);
  });

  it('prints a readable listing', async () => {
    const { out } = await runTranscript(FILE, {});
    expect(out).toContain('user       please create hello.txt');
    expect(out).toContain('tool       write(path="hello.txt"');
    expect(out).not.toContain('The user wants me to use a tool'); // thinking text
  });

  it('says so when --agent disagrees with the content (its lines skipped), and says nothing when it agrees', async () => {
    const wrong = await runTranscript(FILE, { agent: 'claude' });
    expect(wrong.code).toBe(0);
    expect(wrong.err).toMatch(/^recapwrap: warning: .*print-2turns\.jsonl looks like a pi session; read as claude \(--agent\), \d+ lines skipped\n$/);
    expect((await runTranscript(FILE, { agent: 'pi' })).err).toBe('');
    expect((await runTranscript(FILE, {})).err).toBe('');
  });

  it('fails clearly on a bad path (1) and an unknown agent (2)', async () => {
    expect(await runTranscript('/no/such.jsonl', {})).toEqual({ out: '', err: 'recapwrap: No such file: /no/such.jsonl\n', code: 1 });
    expect((await runTranscript(FILE, { agent: 'cursor' })).code).toBe(2);
  });
});
