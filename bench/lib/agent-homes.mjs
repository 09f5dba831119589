// A generated home of many agent sessions, for the session-memory bench (issue #25): every session is
// written where its agent keeps it and in its agent's line format (learnt from src/transcripts/<agent>/
// paths and parsers and the recorded fixtures in test/fixtures/transcripts/): Claude Code projects/<slug>/
// <id>.jsonl, Codex sessions/YYYY/MM/DD/rollout-…-<id>.jsonl, Gemini tmp/<slug>/chats/session-….jsonl
// (with projects.json and .project_root), pi sessions/--<cwd>--/<time>_<id>.jsonl, Qwen projects/<cwd>/
// chats/<id>.jsonl. Turns hold a user prompt, the agent's prose, tool calls with file paths and commands,
// and tool results with big bodies (as the agents store them, some twice); the words follow a Zipf law
// over a large made-up vocabulary so that searching a word is meaningful. Seeded: the same knobs give
// the same home. Nothing here is committed: the bench writes into a temp folder and removes it.
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, utimesSync, writeFileSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export const AGENTS = ['claude', 'codex', 'gemini', 'pi', 'qwen'];
const AGENT_SHARE = { claude: 0.35, codex: 0.3, gemini: 0.12, pi: 0.11, qwen: 0.12 };
const DAY_MS = 86_400_000;

// ------------------------------------------------------------------ randomness and words
export function createRandom(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = (xs) => xs[Math.floor(next() * xs.length)];
  const normal = () => Math.sqrt(-2 * Math.log(next() || 1e-12)) * Math.cos(2 * Math.PI * next());
  const hex = (n) => {
    let s = '';
    while (s.length < n) s += Math.floor(next() * 0x100000000).toString(16).padStart(8, '0');
    return s.slice(0, n);
  };
  const uuid = () => {
    const h = hex(32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
  };
  return { next, int, pick, normal, hex, uuid };
}

const TECH = ('parser cache index query schema migration token session cursor buffer stream socket retry timeout backoff ' +
  'handler router middleware endpoint payload header cookie auth login logout refresh secret config option flag ' +
  'build bundle chunk module import export type interface class method field struct enum trait generic ' +
  'test fixture mock snapshot coverage lint format commit branch merge rebase diff patch release version tag ' +
  'docker image container volume network deploy rollout canary metric trace log alert dashboard latency ' +
  'throughput memory leak heap stack thread worker queue job cron scheduler lock mutex race deadlock ' +
  'database table column row transaction rollback replica shard backup restore invoice payment refund ' +
  'customer account user profile avatar upload download resize thumbnail image video audio subtitle ' +
  'search ranking filter sort page limit offset pagination csv json yaml toml xml markdown html css ' +
  'layout grid flex button modal dialog toast tooltip dropdown input form validation error warning').split(' ');
const FILLER = 'the a to of and in is it that for on with this as be we at by from not or but so now then next also just'.split(' ');
const SYLLABLES = 'ka ri mo zu pe la ven tor ix qua ble dro fin gal hus jor kel lum nax orb pli quo rast sil tem ugo vex wyn yar zel bri cro dax eph fyr gno'.split(' ');

/** A vocabulary of technical words and made-up ones, and a Zipf sampler over it. */
export function createVocabulary(rand, size = 30_000) {
  const words = [...TECH];
  const seen = new Set(words);
  while (words.length < size) {
    let w = '';
    for (let i = rand.int(2, 4); i > 0; i--) w += rand.pick(SYLLABLES);
    if (!seen.has(w)) {
      seen.add(w);
      words.push(w);
    }
  }
  // Zipf(1): cumulative weights 1/rank, sampled by binary search.
  const cum = new Float64Array(words.length);
  let total = 0;
  for (let i = 0; i < words.length; i++) cum[i] = total += 1 / (i + 1);
  const word = () => {
    const x = rand.next() * total;
    let lo = 0;
    let hi = cum.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return words[lo];
  };
  const sentence = (n) => {
    const out = [];
    for (let i = 0; i < n; i++) out.push(rand.next() < 0.3 ? rand.pick(FILLER) : word());
    const s = out.join(' ');
    return s.charAt(0).toUpperCase() + s.slice(1) + '.';
  };
  const prose = (n) => {
    const out = [];
    for (let left = n; left > 0; ) {
      const k = Math.min(left, rand.int(6, 16));
      out.push(sentence(k));
      left -= k;
    }
    return out.join(' ');
  };
  return { words, word, sentence, prose };
}

// ------------------------------------------------------------------ folders and turns
const EXT = ['ts', 'tsx', 'js', 'py', 'go', 'rs', 'md', 'json', 'sql', 'css'];
const DIRS = ['src', 'src/lib', 'src/api', 'src/components', 'test', 'scripts', 'internal', 'pkg', 'docs', 'migrations'];
const COMMANDS = ['npm test', 'npm run build', 'npx tsc --noEmit', 'pytest -q', 'go test ./...', 'cargo test', 'git status', 'git diff --stat', 'git log --oneline -10', 'ls -la', 'make lint'];

function makeFolders(rand, vocab, n, home) {
  const names = new Set();
  const out = [];
  while (out.length < n) {
    const name = `${vocab.words[rand.int(0, 400)]}-${vocab.words[rand.int(0, 3000)]}`;
    if (names.has(name)) continue;
    names.add(name);
    const cwd = rand.next() < 0.7 ? join(home, 'code', name) : join(home, 'work', rand.pick(['acme', 'globex', 'initech']), name);
    out.push({ cwd, name, branch: rand.pick(['main', 'main', 'master', `feat/${vocab.word()}-${vocab.word()}`, `fix/${vocab.word()}`]) });
  }
  return out;
}

// A pool of tool-output bodies (source files, test logs, listings), JSON-escaped once, reused.
function makeBodies(rand, vocab, count = 160) {
  const bodies = [];
  for (let i = 0; i < count; i++) {
    const size = Math.min(160_000, Math.max(200, Math.round(Math.exp(8.3 + rand.normal() * 1.2))));
    const lines = [];
    let len = 0;
    const kind = i % 3;
    while (len < size) {
      const line =
        kind === 0
          ? `${'  '.repeat(rand.int(0, 3))}${rand.pick(['const', 'let', 'return', 'if', 'export function', 'await'])} ${vocab.word()}${vocab.word().replace(/^./, (c) => c.toUpperCase())} = ${vocab.word()}(${vocab.word()}, ${rand.int(0, 999)});`
          : kind === 1
            ? `${rand.pick(['✓', '✓', '✓', '×'])} ${rand.pick(DIRS)}/${vocab.word()}.test.${rand.pick(EXT)} > ${vocab.sentence(rand.int(3, 8))} ${rand.int(1, 400)}ms`
            : `${rand.pick(['-rw-r--r--', 'drwxr-xr-x'])} 1 dev dev ${rand.int(10, 99999)} Nov ${rand.int(1, 28)} ${rand.pick(DIRS)}/${vocab.word()}.${rand.pick(EXT)}`;
      lines.push(line);
      len += line.length + 1;
    }
    const text = lines.join('\n');
    bodies.push({ text, json: JSON.stringify(text).slice(1, -1), bytes: text.length });
  }
  return bodies;
}

function makeTurn(rand, vocab, bodies, folder, planted) {
  const path = () => `${rand.pick(DIRS)}/${vocab.word()}-${vocab.word()}.${rand.pick(EXT)}`;
  const files = [path(), path(), path()];
  let prompt = `${rand.pick(['Please', 'Can you', 'Now', 'Next,', 'Fix:', 'Why does'])} ${vocab.prose(rand.int(8, 50))}`;
  if (rand.next() < 0.5) prompt += ` See ${files[0]}.`;
  if (planted) prompt += ` ${planted}`;
  const calls = [];
  for (let i = rand.int(1, 5); i > 0; i--) {
    const r = rand.next();
    const body = rand.pick(bodies);
    if (r < 0.4) calls.push({ kind: 'bash', command: rand.next() < 0.6 ? rand.pick(COMMANDS) : `grep -rn ${vocab.word()} ${rand.pick(DIRS)}`, body, ok: rand.next() < 0.85 });
    else if (r < 0.75) calls.push({ kind: 'read', path: rand.pick(files), body, ok: true });
    else calls.push({ kind: 'edit', path: rand.pick(files), old: vocab.sentence(rand.int(3, 10)), new: vocab.sentence(rand.int(3, 12)), body: undefined, ok: true });
  }
  return {
    prompt,
    thinking: vocab.prose(rand.int(10, 40)),
    intro: vocab.prose(rand.int(8, 30)),
    calls,
    final: `${vocab.prose(rand.int(20, 120))} ${rand.next() < 0.4 ? `Next: ${vocab.sentence(rand.int(5, 12))}` : ''}`.trim(),
    files,
  };
}

// ------------------------------------------------------------------ per-agent line formats
const j = JSON.stringify;
const iso = (ms) => new Date(ms).toISOString();
const EDIT_RESULT = (c) => `The file ${c.path} has been updated.`;

const claude = {
  file: (home, s) => join(home, '.claude', 'projects', s.cwd.replace(/[^a-zA-Z0-9]/g, '-'), `${s.id}.jsonl`),
  start: () => [],
  turn(s, t, rand) {
    const base = () => `"cwd":${j(s.cwd)},"sessionId":"${s.id}","version":"2.1.330","gitBranch":${j(s.branch)}`;
    const out = [];
    const entry = (body) => {
      const uuid = rand.uuid();
      s.ts += rand.int(200, 4000);
      out.push(`{"parentUuid":${s.last ? `"${s.last}"` : 'null'},"isSidechain":false,${body},"uuid":"${uuid}","timestamp":"${iso(s.ts)}","userType":"external","entrypoint":"cli",${base()}}`);
      s.last = uuid;
    };
    const usage = '"usage":{"input_tokens":2400,"cache_creation_input_tokens":0,"cache_read_input_tokens":18000,"output_tokens":310,"service_tier":"standard"}';
    const assistant = (content, stop) => entry(`"message":{"id":"msg_${rand.hex(24)}","type":"message","role":"assistant","model":"claude-opus-5-5","content":[${content}],"stop_reason":"${stop}","stop_sequence":null,${usage}},"type":"assistant"`);
    entry(`"promptId":"${rand.uuid()}","type":"user","message":{"role":"user","content":${j(t.prompt)}},"permissionMode":"default","promptSource":"typed"`);
    assistant(`{"type":"thinking","thinking":${j(t.thinking)},"signature":"${rand.hex(64)}"}`, 'tool_use');
    assistant(`{"type":"text","text":${j(t.intro)}}`, 'tool_use');
    for (const c of t.calls) {
      const id = `toolu_${rand.hex(24)}`;
      const input = c.kind === 'bash' ? { command: c.command, description: 'run it' } : c.kind === 'read' ? { file_path: join(s.cwd, c.path) } : { file_path: join(s.cwd, c.path), old_string: c.old, new_string: c.new };
      assistant(`{"type":"tool_use","id":"${id}","name":"${c.kind === 'bash' ? 'Bash' : c.kind === 'read' ? 'Read' : 'Edit'}","input":${j(input)}}`, 'tool_use');
      const body = c.body ? c.body.json : j(EDIT_RESULT(c)).slice(1, -1);
      // Claude Code keeps a result twice: in the message and in toolUseResult.
      entry(`"type":"user","message":{"role":"user","content":[{"tool_use_id":"${id}","type":"tool_result","content":"${body}","is_error":${!c.ok}}]},"toolUseResult":{"stdout":"${body}","stderr":"","interrupted":false,"isImage":false},"sourceToolAssistantUUID":"${s.last}"`);
    }
    assistant(`{"type":"text","text":${j(t.final)}}`, 'end_turn');
    entry(`"type":"system","subtype":"turn_duration","durationMs":${rand.int(2000, 300000)},"isMeta":false`);
    out.push(`{"type":"last-prompt","lastPrompt":${j(t.prompt.slice(0, 200))},"sessionId":"${s.id}"}`);
    return out;
  },
};

const CODEX_INSTRUCTIONS = j('You are Codex, a coding agent. '.repeat(260));
const codex = {
  file(home, s) {
    const d = new Date(s.started);
    const p = (n) => String(n).padStart(2, '0');
    const stamp = `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}-${p(d.getMinutes())}-${p(d.getSeconds())}`;
    return join(home, '.codex', 'sessions', String(d.getFullYear()), p(d.getMonth() + 1), p(d.getDate()), `rollout-${stamp}-${s.id}.jsonl`);
  },
  start(s) {
    s.ord = 0;
    return [`{"timestamp":"${iso(s.ts)}","ordinal":${s.ord++},"type":"session_meta","payload":{"session_id":"${s.id}","id":"${s.id}","timestamp":"${iso(s.ts)}","cwd":${j(s.cwd)},"originator":"codex-tui","cli_version":"0.169.0","source":"cli","model_provider":"openai","base_instructions":{"text":${CODEX_INSTRUCTIONS}},"git":{"branch":${j(s.branch)}}}}`];
  },
  turn(s, t, rand) {
    const out = [];
    const turn = rand.uuid();
    const rec = (type, payload) => {
      s.ts += rand.int(100, 3000);
      out.push(`{"timestamp":"${iso(s.ts)}","ordinal":${s.ord++},"type":"${type}","payload":${payload}}`);
    };
    rec('event_msg', `{"type":"task_started","turn_id":"${turn}","model_context_window":258400}`);
    rec('turn_context', `{"turn_id":"${turn}","cwd":${j(s.cwd)},"approval_policy":"on-request","model":"gpt-5-codex"}`);
    rec('response_item', `{"type":"message","role":"user","content":[{"type":"input_text","text":${j(t.prompt)}}]}`);
    rec('event_msg', `{"type":"user_message","message":${j(t.prompt)},"images":[]}`);
    rec('response_item', `{"type":"reasoning","summary":[{"type":"summary_text","text":${j(t.thinking)}}],"content":null,"encrypted_content":"${rand.hex(400)}"}`);
    rec('response_item', `{"type":"message","role":"assistant","content":[{"type":"output_text","text":${j(t.intro)}}]}`);
    for (const c of t.calls) {
      const id = `call_${rand.hex(24)}`;
      if (c.kind === 'edit') {
        const patch = `*** Begin Patch\n*** Update File: ${c.path}\n@@\n-${c.old}\n+${c.new}\n*** End Patch`;
        rec('response_item', `{"type":"custom_tool_call","status":"completed","call_id":"${id}","name":"apply_patch","input":${j(patch)}}`);
        rec('response_item', `{"type":"custom_tool_call_output","call_id":"${id}","output":${j(j({ output: `Success. Updated the following files:\nM ${c.path}\n`, metadata: { exit_code: 0 } }))}}`);
        continue;
      }
      const cmd = c.kind === 'bash' ? c.command : `sed -n '1,200p' ${c.path}`;
      rec('response_item', `{"type":"function_call","name":"exec_command","arguments":${j(j({ cmd, workdir: s.cwd }))},"call_id":"${id}"}`);
      const code = c.ok ? 0 : 1;
      // Codex keeps the output twice: in the command's end event and in the function output.
      rec('event_msg', `{"type":"exec_command_end","call_id":"${id}","command":["/bin/bash","-lc",${j(cmd)}],"cwd":${j(s.cwd)},"aggregated_output":"${c.body.json}","exit_code":${code}}`);
      rec('response_item', `{"type":"function_call_output","call_id":"${id}","output":"Chunk ID: ${rand.hex(6)}\\nWall time: 0.${rand.int(100, 999)} seconds\\nProcess exited with code ${code}\\nOutput:\\n${c.body.json}"}`);
    }
    rec('response_item', `{"type":"message","role":"assistant","content":[{"type":"output_text","text":${j(t.final)}}]}`);
    rec('event_msg', `{"type":"token_count","info":{"total_token_usage":{"input_tokens":${rand.int(1000, 90000)},"output_tokens":${rand.int(100, 9000)}}}}`);
    rec('event_msg', `{"type":"task_complete","turn_id":"${turn}","last_agent_message":${j(t.final)}}`);
    return out;
  },
};

const gemini = {
  slug: (cwd) => basename(cwd).toLowerCase().replace(/[^a-z0-9]/g, '-').replace(/-+/g, '-').replace(/^-|-$/g, '') || 'project',
  file(home, s) {
    const d = iso(s.started);
    return join(home, '.gemini', 'tmp', gemini.slug(s.cwd), 'chats', `session-${d.slice(0, 10)}T${d.slice(11, 13)}-${d.slice(14, 16)}-${s.id.slice(0, 8)}.jsonl`);
  },
  start(s, rand) {
    const ctx = `<session_context>\nThis is the Gemini CLI. We are setting up the context for our chat.\nMy operating system is: linux\n- **Workspace Directories:**\n  - ${s.cwd}\n- **Directory Structure:**\n\n${s.cwd}/\n</session_context>`;
    return [
      `{"sessionId":"${s.id}","projectHash":"${createHash('sha256').update(s.cwd).digest('hex')}","startTime":"${iso(s.ts)}","lastUpdated":"${iso(s.ts)}","kind":"main"}`,
      `{"$set":{"messages":[{"id":"${rand.hex(32)}","timestamp":"${iso(s.ts)}","type":"user","content":[{"text":${j(ctx)}}]}]}}`,
    ];
  },
  turn(s, t, rand) {
    const out = [];
    const msg = (body) => {
      s.ts += rand.int(100, 3000);
      out.push(`{"id":"${rand.uuid()}","timestamp":"${iso(s.ts)}",${body}}`);
      out.push(`{"$set":{"lastUpdated":"${iso(s.ts)}"}}`);
    };
    const tokens = '"tokens":{"input":3100,"output":240,"cached":0,"thoughts":80,"tool":0,"total":3420},"model":"gemini-2.5-pro"';
    msg(`"type":"user","content":[{"text":${j(t.prompt)}}]`);
    const calls = t.calls.map((c) => {
      const id = `${c.kind}_${rand.hex(12)}`;
      const name = c.kind === 'bash' ? 'run_shell_command' : c.kind === 'read' ? 'read_file' : 'replace';
      const args = c.kind === 'bash' ? { command: c.command, description: 'run it' } : c.kind === 'read' ? { absolute_path: join(s.cwd, c.path) } : { file_path: join(s.cwd, c.path), old_string: c.old, new_string: c.new };
      const output = c.body ? c.body.json : j(EDIT_RESULT(c)).slice(1, -1);
      return { id, name, json: `{"id":"${id}","name":"${name}","args":${j(args)},"result":[{"functionResponse":{"id":"${id}","name":"${name}","response":{"output":"${output}"}}}],"status":"${c.ok ? 'success' : 'error'}","timestamp":"${iso(s.ts)}","displayName":"${name}"}` };
    });
    msg(`"type":"gemini","content":${j(t.intro)},"thoughts":[{"subject":"Plan","description":${j(t.thinking)},"timestamp":"${iso(s.ts)}"}],${tokens},"toolCalls":[${calls.map((c) => c.json).join(',')}]`);
    msg(`"type":"gemini","content":${j(t.final)},"thoughts":[],${tokens}`);
    return out;
  },
};

const pi = {
  file: (home, s) => join(home, '.pi', 'agent', 'sessions', `--${s.cwd.replace(/^[/\\]/, '').replace(/[/\\:]/g, '-')}--`, `${iso(s.started).replace(/[:.]/g, '-')}_${s.id}.jsonl`),
  start(s, rand) {
    const m = rand.hex(8);
    s.last = m;
    return [`{"type":"session","version":3,"id":"${s.id}","timestamp":"${iso(s.ts)}","cwd":${j(s.cwd)}}`, `{"type":"model_change","id":"${m}","parentId":null,"timestamp":"${iso(s.ts)}","provider":"anthropic","modelId":"claude-sonnet-4-5"}`];
  },
  turn(s, t, rand) {
    const out = [];
    const message = (m) => {
      const id = rand.hex(8);
      s.ts += rand.int(100, 3000);
      out.push(`{"type":"message","id":"${id}","parentId":"${s.last}","timestamp":"${iso(s.ts)}","message":{${m},"timestamp":${s.ts}}}`);
      s.last = id;
    };
    const usage = '"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":3000,"output":300,"cacheRead":0,"cacheWrite":0,"totalTokens":3300}';
    message(`"role":"user","content":[{"type":"text","text":${j(t.prompt)}}]`);
    const ids = t.calls.map(() => `toolu_${rand.hex(20)}`);
    const calls = t.calls.map((c, i) => {
      const name = c.kind === 'bash' ? 'bash' : c.kind;
      const args = c.kind === 'bash' ? { command: c.command } : c.kind === 'read' ? { path: c.path } : { path: c.path, oldText: c.old, newText: c.new };
      return `{"type":"toolCall","id":"${ids[i]}","name":"${name}","arguments":${j(args)}}`;
    });
    message(`"role":"assistant","content":[{"type":"thinking","thinking":${j(t.thinking)}},{"type":"text","text":${j(t.intro)}},${calls.join(',')}],${usage},"stopReason":"toolUse"`);
    t.calls.forEach((c, i) => {
      const text = c.body ? c.body.json : j(`Successfully replaced text in ${c.path}.`).slice(1, -1);
      message(`"role":"toolResult","toolCallId":"${ids[i]}","toolName":"${c.kind === 'bash' ? 'bash' : c.kind}","content":[{"type":"text","text":"${text}"}],"isError":${!c.ok}`);
    });
    message(`"role":"assistant","content":[{"type":"text","text":${j(t.final)}}],${usage},"stopReason":"stop"`);
    return out;
  },
};

const qwen = {
  file: (home, s) => join(home, '.qwen', 'projects', s.cwd.replace(/[^A-Za-z0-9]/g, '-'), 'chats', `${s.id}.jsonl`),
  start: () => [],
  turn(s, t, rand) {
    const out = [];
    const rec = (body) => {
      const uuid = rand.uuid();
      s.ts += rand.int(100, 3000);
      out.push(`{"uuid":"${uuid}","parentUuid":${s.last ? `"${s.last}"` : 'null'},"sessionId":"${s.id}","timestamp":"${iso(s.ts)}",${body.replace('@CWD@', `"cwd":${j(s.cwd)},"version":"0.24.4"`)}}`);
      s.last = uuid;
    };
    rec(`"type":"user","provenance":"real_user",@CWD@,"message":{"role":"user","parts":[{"text":${j(t.prompt)}}]}`);
    const calls = t.calls.map((c) => ({ c, id: `call_${rand.hex(24)}`, name: c.kind === 'bash' ? 'run_shell_command' : c.kind === 'read' ? 'read_file' : 'edit' }));
    const parts = calls.map(({ c, id, name }) => `{"functionCall":{"id":"${id}","name":"${name}","args":${j(c.kind === 'bash' ? { command: c.command } : c.kind === 'read' ? { absolute_path: join(s.cwd, c.path) } : { file_path: join(s.cwd, c.path), old_string: c.old, new_string: c.new })}}}`);
    rec(`"type":"assistant","provenance":"assistant_output",@CWD@,"model":"qwen3-coder-plus","message":{"role":"model","parts":[{"text":${j(t.thinking)},"thought":true},{"text":${j(t.intro)}},${parts.join(',')}]},"usageMetadata":{"promptTokenCount":3000,"candidatesTokenCount":300,"totalTokenCount":3300}`);
    for (const { c, id, name } of calls) {
      rec(`"type":"system","provenance":"system",@CWD@,"subtype":"ui_telemetry","systemPayload":{"uiEvent":{"event.name":"qwen-code.tool_call","call_id":"${id}","function_name":"${name}","duration_ms":${rand.int(5, 5000)},"status":"success"}}`);
      const output = c.body ? c.body.json : j(EDIT_RESULT(c)).slice(1, -1);
      rec(`"type":"tool_result","provenance":"tool_result",@CWD@,"message":{"role":"user","parts":[{"functionResponse":{"id":"${id}","name":"${name}","response":{"output":"${output}"}}}]},"toolCallResult":{"callId":"${id}","status":"${c.ok ? 'success' : 'error'}","resultDisplay":"${output}"}`);
    }
    rec(`"type":"assistant","provenance":"assistant_output",@CWD@,"model":"qwen3-coder-plus","message":{"role":"model","parts":[{"text":${j(t.final)}}]},"usageMetadata":{"promptTokenCount":3000,"candidatesTokenCount":300,"totalTokenCount":3300}`);
    return out;
  },
};

export const FORMATS = { claude, codex, gemini, pi, qwen };

// ------------------------------------------------------------------ the home
/**
 * Writes `sessions` sessions (about `bytes` in all) in `folders` folders under `home`. Returns the
 * sessions (agent, id, file, cwd, bytes) and a grow(i) that appends one more turn to session i, plus the
 * planted words: `unique` (one word found only in a late prompt of one session) and `common` (a word many
 * sessions hold).
 */
export function generateHome(home, { sessions: count, bytes, folders: folderCount, seed = 25, now = Date.now(), onProgress } = {}) {
  const rand = createRandom(seed);
  const vocab = createVocabulary(rand);
  const bodies = makeBodies(rand, vocab);
  const folders = makeFolders(rand, vocab, folderCount, home);
  const sessions = [];
  const unique = 'quokkafrost';
  const uniqueAt = Math.floor(count / 3);
  const geminiProjects = {};
  const agentCounts = Object.fromEntries(AGENTS.map((a) => [a, 0]));
  let total = 0;
  for (let i = 0; i < count; i++) {
    let r = rand.next();
    const agent = AGENTS.find((a) => (r -= AGENT_SHARE[a]) < 0) ?? 'claude';
    agentCounts[agent]++;
    const folder = folders[Math.floor(Math.abs(rand.normal()) * folders.length / 2.5) % folders.length];
    const started = now - rand.int(0, 120) * DAY_MS - rand.int(0, DAY_MS);
    const s = { i, agent, id: rand.uuid(), cwd: folder.cwd, branch: folder.branch, started, ts: started, last: undefined, file: '', bytes: 0, turns: 0 };
    const fmt = FORMATS[agent];
    s.file = fmt.file(home, s);
    mkdirSync(dirname(s.file), { recursive: true });
    if (agent === 'gemini' && !geminiProjects[folder.cwd]) {
      geminiProjects[folder.cwd] = gemini.slug(folder.cwd);
      writeFileSync(join(dirname(dirname(s.file)), '.project_root'), folder.cwd);
    }
    // Sizes spread like real homes: most sessions small, a few very big (log-normal, mean = avg).
    // The mean follows what is left to write, so the home ends near `bytes` whatever the draw.
    const left = Math.max(3000, (bytes - total) / (count - i));
    const target = Math.min(80 * left, Math.max(3000, left * Math.exp(rand.normal() * 1.1 - 0.6)));
    const fd = openSync(s.file, 'w', 0o600);
    let buf = fmt.start(s, rand);
    let pending = buf.reduce((n, l) => n + l.length + 1, 0);
    const flush = () => {
      if (!buf.length) return;
      const text = buf.join('\n') + '\n';
      writeSync(fd, text);
      s.bytes += Buffer.byteLength(text);
      buf = [];
      pending = 0;
    };
    // The unique word lands in the third prompt of its session (a later prompt, not the first).
    const minTurns = i === uniqueAt ? 3 : 1;
    for (let turn = 0; s.bytes + pending < target || turn < minTurns; turn++) {
      const planted = i === uniqueAt && turn === 2 ? unique : undefined;
      const lines = fmt.turn(s, makeTurn(rand, vocab, bodies, folder, planted), rand);
      for (const l of lines) pending += l.length + 1;
      buf.push(...lines);
      s.turns++;
      if (pending > 4 << 20) flush();
    }
    flush();
    closeSync(fd);
    utimesSync(s.file, new Date(s.ts), new Date(s.ts));
    total += s.bytes;
    sessions.push(s);
    onProgress?.(i + 1, total);
  }
  if (Object.keys(geminiProjects).length) {
    mkdirSync(join(home, '.gemini'), { recursive: true });
    writeFileSync(join(home, '.gemini', 'projects.json'), JSON.stringify({ projects: geminiProjects }, null, 2));
  }
  const common = vocab.words[60];
  const grow = (i) => {
    const s = sessions[i];
    const folder = folders.find((f) => f.cwd === s.cwd);
    const text = FORMATS[s.agent].turn(s, makeTurn(rand, vocab, bodies, folder), rand).join('\n') + '\n';
    const fd = openSync(s.file, 'a');
    writeSync(fd, text);
    closeSync(fd);
    s.bytes += Buffer.byteLength(text);
    s.turns++;
  };
  return { sessions, total, agentCounts, folders: folders.length, unique, uniqueSession: sessions[uniqueAt], common, grow };
}
