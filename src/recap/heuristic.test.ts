import { describe, expect, it } from 'vitest';
import { buildContext, CONTEXT_LIMITS, renderContext, turnEnding } from './context.js';
import { checkError, describeCommand, describeTool, detectLanguage, gistOf, heuristicRecap, pickTask, workingLine } from './heuristic.js';
import type { ActivityState } from '../types.js';
import type { RecapEvent, RecapSession } from './types.js';
import { displayWidth } from '../util/text-width.js';
import { composeParts } from './compose.js';
import type { RecapParts } from './types.js';

const session = (events: RecapEvent[], extra: Partial<RecapSession> = {}): RecapSession => ({ agent: 'pi', id: 's1', file: '/tmp/s1.jsonl', cwd: '/home/dev/app', stamp: `st${events.length}`, events, ...extra });
const user = (text: string, command?: boolean): RecapEvent => ({ kind: 'user', text, ...(command ? { command } : {}) });
const say = (text: string): RecapEvent => ({ kind: 'assistant', text });
const call = (name: string, args: string, more: { paths?: string[]; command?: string; callId?: string; approval?: boolean } = {}): RecapEvent => ({ kind: 'tool-call', name, args, paths: more.paths ?? [], command: more.command, callId: more.callId, approval: more.approval });
const result = (ok: boolean, text: string, callId?: string): RecapEvent => ({ kind: 'tool-result', ok, text, callId });
const end: RecapEvent = { kind: 'turn-end' };
const recapOf = (events: RecapEvent[], activity?: ActivityState, extra: Partial<RecapSession> = {}) => heuristicRecap(buildContext(session(events, extra), activity));

describe('heuristic recap: state', () => {
  it('a finished turn is done, with the outcome in the agent’s words', () => {
    const r = recapOf([user('Add a --json flag to the export command'), say('Added the `--json` flag in src/export.ts; 12 tests pass.'), end]);
    // No next step worth saying (issue 27): the line ends with the outcome, not "Next: nothing pending".
    expect(r.line).toBe('recap: done — Add a --json flag to export command: Added the --json flag in src/export.ts; 12 tests pass.');
    expect(r.status).toBe('idle');
    expect(r.parts).toEqual({ state: 'done', subject: 'Add a --json flag to export command', outcome: ['Added the --json flag in src/export.ts; 12 tests pass.'], next: '' });
    expect(r.next).toEqual([]);
  });

  it('a question to the user: waiting for you, the question is the next step', () => {
    const r = recapOf([user('set up the database migrations'), say('There are two ways to do this.\n\nShould I use Prisma or plain SQL files?'), end]);
    expect(r.parts?.state).toBe('waiting for you');
    expect(r.parts?.next).toBe('ok to use Prisma or plain SQL files?');
    expect(r.status).toBe('waiting');
  });

  it('a generic offer of more help is not a question: the turn is done', () => {
    const r = recapOf([user('bump the version'), say('Bumped the version to 0.3.0 in package.json and pushed. What else would you like me to do?'), end]);
    expect(r.parts?.state).toBe('done');
    expect(r.parts?.outcome[0]).toContain('0.3.0 in package.json');
  });

  it('questions asked as a list after an intro count, with the first question shown', () => {
    const r = recapOf([user('still not working'), say('I need more context to help you. Could you tell me:\n1. **What are you working on?**\n2. **What error do you see?**\n\nYou can also check the logs.'), end]);
    expect(r.parts?.state).toBe('waiting for you');
    expect(r.parts?.next).toBe('Could you tell me: What are you working on?');
    expect(r.parts?.subject).toBe('still not working');
  });

  it('options listed with the question are named in the next step', () => {
    const r = recapOf([user('init'), say('The repo is empty, no commits. What do you want `init` to produce?\n1. Stack: `Python` / `Node`\n2. Shape: `library` / `CLI`\n3. Git: initial commit + licence'), end]);
    expect(r.parts?.next).toBe('What do you want init to produce? Stack / Shape / Git');
  });

  it('an interrupted turn is interrupted, never done', () => {
    const r = recapOf([user('rename every handler to onX'), call('edit', 'path=a.ts', { paths: ['a.ts'] }), { kind: 'aborted' }]);
    expect(r.parts?.state).toBe('interrupted');
    expect(r.parts?.outcome).toContain('changed a.ts');
    expect(r.line).not.toMatch(/\bdone\b|finished/);
    expect(r.status).toBe('aborted');
  });

  it('API errors: the code, "nothing happened" when the session did nothing, never "done", and what to do by kind of error', () => {
    const only = recapOf([user('hello'), { kind: 'error', text: 'API error 500: your plan does not support model X' }]);
    expect(only.parts?.state).toBe('API error 500, nothing happened');
    expect(only.parts?.next).toBe('switch to a supported model, then retry');
    expect(only.status).toBe('errored');
    const later = recapOf([user('fix it'), say('Fixed in a.ts.'), end, user('now the docs'), { kind: 'error', text: "429 Too Many Requests: You've hit your limit" }]);
    expect(later.parts?.state).toBe('API error 429');
    expect(later.parts?.outcome).toContain('no reply to the last request');
    // The step names what to resend; with nothing to name, the generic "retry after the rate limit resets" is left out.
    expect(later.parts?.next).toBe('resend "the docs" after the limit resets');
    expect(recapOf([user('ok'), { kind: 'error', text: "429 Too Many Requests: You've hit your limit" }]).parts?.next).toBe('');
    expect(recapOf([user('help me apply for the grant'), { kind: 'error', text: 'Credit balance is too low' }]).parts?.next).toBe('top up credit or switch account, then resend "apply for grant"');
  });

  it('a check that failed after the last edit: failing check, fix it next', () => {
    const r = recapOf([user('make the build green'), call('edit', 'p', { paths: ['src/a.rs'] }), call('bash', 'cargo test', { command: 'cargo test', callId: 'x' }), result(false, 'error[E0308]: mismatched types', 'x'), say('The build still fails on a type mismatch in src/a.rs.'), end]);
    expect(r.parts?.state).toBe('failing check');
    expect(r.parts?.next).toBe('fix what fails in cargo test');
    expect(r.line).not.toMatch(/\bdone\b/);
  });

  it('a pending tool call: running it, said as a person would, never its raw input', () => {
    const r = recapOf([user('deploy the staging build'), say('Deploying now, then I will run the smoke tests.'), call('Bash', 'command="./scripts/deploy.sh staging"', { command: './scripts/deploy.sh staging' })], 'working');
    expect(r.parts?.state).toBe('running deploy.sh');
    expect(r.parts?.next).toBe('run the smoke tests.');
    expect(r.line).not.toContain('command=');
    expect(r.status).toBe('working');
  });

  it('a call that needs approval: waiting for approval of it (the transcript says so, or the live agent waits)', () => {
    const flagged = recapOf([user('ship it'), call('Bash', 'command="git push origin main"', { command: 'git push origin main', approval: true })]);
    expect(flagged.parts?.state).toBe('waiting for approval of git push');
    expect(flagged.parts?.next).toBe('approve or deny git push');
    expect(flagged.status).toBe('waiting');
    expect(recapOf([user('ship it'), call('Bash', 'x', { command: 'npm publish' })], 'waiting').parts?.state).toBe('waiting for approval of npm publish');
  });

  it('a session that ended (exit event) inside a tool call was cut off, not done', () => {
    const r = recapOf([user('deploy'), call('Bash', 'x', { command: './deploy.sh' }), { kind: 'exit' }]);
    expect(r.parts?.state).toBe('cut off while running deploy.sh');
    expect(r.status).toBe('aborted');
    // A session resumed after the exit is live again.
    expect(recapOf([user('deploy'), call('Bash', 'x', { command: './deploy.sh' }), { kind: 'exit' }, user('go on'), say('Deployed to staging.'), end]).parts?.state).toBe('done');
  });

  it('the user’s "yes" to a proposal with no answer yet: the proposal is the next step', () => {
    const r = recapOf([user('where is the session file?'), say('Found it at ~/.claude/x.jsonl. Want me to copy it into the repo and commit it? Something like `session.jsonl`?'), end, user('yes please')]);
    expect(r.parts?.state).toBe('no answer yet');
    expect(r.parts?.outcome).toEqual(['you said "yes please"']);
    expect(r.parts?.next).toBe('copy it into the repo and commit it? Something like session.jsonl?');
    expect(r.parts?.subject).toBe('where is session file?');
  });

  it('a prompt with no answer: working live, no answer yet cold, cut off after an exit', () => {
    expect(recapOf([user('explain the cache')], 'working').parts?.state).toBe('working');
    expect(recapOf([user('explain the cache')]).parts?.state).toBe('no answer yet');
    expect(recapOf([user('explain the cache'), { kind: 'exit' }]).parts?.state).toBe('cut off before the agent answered');
  });

  it('a turn in progress shows its last step and the agent’s latest words', () => {
    const r = recapOf([user('apply for the grant'), say('Starting with the preamble and the session export.'), call('Bash', 'command="x" description="Run telemetry preamble"', { command: '_T=$(cat ~/.cfg/config.json)\necho $_T', callId: 'b' }), result(true, 'TELEMETRY: anonymous', 'b')]);
    expect(r.parts?.state).toBe('in progress');
    expect(r.parts?.outcome[0]).toBe('running telemetry preamble (last step)');
    expect(r.parts?.outcome[1]).toBe('Starting with preamble and session export.');
  });

  it('an empty session says so', () => {
    const r = recapOf([]);
    expect(r.line).toBe('recap: nothing asked yet. Next: type the first request.');
    expect(r.status).toBe('empty');
  });
});

describe('heuristic recap: outcome sentences', () => {
  it('prefers sentences with numbers, files and results; skips pleasantries, headings, code blocks and tables', () => {
    const answer = ['Great question!', '', '## Summary', '', '```ts', 'const x = await run();', '```', '', '| a | b |', '|---|---|', '| 1 | 2 |', '', 'I fixed the off-by-one in src/range.ts: all 48 tests pass now.', '', 'Hope this helps!'].join('\n');
    const r = recapOf([user('fix the range bug'), say(answer), end]);
    expect(r.parts?.outcome[0]).toBe('Fixed off-by-one in src/range.ts: all 48 tests pass now.');
    expect(r.line, r.line).not.toMatch(/Summary|const x|\| a|Great question|Hope this/);
  });

  it('a heading is never the next step; a real proposal is', () => {
    const r = recapOf([user('review the plan'), say('The plan is sound; the cache layer is missing eviction.\n\n## Next Steps\n\nI can add an LRU eviction to cache.ts if you want.'), end]);
    expect(r.parts?.next).toBe('I can add an LRU eviction to cache.ts if you want.');
  });

  it('names the commit and where it was pushed, from git’s own output', () => {
    const r = recapOf([
      user('commit and push'),
      call('bash', 'x', { command: 'git commit -m "fix: range"', callId: 'c' }),
      result(true, '[main 2e593ed] fix: range 1 file changed, 2 insertions(+)', 'c'),
      call('bash', 'y', { command: 'git push origin main', callId: 'p' }),
      result(true, 'To https://github.com/acme/ranger.git 9bffcc8..2e593ed main -> main', 'p'),
      say('Committed and pushed.'),
      end,
    ]);
    expect(r.parts?.outcome).toContain('committed and pushed 2e593ed to ranger: "fix: range"');
    expect(r.artifacts).toContainEqual({ kind: 'commit', label: 'fix: range', locator: '2e593ed' });
  });

  it('files changed are the current turn’s, not the turn before', () => {
    const r = recapOf([user('fix duration parsing'), call('edit', 'p', { paths: ['/home/dev/app/src/duration.ts'] }), say('Fixed.'), end, user('now add the --since flag to the CLI'), call('edit', 'p', { paths: ['/home/dev/app/src/cli.ts'] }), say('Added the flag.'), end]);
    expect(r.line).toContain('changed src/cli.ts');
    expect(r.line).not.toContain('duration.ts');
    // "review and run the tests" fits any session: left out (issue 27).
    expect(r.parts?.next).toBe('');
  });

  it('keeps the conversation’s language', () => {
    const ja = recapOf([user('ログイン画面のバグを直してください'), say('修正しました。ログイン画面のテスト 3 件が通ります。'), end]);
    expect(ja.line).toContain('ログイン画面のバグを直してください');
    expect(ja.line).toContain('修正しました');
    expect(ja.language).toBe('ja');
    expect(recapOf([user('请把登录页面的错误修好'), say('好了'), end]).language).toBe('zh');
    expect(detectLanguage(['bitte füge die Tests hinzu und prüfe das Ergebnis mit der neuen Version'])).toBe('de');
    expect(detectLanguage(['please add the tests'])).toBe('en');
  });
});

describe('heuristic recap: subject', () => {
  it('is the gist of the latest real request, not an acknowledgement or a slash command', () => {
    const ctx = buildContext(session([user('Can you please port the selector component to the new theme API?'), say('Major or minor?'), user('yeah, do it all'), say('ok'), user('/compact', true), end]));
    expect(pickTask(ctx)).toBe('port selector component to new theme API?');
    // A slash command is never the task, with arguments or not (it used to make `/review src/app.ts` the
    // subject, and `/clear` the subject of a session whose only prompt was short).
    expect(pickTask(buildContext(session([user('/review src/app.ts', true), say('Looks fine.'), end])))).toBeUndefined();
    expect(pickTask(buildContext(session([user('/model claude-opus-4', true), user('Please list them again'), say('Listed.'), end])))).toBeUndefined();
    expect(pickTask(buildContext(session([user('/clear', true), user('list the files in src and count them'), say('12 files.'), end])))).toBe('list files in src and count them');
  });

  it('is never pasted log output, markup or JSON', () => {
    expect(pickTask(buildContext(session([user('[INFO] Starting the development server...'), say('ok'), end])))).toBeUndefined();
    expect(pickTask(buildContext(session([user('{\n  "mcpServers": {'), say('ok'), end])))).toBeUndefined();
    expect(pickTask(buildContext(session([user('Fix the login page'), say('ok'), end, user('<command-output>done</command-output>'), end])))).toBe('Fix login page');
  });

  it('falls back to the project folder, but not a home folder (as the label, not again as the subject)', () => {
    const r = recapOf([user('ok'), say('Done: 3 files formatted.'), end], undefined, { cwd: '/home/dev/billing-api' });
    expect(r.parts?.label).toBe('billing-api');
    expect(r.parts?.subject).toBeUndefined();
    expect(recapOf([user('ok'), say('Done: 3 files formatted.'), end], undefined, { cwd: '/Users/dev' }).parts?.subject).toBeUndefined();
  });

  it('gist: first sentence, no greetings or requests for help, no role prompt', () => {
    expect(gistOf('Hi! Help me apply for the agentic engineering grant by Superteam. It is due Friday.')).toBe('apply for agentic engineering grant by Superteam');
    expect(gistOf('You are an expert frontend engineer. Build the dashboard from the Figma file.')).toBe('Build dashboard from Figma file');
  });
});

describe('tools said as a person would', () => {
  it('commands', () => {
    expect(describeCommand('cd /x && bash ~/.codex/skills/apply-grant/export-session.sh .')).toBe('running export-session.sh');
    expect(describeCommand("sed -n '1,220p' anchor/programs/anchor/src/lib.rs")).toBe('reading lib.rs');
    expect(describeCommand('npm test -- --run')).toBe('running npm test');
    expect(describeCommand('git -C anchor log --oneline -20')).toBe('running git log');
    expect(describeCommand('git push origin main')).toBe('running git push');
    expect(describeCommand('cp a/b/session.jsonl ./session.jsonl')).toBe('copying a/b/session.jsonl');
  });

  it('tools: edits, reads, code-mode exec, descriptions, MCP; never JSON', () => {
    expect(describeTool({ name: 'Edit', args: 'file_path="/home/dev/app/src/app.ts"', paths: ['/home/dev/app/src/app.ts'] }, '/home/dev/app')).toBe('editing src/app.ts');
    expect(describeTool({ name: 'read_file', args: 'file_path="/a/b/README.md"', paths: [] })).toBe('reading README.md');
    expect(describeTool({ name: 'exec', args: 'const r = await tools.exec_command({"cmd":"bash /u/skills/export-session.sh .","workdir":"/u"}); text(r.output);', paths: [] })).toBe('running export-session.sh');
    expect(describeTool({ name: 'Bash', args: 'command="x" description="Check if workbench directory exists"', command: 'ls ~/Code/workbench/ 2>/dev/null && echo "exists"', paths: [] })).toBe('checking if workbench directory exists');
    expect(describeTool({ name: 'mcp__plugin_serena__list_dir', args: 'relative_path="."', paths: [] })).toBe('calling list dir');
    expect(describeTool({ name: 'web_search', args: 'query="rate limits"', paths: [] })).toBe('searching the web for rate limits');
  });

  it('an ask-the-user tool pending is a question to answer', () => {
    const r = recapOf([user('plan the build'), call('AskUserQuestion', 'questions=[{"question":"Which language should the engine use?","options":[]}]')]);
    expect(r.parts?.state).toBe('waiting for you');
    expect(r.parts?.next).toBe('Which language should the engine use?');
  });

  it('several pending reads share one verb', () => {
    const r = recapOf([user('gather context'), call('exec_command', 'a', { command: "sed -n '1,220p' anchor/src/lib.rs" }), call('exec_command', 'b', { command: "sed -n '1,220p' anchor/tests/anchor.js" })], 'working');
    expect(r.parts?.state).toBe('reading anchor/src/lib.rs, anchor/tests/anchor.js');
  });
});

describe('heuristic recap: limits', () => {
  it('never lets the line exceed 220 cells, sanitizes control text and keeps Next visible', () => {
    const long = 'x'.repeat(500);
    const r = recapOf([user(`\x1b[31m${long}\x1b[0m\nsecond line`), call('edit', long, { paths: Array.from({ length: 30 }, (_, i) => `/p/${'f'.repeat(60)}${i}.ts`) }), say(`I can ${'do more '.repeat(80)}`), end]);
    expect(displayWidth(r.line)).toBeLessThanOrEqual(220);
    expect(r.line).not.toMatch(/[\x00-\x1f\x7f]/);
    expect(r.line).toContain(' Next: ');
    const wide = recapOf([user('表示幅'.repeat(100)), say('完了'), end]);
    expect(displayWidth(wide.line)).toBeLessThanOrEqual(220);
    expect(displayWidth(wide.headline)).toBeLessThanOrEqual(80);
  });

  it('working line: task and the running tool, said as a person would', () => {
    expect(workingLine(buildContext(session([user('run the migrations'), call('bash', 'npm run migrate', { command: 'npm run migrate' })]), 'working'))).toBe('working: "run migrations" — running npm run migrate');
  });

  it('takes 10,000 events quickly enough to be called on every change', () => {
    const events: RecapEvent[] = [];
    for (let i = 0; i < 2500; i++) events.push(user(`step ${i} of the plan`), call('edit', `path=f${i}.ts`, { paths: [`f${i}.ts`], callId: `c${i}` }), result(true, 'ok', `c${i}`), say(`done ${i}`));
    const t = performance.now();
    const r = recapOf(events);
    expect(performance.now() - t).toBeLessThan(2000);
    expect(r.line).toContain('step 2499 of plan');
    expect(r.line).toContain('changed f2499.ts');
  });
});

describe('context builder', () => {
  it('excludes thinking, compacts tool calls and results, caps messages and the total', () => {
    const events: RecapEvent[] = [user('build the importer'), { kind: 'thinking', text: 'SECRET REASONING' }];
    for (let i = 0; i < 200; i++) events.push(call('read', 'a'.repeat(1000)), result(true, 'b'.repeat(2000)), say('c'.repeat(3000)));
    const ctx = buildContext(session(events));
    const rendered = renderContext(ctx);
    expect(rendered).not.toContain('SECRET REASONING');
    expect(ctx.truncated).toBe(true);
    expect(rendered.length).toBeLessThanOrEqual(CONTEXT_LIMITS.total + 500);
    for (const item of ctx.dialogue) {
      if (item.role === 'tool') expect(item.text.length).toBeLessThanOrEqual(CONTEXT_LIMITS.toolArgs + 10);
      if (item.role === 'result') expect(item.text.length).toBeLessThanOrEqual(CONTEXT_LIMITS.toolResult);
      expect(item.text.length).toBeLessThanOrEqual(CONTEXT_LIMITS.message);
    }
    expect(rendered).toContain('## First request of the session\nbuild the importer');
  });

  it('a compaction summary in place: the first request stays the session’s first, the summary and recent turns are kept', () => {
    const events: RecapEvent[] = [user('port the parser to Rust')];
    for (let i = 0; i < 60; i++) events.push(call('bash', 'x'.repeat(250)), result(true, 'y'.repeat(390)), say(`old step ${i}`));
    events.push({ kind: 'summary', source: 'compaction', text: 'Ported the lexer; the parser is half done.' });
    for (let i = 0; i < 5; i++) events.push(user(`continue step ${i}`), say(`step ${i} ok`), end);
    const ctx = buildContext(session(events));
    const rendered = renderContext(ctx);
    expect(ctx.firstRequest).toBe('port the parser to Rust');
    expect(rendered).toContain('## First request of the session\nport the parser to Rust');
    expect(rendered).toContain('## Summary the agent wrote of earlier work\nPorted the lexer; the parser is half done.');
    expect(rendered).toContain('[user] continue step 4');
    expect(rendered.length).toBeLessThanOrEqual(CONTEXT_LIMITS.total + 500);
  });

  it('marks slash commands, approvals and a closed session for the model', () => {
    const rendered = renderContext(buildContext(session([user('/review src/app.ts', true), call('Bash', 'command="git push"', { command: 'git push', approval: true })])));
    expect(rendered).toContain('[user] (slash command) /review src/app.ts');
    expect(rendered).toContain("## State: the agent waits for the user's approval of a tool call");
    expect(renderContext(buildContext(session([user('hi'), say('Hello.'), end, { kind: 'exit' }])))).toContain('the session was closed');
  });

  it('starts the dialogue at a turn boundary, never on a dangling tool result', () => {
    const events: RecapEvent[] = [];
    for (let t = 0; t < 40; t++) events.push(user(`turn ${t}`), call('bash', 'x'.repeat(200)), result(true, 'y'.repeat(390)), say('z'.repeat(300)), end);
    expect(buildContext(session(events)).dialogue[0]?.role).toBe('user');
    const noUser: RecapEvent[] = [user('start')];
    for (let i = 0; i < 100; i++) noUser.push(call('bash', 'x'.repeat(250)), result(true, 'y'.repeat(390)));
    expect(buildContext(session(noUser)).dialogue[0]?.role).toBe('tool');
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
    expect(turnEnding([user('a'), say('Which one?'), end, { kind: 'exit' }]).ending).toBe('question');
    expect(turnEnding([user('a'), { kind: 'aborted' }]).ending).toBe('interrupted');
    expect(turnEnding([user('a'), { kind: 'error', text: '500' }]).ending).toBe('api-error');
    expect(turnEnding([user('a'), call('x', 'y')])).toEqual({ ending: 'mid-tool', pendingTool: 'x(y)' });
    expect(turnEnding([user('a'), call('x', 'y'), result(true, 'r')]).ending).toBe('mid-turn');
    expect(turnEnding([user('a'), say('ok'), { kind: 'title', text: 't' }, { kind: 'model', model: 'm' }]).ending).toBe('finished');
    // The agent's own recap after the turn says nothing about how it ended (#34).
    expect(turnEnding([user('a'), say('Which one?'), end, { kind: 'agent-recap', text: 'Goal: g.' }]).ending).toBe('question');
  });
});

describe('tools said as a person would: shell details', () => {
  it('skips env exports and sudo flags, and reads a command whose newlines were escaped', () => {
    expect(describeCommand('export SUDO_ASKPASS=/x/pw.sh\\nsudo -A mv /etc/wpa.conf /etc/wpa.conf.bak')).toBe('moving wpa.conf');
    expect(describeCommand('export A=1\nsudo -E ./install.sh --yes')).toBe('running install.sh');
  });

  it('an API error in another language is still sorted by kind', () => {
    const r = recapOf([user('增加设置'), { kind: 'error', text: 'API Error: 403 预扣费额度失败, 用户剩余额度: ＄0.36' }]);
    expect(r.parts?.next).toBe('top up credit or switch account, then resend "增加设置"');
  });
});

describe('heuristic recap: answers to questions', () => {
  it('the opening sentence of the answer to a question is the outcome', () => {
    const r = recapOf([user('quick, what is NAV?'), say('**Net Asset Value** — the per-token price of an asset calculated from its underlying value. Updated periodically (daily/weekly) by the issuer based on valuations.'), end]);
    expect(r.parts?.outcome[0]).toBe('Net Asset Value — the per-token price of asset calculated from its underlying value.');
  });
});

describe('heuristic recap: one-word tasks and long requests', () => {
  it('a one-word request is the subject; a long request with a short first sentence is not passed over', () => {
    expect(recapOf([user('init'), say('The repo is empty. Which stack do you want?'), end], undefined, { cwd: '/home/dev/proj' }).parts?.subject).toBe('init');
    const ctx = buildContext(session([user('index the docs and the issues so we can plan the hackathon work properly'), say('Indexed.'), end, user('Pick up FW-005 first. Add a narrow CLI demo and commit it in two commits.'), say('Both commits landed.'), end]));
    expect(pickTask(ctx)).toBe('Pick up FW-005 first');
  });
});

describe('recap text defects a newcomer sees first (#28 item 5)', () => {
  it('the demo’s "Next I would … — want me to?" is said once, as the decision, and the question survives a narrow pane', () => {
    const events = [user('add a --verbose flag'), call('write', 'p', { paths: ['/home/dev/app/src/cli.ts'] }), call('bash', 'npm test', { command: 'npm test', callId: 't' }), result(true, '12 passed', 't'), say('Added a --verbose flag in src/cli.ts and all 12 tests pass. Next I would document it in the README — want me to?'), end];
    const r = recapOf(events);
    expect(r.parts?.next).toBe('ok to document it in the README?');
    expect(r.line).not.toMatch(/Next: Next/);
    for (const w of [71, 100, 151]) expect(composeParts(r.parts as RecapParts, w)).not.toMatch(/Next: Next/);
  });

  it('a session that stopped mid-tool long ago is not "running" and has no "let it finish" (injected clock)', () => {
    const events = [user('export the session'), say('Exporting the session first, then I will draft the grant.'), call('bash', 'bash export-session.sh', { command: 'bash export-session.sh', callId: 'e' })];
    const at = Date.parse('2026-05-01T10:00:00Z');
    const old = heuristicRecap(buildContext(session(events, { updatedAt: at }), undefined, { now: at + 3 * 86_400_000 }));
    expect(old.parts?.state).toBe('stopped while running export-session.sh');
    expect(old.status).toBe('aborted');
    expect(old.line).not.toMatch(/let it finish|^recap: (\S+ · )?running/);
    // The same file a minute later is still running.
    const fresh = heuristicRecap(buildContext(session(events, { updatedAt: at }), undefined, { now: at + 60_000 }));
    expect(fresh.parts?.state).toBe('running export-session.sh');
    expect(fresh.line).not.toContain('let it finish');
  });

  it('an approval asked for long ago still names what waited', () => {
    const events = [user('check the remote'), call('shell', 'git remote -v', { command: 'git remote -v', approval: true, callId: 'g' })];
    const r = heuristicRecap(buildContext(session(events, { updatedAt: 0 }), undefined, { now: 86_400_000 }));
    expect(r.parts?.state).toBe('stopped waiting for approval of git remote');
  });

  it('a subject is never a JSON scrap nor ends in a dangling comma or colon', () => {
    expect(pickTask(buildContext(session([user('how to add an mcp server'), say('ok'), end, user('"mcp-remote",\n"https://mcp.example.com/v1/sse"'), say('ok'), end])))).toBe('how to add mcp server');
    expect(gistOf('1. print the approach summary (about 30 words), 2. tell me where the file is')).toBe('print approach summary (about 30 words)');
    expect(gistOf('Fix the login page, then:')).toBe('Fix login page, then');
  });

  it('a check whose output reports errors failed, even when a pipe hid its exit code; the error leads the outcome', () => {
    const r = recapOf([user('release it'), call('bash', 'npm run build 2>&1 | head -30', { command: 'npm run build 2>&1 | head -30', callId: 'b' }), result(true, "> build\nsrc/theme/theme.ts(5,15): error TS2305: Module 'pi-tui' has no exported member 'EditorTheme'.", 'b'), say('These look like API mismatches between the packages.'), end]);
    expect(r.parts?.state).toBe('failing check');
    expect(r.parts?.outcome[0]).toBe("npm run build failed: error TS2305: Module 'pi-tui' has no exported member 'EditorTheme'.");
    expect(checkError('Tests: 0 failed, 12 passed')).toBeUndefined();
    expect(checkError('Tests: 2 failed, 10 passed')).toBe('2 failed');
  });

  it('romanised or pasted text run together is never the subject (issue 27)', () => {
    expect(pickTask(buildContext(session([user('restore the wifi settings'), say('ok'), end, user('haiimakennsyousitekuretasubetewokamisite,sykisetteinimodositehosii'), say('ok'), end])))).toBe('restore wifi settings');
  });

  it('paths in the recap are relative to the session folder, `~` for homes, with no user names', () => {
    const r = recapOf([user('find the repo'), say('Found the repo: /Users/ana/Developer/trezo-ai. I changed /home/dev/app/src/a.ts and read C:\\Users\\bob\\notes.md.'), end]);
    expect(r.line).toContain('~/Developer/trezo-ai');
    expect(r.line).toContain('src/a.ts');
    expect(r.line).not.toMatch(/\/Users\/ana|\/home\/dev|bob/);
  });

  it('a last /exit is recapped from the turn before it, as closed', () => {
    const r = recapOf([user('what is NAV?'), say('Net Asset Value: the per-token price of a fund from its holdings.'), end, user('/exit', true), { kind: 'exit', text: '/exit' }]);
    expect(r.parts?.state).toBe('closed');
    expect(r.line).toContain('Net Asset Value');
  });
});
