/**
 * Hand-built reader documents for the renderers' tests: one ordinary session that has every kind of
 * block (branches, compaction, a sub-agent, a diff, long and short outputs), and one hostile session whose
 * texts try to run script, load things, close the page's own tags and reorder what is shown.
 */
import type { Block, ReaderDocument } from '../../src/reader/document.js';

const T0 = Date.UTC(2026, 10, 28, 14, 2, 0);
const MIN_MS = 60_000;

/** A block before the numbering gives it its anchor and turn (Omit distributed over the union). */
type Unnumbered = Block extends infer B ? (B extends Block ? Omit<B, 'anchor' | 'turn'> : never) : never;

function lines(n: number, make: (i: number) => string): string {
  return Array.from({ length: n }, (_, i) => make(i + 1)).join('\n');
}

/** Prompts 1..N with anchors `tN` and blocks `tN.K`, as the builder numbers them. */
function numbered(turns: Unnumbered[][]): Block[] {
  const out: Block[] = [];
  turns.forEach((blocks, index) => {
    const turn = index + 1;
    blocks.forEach((block, k) => {
      out.push({ ...block, turn, anchor: k === 0 ? `t${turn}` : `t${turn}.${k}` } as Block);
    });
  });
  return out;
}

/** An ordinary session: 14 prompts (enough for `#t12`), one of each kind of block. */
export function sampleDocument(): ReaderDocument {
  const turns: Unnumbered[][] = [
    [
      { kind: 'prompt', text: 'The billing tests fail since the v2 schema. Can you look?', ts: T0 },
      { kind: 'thinking', text: 'The failure is probably in the foreign key of invoices.', chars: 56, ts: T0 + 5_000 },
      { kind: 'answer', text: 'Let me run the tests first.', final: false, ts: T0 + 6_000 },
      {
        kind: 'tool', name: 'Bash', summary: 'npm test -- billing', status: 'error', exitCode: 1, durationMs: 2_340, ts: T0 + 7_000,
        output: { text: lines(40, (i) => `FAIL billing ${i}: expected invoice_id`), totalLines: 40, totalChars: 1_400 },
      },
      {
        kind: 'tool', name: 'Edit', summary: 'src/billing/invoices.ts', status: 'ok', ts: T0 + 60_000,
        diff: { file: 'src/billing/invoices.ts', unified: '@@ -140,3 +140,3 @@\n const a = 1;\n-  fk: "invoice",\n+  fk: "invoice_id",\n const b = 2;', added: 1, removed: 1 },
      },
      { kind: 'answer', text: 'Fixed the **foreign key** on line 142:\n\n```ts\nfk: "invoice_id"\n```\n\n| table | state |\n|:--|--:|\n| invoices | migrated |', final: true, ts: T0 + 2 * MIN_MS },
    ],
    [
      { kind: 'prompt', text: '/review src/billing', command: true, ts: T0 + 3 * MIN_MS },
      {
        kind: 'tool', name: 'Task', summary: 'review the billing module', status: 'ok', durationMs: 95_000, ts: T0 + 3 * MIN_MS + 1_000,
        childLabel: 'code-reviewer',
        children: [
          { kind: 'prompt', anchor: 't2.1.1', turn: 2, text: 'Review src/billing for schema drift.' },
          { kind: 'tool', anchor: 't2.1.2', turn: 2, name: 'Read', summary: 'src/billing/schema.ts', status: 'ok', output: { text: 'export const v = 2;', totalLines: 1, totalChars: 19 } },
          { kind: 'answer', anchor: 't2.1.3', turn: 2, text: 'No drift left.', final: true },
        ],
      },
      { kind: 'answer', text: 'The reviewer found no drift.', final: true, ts: T0 + 5 * MIN_MS },
    ],
    [
      { kind: 'prompt', text: 'Write the migration notes.', ts: T0 + 6 * MIN_MS },
      {
        kind: 'tool', name: 'Write', summary: 'docs/migration.md', status: 'ok', ts: T0 + 6 * MIN_MS + 2_000,
        diff: { file: 'docs/migration.md', unified: '@@ -0,0 +1,2 @@\n+# Migration\n+Seven tables.', added: 2, removed: 0, created: true },
      },
      { kind: 'notice', tone: 'aborted', text: 'Interrupted by the user.', ts: T0 + 7 * MIN_MS },
    ],
    [
      { kind: 'compaction', source: 'compaction', summary: 'Billing migrated to v2; the FK on invoices fixed; notes started.', ts: T0 + 8 * MIN_MS },
    ],
  ];
  const blocks = numbered(turns.slice(0, 3));
  // The compaction mark sits in turn 3, after its notice.
  blocks.push({ ...(turns[3]![0] as Block), anchor: 't3.3', turn: 3 });
  for (let turn = 4; turn <= 14; turn++) {
    const ts = T0 + (turn + 6) * MIN_MS;
    blocks.push({ kind: 'prompt', anchor: `t${turn}`, turn, text: `Step ${turn}: check table ${turn}.`, ts });
    blocks.push({ kind: 'tool', anchor: `t${turn}.1`, turn, name: 'Bash', summary: `psql -c 'select count(*) from t${turn}'`, status: 'ok', exitCode: 0, durationMs: 120, output: { text: `count\n-----\n${turn * 10}`, totalLines: 3, totalChars: 20 } });
    blocks.push({ kind: 'answer', anchor: `t${turn}.2`, turn, text: `Table ${turn} holds ${turn * 10} rows.`, final: true, ts: ts + 30_000 });
    // The rest of the file is a second branch, leaving the main line after prompt 8.
    if (turn === 10) blocks.push({ kind: 'branch', anchor: 't10.3', turn, index: 1, label: 'from prompt 8', ts: ts + 40_000 });
  }
  blocks.push({ kind: 'notice', anchor: 't14.3', turn: 14, tone: 'exit', text: 'Session ended.' });
  return {
    meta: {
      agent: 'claude', id: '7f3c2a9e-1b2c-4d5e-8f90-a1b2c3d4e5f6', name: 'billing-v2-migration', cwd: '/home/dev/billing',
      file: '/home/dev/.claude/projects/-home-dev-billing/7f3c2a9e.jsonl', models: ['claude-sonnet-4-5'], title: 'Fix the billing tests',
      gitBranch: 'v2-schema', startedAt: T0, updatedAt: T0 + 21 * MIN_MS, prompts: 14, answers: 15, toolCalls: 15, branches: 1, skipped: 0,
      recap: 'Migrated billing to v2; FK on invoices fixed. Next: finish the notes.',
    },
    blocks,
  };
}

/** The marker a payload sets when it runs (the browser test asserts it never appears). */
export const PWNED_MARK = '__recapwrapPwned';

/** Texts that try to run script, load something, close the page's tags, reorder text or weigh 10 MB. */
export function hostileDocument(opts: { bigLineChars?: number } = {}): ReaderDocument {
  const set = `window.${PWNED_MARK}=1`;
  const payloads = [
    `<script>${set}</script>`,
    `</script><script>${set}</script>`,
    `<img src=x onerror="${set}">`,
    `"><svg onload="${set}">`,
    `[click me](javascript:${set}) and [data](data:text/html,<script>${set}</script>) and <javascript:${set}>`,
    `![tracker](https://example.invalid/pixel.png) and ![x](javascript:${set})`,
    `<iframe src="https://example.invalid/"></iframe><link rel=stylesheet href="https://example.invalid/x.css">`,
    `<style>body{background:url(https://example.invalid/bg.png)}</style>`,
    '\u2028\u2029 line separators </SCRIPT > <!-- -->',
    'bidi: \u202Egnp.exe\u202C and \u2066isolate\u2069',
    'escape: \x1b[31mred\x1b[0m \x1b]8;;https://example.invalid\x07link\x1b]8;;\x07',
  ];
  const big = 'A'.repeat(opts.bigLineChars ?? 10 * 1024 * 1024);
  const blocks: Block[] = [
    { kind: 'prompt', anchor: 't1', turn: 1, text: payloads.join('\n'), ts: T0 },
    { kind: 'answer', anchor: 't1.1', turn: 1, text: payloads.join('\n\n'), final: true, ts: T0 + 1_000 },
    { kind: 'thinking', anchor: 't1.2', turn: 1, text: payloads.join(' '), chars: 100 },
    {
      kind: 'tool', anchor: 't1.3', turn: 1, name: `<b>Bash</b>${payloads[0]}`, summary: payloads[1]!, status: 'ok', exitCode: 0,
      output: { text: `${big}\n${payloads.join('\n')}`, totalLines: payloads.length + 1, totalChars: big.length + 1000 },
    },
    {
      kind: 'tool', anchor: 't1.4', turn: 1, name: 'Edit', summary: 'x', status: 'ok',
      diff: { file: `</script>${payloads[2]}`, unified: `@@ -1 +1 @@\n-${payloads[0]}\n+${payloads[2]}`, added: 1, removed: 1 },
    },
    { kind: 'compaction', anchor: 't1.5', turn: 1, source: 'compaction', summary: payloads.join('\n') },
    { kind: 'notice', anchor: 't1.6', turn: 1, tone: 'error', text: payloads.join(' ') },
    { kind: 'prompt', anchor: 't2', turn: 2, text: 'second ``` fence ```` inside', ts: T0 + 2_000 },
    { kind: 'answer', anchor: 't2.1', turn: 2, text: 'ok', final: true },
  ];
  return {
    meta: {
      agent: 'pi', id: `id-${payloads[0]}`, name: `name-${payloads[2]}`, cwd: `/tmp/</script>${payloads[3]}`, file: '/tmp/x.jsonl',
      models: [payloads[0]!], title: payloads[1], startedAt: T0, updatedAt: T0 + 2_000, prompts: 2, answers: 2, toolCalls: 2, branches: 0,
      skipped: 0, recap: payloads.join(' '), note: payloads[4],
    },
    blocks,
  };
}
