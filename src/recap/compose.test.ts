import { describe, expect, it } from 'vitest';
import { displayWidth } from '../util/text-width.js';
import { composeRecap, fitRecapText } from './compose.js';

const LINE = 'recap: "fix the failing test" — waiting for your answer; changed src/duration.ts, npm test failed. Next: answer: Shall I run npm test again?';

describe('composeRecap', () => {
  it('drops the label and keeps a line that fits whole', () => {
    expect(composeRecap({ line: 'recap: done; 3 files changed.' }, 80)).toBe('done; 3 files changed.');
  });

  it('keeps the Next: step at every width from 30 to 240, and always fits', () => {
    for (let w = 20; w <= 240; w++) {
      const out = fitRecapText(LINE, w);
      expect(displayWidth(out), `width ${w}`).toBeLessThanOrEqual(w);
      if (w >= 30) expect(out, `width ${w}`).toContain('Next:');
    }
  });

  it('cuts at a word boundary, not mid-word', () => {
    const out = fitRecapText('recap: alpha beta gamma delta epsilon zeta eta theta', 24);
    expect(out.endsWith('…')).toBe(true);
    expect(['alpha', 'beta', 'gamma', 'delta', 'epsilon']).toEqual(expect.arrayContaining(out.replace('…', '').split(' ')));
  });

  it('fits wide characters by cells', () => {
    const out = fitRecapText('recap: 修复了失败的测试并提交了更改。 Next: 运行全部测试', 20);
    expect(displayWidth(out)).toBeLessThanOrEqual(20);
  });
});
