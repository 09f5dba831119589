import { describe, expect, it } from 'vitest';
import { buildContext, CONTEXT_LIMITS, renderContext, turnEnding } from './context.js';
import { detectLanguage, heuristicRecap, pickTask, workingLine } from './heuristic.js';
import type { RecapActivity, RecapEvent, RecapSession } from './types.js';
import { displayWidth } from '../util/text-width.js';

const session = (events: RecapEvent[], extra: Partial<RecapSession> = {}): RecapSession => ({ agent: 'pi', id: 's1', file: '/tmp/s1.jsonl', cwd: '/home/dev/app', stamp: `st${events.length}`, events, ...extra });
const user = (text: string): RecapEvent => ({ kind: 'user', text });
const say = (text: string): RecapEvent => ({ kind: 'assistant', text });
const call = (name: string, args: string, more: { paths?: string[]; command?: string; callId?: string } = {}): RecapEvent => ({ kind: 'tool-call', name, args, paths: more.paths ?? [], command: more.command, callId: more.callId });
const result = (ok: boolean, text: string, callId?: string): RecapEvent => ({ kind: 'tool-result', ok, text, callId });
const end: RecapEvent = { kind: 'turn-end' };
const recapOf = (events: RecapEvent[], activity?: RecapActivity) => heuristicRecap(buildContext(session(events), activity));

describe('heuristic recap', () => {
  it('names the task, the files changed, that nothing was tested, and the agent’s proposal', () => {
    const r = recapOf([
      user('Add a --json flag to the export command'),
      call('edit', 'path=src/export.ts', { paths: ['/home/dev/app/src/export.ts'], callId: 'c1' }),
      result(true, 'ok', 'c1'),
      say('Added the flag. I can also add a test for the JSON output if you want.'),
      end,
    ]);
    expect(r.line).toBe('recap: "Add a --json flag to the export command" — finished, not yet tested; changed src/export.ts. Next: I can also add a test for the JSON output if you want.');
    expect(r.status).toBe('idle');
    expect(r.done).toEqual(['changed src/export.ts']);
    expect(r.artifacts).toEqual([{ kind: 'file', label: 'export.ts', locator: '/home/dev/app/src/export.ts' }]);
    expect(r.headline).toBe('Add a --json flag to the export command: finished, not yet tested');
  });

  it('says tests passed after the edit, and the commit', () => {
    const r = recapOf([
      user('fix the parser crash on empty input'),
      call('edit', 'path=src/parse.ts', { paths: ['src/parse.ts'] }),
      call('bash', 'command="npm test"', { command: 'npm test', callId: 't1' }),
      result(true, '12 passed', 't1'),
      call('bash', "git commit -am 'parser: accept empty input'", { command: "git commit -am 'parser: accept empty input'", callId: 'g1' }),
      result(true, '[main 1a2b3c] parser', 'g1'),
      say('Fixed and committed.'),
      end,
    ]);
    expect(r.line).toContain('— finished; changed src/parse.ts, committed "parser: accept empty input", npm test passed.');
    expect(r.line).toContain('Next: give the next task.');
    expect(r.artifacts.map((a) => a.kind)).toEqual(['file', 'commit', 'command']);
  });

  it('sends you to the failing check when the last test run failed', () => {
    const r = recapOf([user('make the build green'), call('bash', 'cargo test', { command: 'cargo test', callId: 'x' }), result(false, 'error[E0308]: mismatched types', 'x'), say('The build still fails.'), end]);
    expect(r.line).toContain('finished with failing checks');
    expect(r.line).toContain('Next: fix what fails in cargo test.');
  });

  it('says a session cut off mid-tool-call is cut off, naming the tool', () => {
    const r = recapOf([user('deploy the staging build'), call('Bash', 'command="./deploy.sh staging"', { command: './deploy.sh staging' })]);
    expect(r.line).toContain('cut off mid-tool-call (Bash(command="./deploy.sh staging"))');
    expect(r.status).toBe('working');
    expect(recapOf([user('deploy the staging build'), call('Bash', 'x')], 'exited').status).toBe('aborted');
  });

  it('live: running a tool, or waiting for approval of it', () => {
    const events = [user('deploy the staging build'), call('Bash', 'command="./deploy.sh"')];
    expect(recapOf(events, 'working').line).toContain('running Bash(command="./deploy.sh")');
    const waiting = recapOf(events, 'waiting');
    expect(waiting.line).toContain('waiting for your approval of Bash');
    expect(waiting.line).toContain('Next: approve or deny Bash');
    expect(waiting.status).toBe('waiting');
  });

  it('a session that only hit API errors says nothing was done', () => {
    const r = recapOf([user('refactor the auth module'), { kind: 'error', text: '429 rate limit exceeded' }, user('refactor the auth module please'), { kind: 'error', text: 'Credit balance is too low' }]);
    expect(r.line).toBe('recap: "refactor the auth module please" — stopped on an API error (Credit balance is too low); nothing was done. Next: fix the provider problem (key, credit, rate limit) and retry.');
    expect(r.status).toBe('errored');
  });

  it('an aborted turn says interrupted and offers to re-run the request', () => {
    const r = recapOf([user('rename every handler to onX'), call('edit', 'a', { paths: ['a.ts'] }), { kind: 'aborted' }]);
    expect(r.line).toContain('— interrupted by you; changed a.ts.');
    expect(r.line).toContain('Next: redirect or re-run "rename every handler to onX".');
    expect(r.status).toBe('aborted');
  });

  it('a question from the agent becomes the next step', () => {
    const r = recapOf([user('set up the database migrations'), say('There are two ways to do this.\n\nShould I use Prisma or plain SQL files?'), end]);
    expect(r.line).toContain('waiting for your answer');
    expect(r.line).toContain('Next: answer: Should I use Prisma or plain SQL files?');
    expect(r.status).toBe('waiting');
  });

  it('a prompt with no answer yet is working live and cut off cold', () => {
    expect(recapOf([user('explain the cache')], 'working').line).toContain('— working.');
    expect(recapOf([user('explain the cache')]).line).toContain('cut off before the agent answered');
  });

  it('an empty session says so', () => {
    const r = recapOf([]);
    expect(r.line).toBe('recap: nothing asked yet in this session. Next: type the first request.');
    expect(r.status).toBe('empty');
  });

  it('keeps Japanese and Chinese phrases and detects the language', () => {
    const ja = recapOf([user('ログイン画面のバグを直してください'), say('修正しました。'), end]);
    expect(ja.line).toContain('"ログイン画面のバグを直してください"');
    expect(ja.language).toBe('ja');
    expect(recapOf([user('请把登录页面的错误修好'), say('好了'), end]).language).toBe('zh');
    expect(detectLanguage(['bitte füge die Tests hinzu und prüfe das Ergebnis mit der neuen Version'])).toBe('de');
    expect(detectLanguage(['please add the tests'])).toBe('en');
  });

  it('picks the task over acknowledgements and short replies', () => {
    const ctx = buildContext(session([user('Port the selector component to the new theme API'), say('Major or minor?'), user('minor, this is a big change'), say('ok'), user('yeah, do it all'), end]));
    expect(pickTask(ctx)).toBe('Port the selector component to the new theme API');
    expect(pickTask(buildContext(session([user('ok')])))).toBe('ok');
  });

  it('never lets the line exceed 220 cells, sanitizes control text and keeps Next visible', () => {
    const long = 'x'.repeat(500);
    const r = recapOf([user(`\x1b[31m${long}\x1b[0m\nsecond line`), call('edit', long, { paths: Array.from({ length: 30 }, (_, i) => `/p/${'f'.repeat(60)}${i}.ts`) }), say(`I can ${'do more '.repeat(80)}`), end]);
    expect(displayWidth(r.line)).toBeLessThanOrEqual(220);
    expect(r.line).not.toMatch(/[\x00-\x1f\x7f]/);
    expect(r.line).toContain('Next: I can');
    const wide = recapOf([user('表示幅'.repeat(100)), say('完了'), end]);
    expect(displayWidth(wide.line)).toBeLessThanOrEqual(220);
    expect(displayWidth(wide.headline)).toBeLessThanOrEqual(80);
  });

  it('working line: task and the running tool', () => {
    expect(workingLine(buildContext(session([user('run the migrations'), call('bash', 'npm run migrate')]), 'working'))).toBe('working: "run the migrations" — bash(npm run migrate)');
  });

  it('takes 10,000 events quickly enough to be called on every change', () => {
    const events: RecapEvent[] = [];
    for (let i = 0; i < 2500; i++) events.push(user(`step ${i} of the plan`), call('edit', `path=f${i}.ts`, { paths: [`f${i}.ts`], callId: `c${i}` }), result(true, 'ok', `c${i}`), say(`done ${i}`));
    const r = recapOf(events);
    expect(r.line).toContain('step 2499 of the plan');
    expect(r.done[0]).toBe('changed f2497.ts, f2498.ts, f2499.ts +9');
  });
});

describe('context builder', () => {
  it('excludes thinking, compacts tool calls and results, caps messages and the total', () => {
    const events: RecapEvent[] = [user('build the importer'), { kind: 'thinking', text: 'SECRET REASONING' }];
    for (let i = 0; i < 200; i++) events.push(call('read', 'a'.repeat(1000)), result(true, 'b'.repeat(2000)), say('c'.repeat(3000)));
    const ctx = buildContext(session(events));
    const text = renderContext(ctx);
    expect(text).not.toContain('SECRET REASONING');
    expect(ctx.truncated).toBe(true);
    expect(text.length).toBeLessThanOrEqual(CONTEXT_LIMITS.total + 500);
    for (const item of ctx.dialogue) {
      if (item.role === 'tool') expect(item.text.length).toBeLessThanOrEqual(CONTEXT_LIMITS.toolArgs + 10);
      if (item.role === 'result') expect(item.text.length).toBeLessThanOrEqual(CONTEXT_LIMITS.toolResult);
      expect(item.text.length).toBeLessThanOrEqual(CONTEXT_LIMITS.message);
    }
    expect(text).toContain('## First request of the session\nbuild the importer');
  });

  it('starts the dialogue at a turn boundary, never on a dangling tool result', () => {
    const events: RecapEvent[] = [];
    for (let t = 0; t < 40; t++) events.push(user(`turn ${t}`), call('bash', 'x'.repeat(200)), result(true, 'y'.repeat(390)), say('z'.repeat(300)), end);
    const ctx = buildContext(session(events));
    expect(ctx.dialogue[0]?.role).toBe('user');
    // Without any user prompt in the window: not a tool result either.
    const noUser: RecapEvent[] = [user('start')];
    for (let i = 0; i < 100; i++) noUser.push(call('bash', 'x'.repeat(250)), result(true, 'y'.repeat(390)));
    const c2 = buildContext(session(noUser));
    expect(c2.dialogue[0]?.role).toBe('tool');
  });

  it('is deterministic and keeps the newest summaries, files, commands and errors', () => {
    const events: RecapEvent[] = [
      user('go'),
      { kind: 'summary', source: 'compaction', text: 'old summary' },
      { kind: 'summary', source: 'compaction', text: 'mid summary' },
      { kind: 'summary', source: 'branch', text: 'new summary' },
      call('write', 'p', { paths: ['a.ts'] }),
      call('write', 'p', { paths: ['b.ts'] }),
      call('write', 'p', { paths: ['a.ts'] }),
      call('bash', 'npm test', { command: 'npm test', callId: 'k' }),
      result(false, 'FAIL 2 tests', 'k'),
    ];
    const a = buildContext(session(events));
    expect(a).toEqual(buildContext(session(events)));
    expect(a.summaries).toEqual(['mid summary', 'new summary']);
    expect(a.filesTouched).toEqual(['b.ts', 'a.ts']);
    expect(a.commands).toEqual([{ command: 'npm test', ok: false }]);
    expect(a.errors).toEqual(['FAIL 2 tests']);
    expect(a.counts).toEqual({ prompts: 1, toolCalls: 4, toolErrors: 1, events: 9 });
  });

  it('turnEnding reads how the last turn ended', () => {
    expect(turnEnding([]).ending).toBe('empty');
    expect(turnEnding([user('a'), say('done'), end]).ending).toBe('finished');
    expect(turnEnding([user('a'), say('Which one?'), end]).ending).toBe('question');
    expect(turnEnding([user('a'), { kind: 'aborted' }]).ending).toBe('interrupted');
    expect(turnEnding([user('a'), { kind: 'error', text: '500' }]).ending).toBe('api-error');
    expect(turnEnding([user('a'), call('x', 'y')])).toEqual({ ending: 'mid-tool', pendingTool: 'x(y)' });
    expect(turnEnding([user('a'), call('x', 'y'), result(true, 'r')]).ending).toBe('mid-turn');
    expect(turnEnding([user('a'), say('ok'), { kind: 'title', text: 't' }, { kind: 'model', model: 'm' }]).ending).toBe('finished');
  });
});
