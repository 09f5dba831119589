/**
 * The demo's built-in "agent": a tiny inline TUI that pretends to work on a task and writes a real
 * pi-format (v3) session transcript, so `recapwrap demo` shows the whole product with no key and no
 * network. It only ever writes into a throwaway project: the one `recapwrap demo` made (named in
 * RECAPWRAP_DEMO_WORKSPACE), else one of its own under the temp folder, removed when it quits. Its
 * session goes where pi's would (pi's `--session <path>`, or $PI_CODING_AGENT_DIR / _SESSION_DIR, for
 * the folder it was started in) when you point those there, else into the throwaway project: never into
 * your ~/.pi.
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes, randomUUID } from 'node:crypto';
import { homedir, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { getPiSessionDir, PI_AGENT_DIR_ENV, PI_SESSION_DIR_ENV, piSessionFileName } from '../transcripts/pi/paths.js';

const CLEAR_LINE = '\x1b[2K'; // EL 2: erase the whole line
const DIM = '\x1b[2m';
const BOLD = '\x1b[1m';
const CYAN = '\x1b[36m';
const GREEN = '\x1b[32m';
const RED = '\x1b[31m';
const RESET = '\x1b[0m';
const STEP_MS = Number(process.env.RECAPWRAP_DEMO_STEP_MS ?? 900);
/** Set by `recapwrap demo`: the throwaway project it made (and removes). */
export const DEMO_WORKSPACE_ENV = 'RECAPWRAP_DEMO_WORKSPACE';
/** The project folder's name inside a throwaway workspace. */
export const DEMO_PROJECT_NAME = 'myproj';

interface Step {
  say?: string;
  tool?: { name: string; args: Record<string, unknown>; result: string; isError?: boolean; write?: { path: string; content: string } };
}

interface Script {
  match: RegExp;
  steps: Step[];
  final: string;
  /** What a yes to the final question runs; without one, the final asks nothing. */
  onYes?: Script;
}

const YES = /^(y|yes|yeah|yep|sure|ok|okay|please|go ahead|do it)\b/i;
const NO = /^(n|no|nope|not now|stop)\b/i;

// Scripted scenarios: the first whose pattern matches the prompt runs; the last is the fallback. A yes
// or no answers the question the last turn asked (and runs nothing unrelated).
const SCRIPTS: Script[] = [
  {
    match: /test|fail|fix/i,
    steps: [
      { say: 'Running the test suite first.', tool: { name: 'bash', args: { command: 'npm test' }, result: '1 failed, 11 passed\n  ✗ parseDuration("90s") returned 90000, expected 90', isError: true } },
      { say: 'parseDuration multiplies seconds by 1000 twice.', tool: { name: 'edit', args: { path: 'src/duration.ts', oldText: 'ms * 1000', newText: 'ms' }, result: 'Successfully replaced text in src/duration.ts', write: { path: 'src/duration.ts', content: 'export const parseDuration = (s: string) => Number.parseInt(s, 10);\n' } } },
    ],
    final: 'I fixed the double conversion in src/duration.ts but have not re-run the tests yet. Shall I run `npm test` again?',
    onYes: {
      match: YES,
      steps: [{ say: 'Re-running the tests.', tool: { name: 'bash', args: { command: 'npm test' }, result: '12 passed' } }],
      final: 'All 12 tests pass now: parseDuration("90s") returns 90 after the fix in src/duration.ts.',
    },
  },
  {
    match: /.*/,
    steps: [
      { say: "I'll look at how flags are parsed.", tool: { name: 'read', args: { path: 'src/cli.ts' }, result: 'export function parseArgs(argv: string[]) { … }' } },
      { say: 'Adding the flag and wiring it to the logger.', tool: { name: 'write', args: { path: 'src/cli.ts', content: '…' }, result: 'Successfully wrote 412 bytes to src/cli.ts', write: { path: 'src/cli.ts', content: 'export const VERBOSE_FLAG = "--verbose";\n' } } },
      { tool: { name: 'bash', args: { command: 'npm test' }, result: '12 passed' } },
    ],
    final: 'Added a --verbose flag in src/cli.ts and all 12 tests pass. Next I would document it in the README — want me to?',
    onYes: {
      match: YES,
      steps: [{ say: 'Adding a line for --verbose to the README.', tool: { name: 'edit', args: { path: 'README.md', oldText: '## Options', newText: '## Options\n\n- `--verbose`: log every step' }, result: 'Successfully replaced text in README.md', write: { path: 'README.md', content: '# myproj\n\n## Options\n\n- `--verbose`: log every step\n' } } }],
      final: 'Documented --verbose in README.md under Options.',
    },
  },
];

const NOTHING_ASKED: Script = { match: YES, steps: [], final: 'There is no open question right now: type a task (for example "fix the failing test").' };
const DECLINED: Script = { match: NO, steps: [], final: 'OK, leaving it as it is. Type another task when you are ready.' };

/** The script a prompt runs, given the question the previous turn left open (its yes-script). */
export function pickScript(prompt: string, pendingYes: Script | undefined): Script {
  const text = prompt.trim();
  if (YES.test(text)) return pendingYes ?? NOTHING_ASKED;
  if (NO.test(text)) return DECLINED;
  return SCRIPTS.find((s) => s.match.test(text)) ?? (SCRIPTS[SCRIPTS.length - 1] as Script);
}

function uuidv7Like(): string {
  const hex = Date.now().toString(16).padStart(12, '0');
  const rest = randomUUID().replace(/-/g, '').slice(12);
  const s = hex + '7' + rest.slice(1);
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20, 32)}`;
}

/**
 * Where the session goes: pi's `--session <path>`; else where pi would put it for `startCwd` when
 * $PI_CODING_AGENT_DIR or $PI_CODING_AGENT_SESSION_DIR points somewhere; else inside the workspace.
 */
export function chooseSessionPath(argv: readonly string[], env: NodeJS.ProcessEnv, startCwd: string, workspace: string): string {
  const i = argv.indexOf('--session');
  if (i >= 0 && argv[i + 1]) return resolve(startCwd, argv[i + 1] as string);
  const name = piSessionFileName(Date.now(), uuidv7Like());
  if (env[PI_AGENT_DIR_ENV] || env[PI_SESSION_DIR_ENV]) return join(getPiSessionDir({ cwd: startCwd, env, home: homedir() }), name);
  return join(workspace, '.pi-agent', 'sessions', name);
}

/** The throwaway project to work in, and whether this process made it (and so removes it). */
export function openWorkspace(env: NodeJS.ProcessEnv): { project: string; remove?: string } {
  const given = env[DEMO_WORKSPACE_ENV];
  if (given) return { project: given };
  const root = mkdtempSync(join(tmpdir(), 'recapwrap-demo-'));
  const project = join(root, DEMO_PROJECT_NAME);
  mkdirSync(project);
  return { project, remove: root };
}

class TranscriptWriter {
  private lastId: string | null = null;
  private headerWritten = false;
  constructor(private readonly file: string, private readonly cwd: string) {}

  private write(obj: Record<string, unknown>): void {
    mkdirSync(dirname(this.file), { recursive: true });
    appendFileSync(this.file, JSON.stringify(obj) + '\n');
  }

  /**
   * The header, at start. pi itself writes nothing until the first assistant message; the demo writes
   * at once so that a wrapper that has to look for the file (no pin) finds it before the first turn and
   * sees that turn start and end, as it would with pi pinned.
   */
  start(): void {
    if (this.headerWritten) return;
    this.headerWritten = true;
    this.write({ type: 'session', version: 3, id: uuidv7Like(), timestamp: new Date().toISOString(), cwd: this.cwd });
    this.entry('model_change', { provider: 'demo', modelId: 'scripted' });
  }

  entry(type: string, fields: Record<string, unknown>): void {
    this.start();
    const id = randomBytes(4).toString('hex');
    this.write({ type, id, parentId: this.lastId, timestamp: new Date().toISOString(), ...fields });
    this.lastId = id;
  }

  message(message: Record<string, unknown>): void {
    this.entry('message', { message: { ...message, timestamp: Date.now() } });
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function runScript(script: Script, prompt: string, transcript: TranscriptWriter, out: (s: string) => void): Promise<void> {
  transcript.message({ role: 'user', content: [{ type: 'text', text: prompt }] });
  let n = 0;
  for (const step of script.steps) {
    const spinner = '⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏';
    for (let t = 0; t < 5; t++) {
      out(`\r${CLEAR_LINE}${CYAN}${spinner[(n++) % spinner.length]}${RESET} ${DIM}working…${RESET}`);
      await sleep(STEP_MS / 5);
    }
    const callId = `call_demo_${n}`;
    const content: Array<Record<string, unknown>> = [];
    if (step.say) content.push({ type: 'text', text: step.say });
    if (step.tool) content.push({ type: 'toolCall', id: callId, name: step.tool.name, arguments: step.tool.args });
    transcript.message({ role: 'assistant', content, provider: 'demo', model: 'scripted', stopReason: step.tool ? 'toolUse' : 'stop' });
    out(`\r${CLEAR_LINE}`);
    if (step.say) out(`${step.say}\r\n`);
    if (step.tool) {
      if (step.tool.write) {
        mkdirSync(dirname(step.tool.write.path), { recursive: true });
        writeFileSync(step.tool.write.path, step.tool.write.content);
      }
      const label = step.tool.name === 'bash' ? `$ ${String(step.tool.args.command)}` : `${step.tool.name} ${String(step.tool.args.path ?? '')}`;
      const color = step.tool.isError ? RED : GREEN;
      out(`  ${color}${label}${RESET}\r\n  ${DIM}${step.tool.result.split('\n')[0]}${RESET}\r\n`);
      transcript.message({ role: 'toolResult', toolCallId: callId, toolName: step.tool.name, content: [{ type: 'text', text: step.tool.result }], isError: Boolean(step.tool.isError) });
    }
  }
  await sleep(STEP_MS / 2);
  transcript.message({ role: 'assistant', content: [{ type: 'text', text: script.final }], provider: 'demo', model: 'scripted', stopReason: 'stop' });
  out(`${BOLD}${script.final}${RESET}\r\n`);
}

/** Run the demo agent in this terminal (bin/demo-agent.js calls this). */
export async function main(): Promise<void> {
  const out = (s: string) => process.stdout.write(s);
  const startCwd = process.cwd();
  const workspace = openWorkspace(process.env);
  if (workspace.remove) {
    const root = workspace.remove;
    const removeWorkspace = () => rmSync(root, { recursive: true, force: true });
    process.on('exit', removeWorkspace);
    for (const signal of ['SIGHUP', 'SIGTERM', 'SIGINT'] as const) process.on(signal, () => process.exit(128 + (signal === 'SIGHUP' ? 1 : signal === 'SIGINT' ? 2 : 15)));
  }
  // Files the scripts "write" land in the throwaway project, never in the folder you started from.
  process.chdir(workspace.project);
  const transcript = new TranscriptWriter(chooseSessionPath(process.argv.slice(2), process.env, startCwd, workspace.project), workspace.project);
  transcript.start();
  const prompt = () => out(`\r\n${CYAN}›${RESET} `);
  // Raw before the first byte out: a key typed once anything shows (Ctrl-D as soon as the prompt is up, a
  // task while the banner prints) is a key. In the tty's cooked mode a Ctrl-D at a line's start is EOF,
  // which the switch to raw turns into a NUL: the demo never quit (the fault-tmux e2e test hung on it).
  if (process.stdin.isTTY) process.stdin.setRawMode(true);
  out(`${BOLD}demo agent${RESET} ${DIM}(scripted, no network) in ${basename(process.cwd())}${RESET}\r\n`);
  out(`${DIM}Type a task and press Enter (empty Enter = "add a --verbose flag"; try "fix the failing test"). Ctrl-D quits.${RESET}\r\n`);
  prompt();
  process.stdin.setEncoding('utf8');
  let line = '';
  let busy = false;
  let pendingYes: Script | undefined;
  process.stdin.on('data', (data: string) => {
    for (const ch of data) {
      if (ch === '\x04' || ch === '\x03') {
        out('\r\n');
        process.exit(0);
      }
      if (busy) continue;
      if (ch === '\r' || ch === '\n') {
        const task = line.trim() || 'add a --verbose flag';
        line = '';
        busy = true;
        out('\r\n');
        const script = pickScript(task, pendingYes);
        pendingYes = script.onYes;
        void runScript(script, task, transcript, out).then(() => {
          busy = false;
          prompt();
        });
      } else if (ch === '\x7f' || ch === '\b') {
        if (line.length > 0) {
          line = line.slice(0, -1);
          out('\b \b');
        }
      } else if (ch >= ' ' && !ch.startsWith('\x1b')) {
        line += ch;
        out(ch);
      }
    }
  });
}
