import { describe, expect, it } from 'vitest';
import { displayWidth } from '../util/text-width.js';
import { composeParts, composeRecap, fitRecapText, partsFromLine, renderParts } from './compose.js';
import type { RecapParts } from './types.js';

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

const PARTS: RecapParts[] = [
  { state: 'done', subject: 'Add a --json flag to the export command', outcome: ['Added the --json flag in src/export.ts; 12 tests pass.', 'committed and pushed 2e593ed to ranger: "feat: json"'], next: 'nothing pending' },
  { state: 'waiting for your answer', subject: 'init', outcome: ['Repo state: empty working tree, no remote, no commits.'], next: 'What do you want init to produce? Stack / Shape / Git' },
  { state: 'waiting for approval of git push', outcome: [], next: 'approve or deny git push' },
  { state: 'API error 500, nothing happened', subject: 'hello', outcome: ['your current token plan does not support model MiniMax-M2.7 (2061)'], next: 'switch to a supported model, then retry' },
  { state: 'interrupted', subject: '修复登录页面的错误', outcome: ['文件被 linter 自动更新了。', 'changed index.tsx'], next: 'say how to go on, or repeat the request' },
  { state: 'running export-session.sh', subject: 'apply for the agentic engineering grant by Superteam', outcome: ["I'm exporting the current Codex session first, then I'll build the draft from the EdgeRunner files."], next: 'build the draft from the actual EdgeRunner files and available history' },
];

describe('bug regression: the next step dropped at common widths', () => {
  // The demo's session waiting for "ok to run npm test again?" (src/demo/scripted-agent.ts), as the
  // heuristic composes it: at 40, 60 and 80 columns the step was left out for the outcome and the subject.
  const DEMO: RecapParts = {
    state: 'waiting for you',
    subject: 'fix failing test',
    outcome: ['Fixed double conversion in src/duration.ts but have not re-run tests yet.', 'changed src/duration.ts', 'parseDuration multiplies seconds by 1000 twice.'],
    next: 'ok to run npm test again?',
    owed: true,
  };

  it('keeps the step whole from 50 cells on, its start from 40, and gives the outcome what is left', () => {
    expect(composeParts(DEMO, 40)).toBe('waiting for you. Next: ok to run npm…');
    for (const w of [50, 60, 71, 80, 100, 120, 160]) expect(composeParts(DEMO, w), `${w}`).toContain(' Next: ok to run npm test again?');
    expect(composeParts(DEMO, 71)).toBe('waiting for you: Fixed double… Next: ok to run npm test again?');
    expect(composeParts(DEMO, 80)).toMatch(/^waiting for you — fix failing test: Fixed… Next: ok to run npm test again\?$/);
    // Owed or not, the same: every next step is kept.
    expect(composeParts({ ...DEMO, owed: undefined }, 80)).toBe(composeParts(DEMO, 80));
  });

  it('a long step gives the outcome a readable start back, and the label gives way to the step', () => {
    const long = { state: 'waiting for you', outcome: ['Both commits landed on main and the release notes are drafted.'], next: 'ok to (a) pull the trigger on items 1+2 with future-only as the locked answer, (b) include the thumbnail mock, (c) ship?' };
    const out = composeParts(long, 100);
    expect(out).toMatch(/^waiting for you: Both commits landed[^.]*… Next: ok to \(a\) pull the trigger on items[^.]*…$/);
    expect(displayWidth(out)).toBeLessThanOrEqual(100);
    // 44 cells: with the label there is no readable room for the step; without it there is.
    expect(composeParts({ label: 'FundWise', state: 'waiting for you', outcome: ['Both commits landed.'], next: 'ok to ship?' }, 44)).toBe('waiting for you. Next: ok to ship?');
  });
});

describe('composeParts: the width property', () => {
  it('for every width from 20 to 240: fits, keeps the state, shows Next: whenever the width allows', () => {
    for (const parts of PARTS) {
      const stateWord = parts.state.split(' ')[0] as string;
      for (let w = 20; w <= 240; w++) {
        const out = composeParts(parts, w);
        const where = `${parts.state} @ ${w}: ${out}`;
        expect(displayWidth(out), where).toBeLessThanOrEqual(w);
        expect(out.startsWith(stateWord), where).toBe(true);
        expect(out, where).not.toMatch(/[\x00-\x1f\x7f]/);
        // The next step survives a narrow pane (README, `status --help`, DESIGN): it shows as soon as the
        // state, the mark and a readable start of it fit, whatever the outcome and subject would take, and
        // whole as soon as the state, the mark and the whole step fit (a step of 40 cells or more may give
        // the outcome a readable start back).
        if (w >= displayWidth(parts.state) + 1 + 7 + Math.min(10, displayWidth(parts.next) + 1)) expect(out, where).toContain(' Next: ');
        if (displayWidth(parts.next) < 40 && w >= displayWidth(renderParts({ state: parts.state, outcome: [], next: parts.next }))) expect(out, where).toContain(` Next: ${parts.next}`);
        // The whole state survives whenever it fits with the mark.
        if (w >= displayWidth(parts.state) + 8) expect(out.startsWith(parts.state), where).toBe(true);
      }
    }
  });

  it('shows everything when it fits, and gives what is left to more outcome sentences', () => {
    const p = PARTS[0] as RecapParts;
    expect(composeParts(p, 240)).toBe('done — Add a --json flag to the export command: Added the --json flag in src/export.ts; 12 tests pass. committed and pushed 2e593ed to ranger: "feat: json". Next: nothing pending.');
    const narrow = composeParts(p, 71);
    // 71 cells: the state and the next step whole, the best outcome in the cells left; the subject has no
    // room. (It used to leave the step out for the whole outcome: the bug of the demo's recap at 80 columns.)
    expect(narrow).toBe('done: Added the --json flag in src/export.ts… Next: nothing pending.');
  });

  it('composeRecap uses the parts when a recap has them, else fits its line', () => {
    const recap = { line: 'recap: done: x. Next: y.', parts: PARTS[1] as RecapParts };
    expect(composeRecap(recap, 200)).toBe(composeParts(PARTS[1] as RecapParts, 200));
    expect(composeRecap({ line: 'recap: done: x. Next: y.' }, 200)).toBe('done: x. Next: y.');
  });

  it('a line in the recap’s own shape (a surface that only has the line) composes like its parts', () => {
    const p = PARTS[1] as RecapParts;
    const line = `recap: ${composeParts(p, 213)}`;
    for (const w of [40, 71, 120]) expect(composeRecap({ line }, w), `${w}`).toBe(composeParts(partsFromLine(line) as RecapParts, w));
    expect(partsFromLine(line)).toEqual({ state: p.state, subject: p.subject, outcome: ['Repo state: empty working tree, no remote, no commits.'], next: p.next, owed: true });
    // Another shape is fitted as text, its next step kept.
    // A model line that leads with a project label (the prompt asks for it) keeps it as the label.
    expect(partsFromLine('recap: billing · done: refund.ts fixed, 12 tests pass. Next: deploy the refund job.')).toEqual({ label: 'billing', state: 'done', outcome: ['refund.ts fixed, 12 tests pass.'], next: 'deploy the refund job' });
    expect(composeParts({ label: 'billing', state: 'done', outcome: ['refund.ts fixed, 12 tests pass.'], next: '' }, 71)).toBe('billing · done: refund.ts fixed, 12 tests pass.');
    expect(composeParts({ label: 'billing', state: 'done', outcome: ['refund.ts fixed.'], next: '' }, 30)).toBe('done: refund.ts fixed.');
    expect(partsFromLine('recap: Migrated 4 of 7 billing tables to the v2 schema and the rest still fail. Next: fix invoices.ts')).toBeUndefined();
    expect(composeRecap({ line: 'recap: Migrated 4 of 7 billing tables to the v2 schema and the rest still fail. Next: fix invoices.ts' }, 50)).toContain('Next: fix invoices.ts');
  });

  it('never cuts inside a Latin word, but does cut CJK text anywhere', () => {
    const p = PARTS[5] as RecapParts;
    const words = new Set([p.state, p.subject, ...p.outcome, p.next].join(' ').split(/[\s—:]+/));
    for (let w = 30; w <= 160; w++) {
      const out = composeParts(p, w);
      for (const piece of out.split('…').slice(0, -1)) {
        const last = piece.trim().split(/[\s—:]+/).pop() as string;
        expect(words.has(last) || words.has(`${last},`) || [...words].some((x) => x.startsWith(`${last}`) && /^[^\p{L}\p{N}]/u.test(x.slice(last.length))), `${w}: ${out}`).toBe(true);
      }
    }
    // 80 cells: the step whole first, then the outcome cut inside its CJK text (56 cells leave it none now).
    const cjk = composeParts(PARTS[4] as RecapParts, 80);
    expect(displayWidth(cjk)).toBeLessThanOrEqual(80);
    expect(cjk).toMatch(/: 文件被[^。]*… Next: say how to go on, or repeat the request\.$/);
  });
});
