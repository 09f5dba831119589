import { describe, expect, it } from 'vitest';
import { isGenericNext, specificNext, tidyNext } from './next-step.js';

describe('the next step: specific or none (issue 27)', () => {
  it('leaves out steps that fit any session', () => {
    for (const s of ['review and commit', 'review and run the tests', 'let it finish', 'nothing pending', 'retry after the rate limit resets', 'ask the agent to continue', 'wait for the answer', 'Nothing pending.', '']) {
      expect(isGenericNext(s), s).toBe(true);
      expect(specificNext(s), s).toBe('');
    }
  });

  it('keeps steps that name their object', () => {
    for (const s of ['resend "what are my rate limits" after the limit resets', 'update test/icons.test.ts that still asserts the old icons', 'fix what fails in npm test', 'approve or deny git push', 'top up credit or switch account, then resend "apply for the grant"']) {
      expect(isGenericNext(s), s).toBe(false);
      expect(specificNext(s), s).toBe(s);
    }
  });

  it('says the agent’s proposal once: no doubled "Next", an offer as the decision it asks for', () => {
    expect(tidyNext('Next I would document it in the README — want me to?')).toBe('ok to document it in the README?');
    expect(tidyNext("I'd add a test for it, shall I?")).toBe('ok to add a test for it?');
    expect(tidyNext('Next: bump the minor version')).toBe('bump the minor version');
    expect(tidyNext('Next step, run the migration')).toBe('run the migration');
    expect(tidyNext('Nextcloud sync needs a token')).toBe('Nextcloud sync needs a token');
  });
});
