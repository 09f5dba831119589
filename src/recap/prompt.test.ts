import { describe, expect, it } from 'vitest';
import { buildContext, renderContext } from './context.js';
import { buildPrompt, systemPrompt } from './prompt.js';
import type { RecapEvent, RecapSession } from './types.js';

const events: RecapEvent[] = [
  { kind: 'user', text: 'why does the refund job crash?' },
  { kind: 'tool-call', name: 'bash', args: '', command: 'git remote -v', paths: [], callId: 'r' },
  { kind: 'tool-result', ok: true, text: 'origin\tgit@github.com:acme/billing-service.git (fetch)', callId: 'r' },
  { kind: 'assistant', text: 'The crash comes from /home/ana/work/billing/src/refund.ts and a config in /Users/bob/shared.env.' },
  { kind: 'turn-end' },
];
const session: RecapSession = { agent: 'claude', id: 's', file: '/x/s.jsonl', cwd: '/home/ana/work/billing', stamp: 'a', events, updatedAt: 0 };

describe('the model prompt composes like the heuristic (issue 27)', () => {
  it('asks for the project label first, a specific next step or none, and paths without homes', () => {
    const p = systemPrompt(120);
    expect(p).toContain('"<project> · <state>: <outcome>. Next: <the next step>."');
    expect(p).toContain('in at most 16 characters');
    expect(p).toMatch(/leave out "Next:" entirely; never a step that fits any session \("review and commit", "let it finish", "nothing pending", "retry after the rate limit resets"\)/);
    expect(p).toContain('Do not spend characters repeating the user\'s request');
    expect(p).toContain('~ for a home folder; never an absolute home path or anyone\'s user name');
    expect(p).toContain('At most 120 characters');
  });

  it('gives the model the project label and its evidence, the folder with ~, paths relative, and says an old file runs nothing', () => {
    const text = renderContext(buildContext(session, undefined, { now: 3 * 86_400_000 }));
    expect(text).toContain('project: billing-service (from the git remote)');
    expect(text).toContain('project folder: ~/work/billing');
    expect(text).toContain('The crash comes from src/refund.ts and a config in ~/shared.env.');
    expect(text).not.toMatch(/\/home\/ana|\/Users\/bob/);
    expect(text).toContain('the file has not changed for 3 days, so nothing is running now');
    expect(buildPrompt(buildContext(session))).toContain('project: billing-service');
  });
});
