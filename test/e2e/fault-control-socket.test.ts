// #19 points 1 and 7: hostile control-socket input against a real wrapper (real pty, real socket, the
// fake agent as the child): deep nesting, huge lines, garbage, more connections than the cap, and a
// flood of requests. The wrapper and the agent must survive every one: the agent still answers, its
// output still arrives, the socket still serves, the wrapper's memory stays bounded, exit code 0.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createConnection, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_REQUEST_BYTES, requestControl } from '../../src/display/control-socket.js';
import { runCliInPty, type CliPty } from '../helpers/cli-pty.js';
import { pollUntil } from '../helpers/poll.js';
import { REPO_DIR } from '../helpers/shared.js';

const FAKE_AGENT = join(REPO_DIR, 'test', 'fixtures', 'bin', 'fake-agent.mjs');
const FLOOD_REQUESTS = 1_000_000;
/** The wrapper's peak RSS may not pass this during the flood (it reached 1.4 GB before the fix). */
const MAX_PEAK_RSS_MB = 200;

function rssMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

function connect(path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = createConnection(path);
    s.once('connect', () => resolve(s));
    s.once('error', reject);
  });
}

// Send raw bytes on a fresh connection; resolve with the reply lines once the server closes it or `n` came.
function exchange(path: string, data: string, n: number, timeoutMs = 10_000): Promise<string[]> {
  return new Promise((resolve) => {
    const s = createConnection(path);
    let buf = '';
    const done = () => {
      clearTimeout(timer);
      s.destroy();
      resolve(buf.split('\n').filter(Boolean));
    };
    const timer = setTimeout(done, timeoutMs);
    s.setEncoding('utf8');
    s.on('connect', () => s.write(data));
    s.on('data', (d: string) => {
      buf += d;
      if (buf.split('\n').filter(Boolean).length >= n) done();
    });
    s.on('close', done);
    s.on('error', done);
  });
}

let dir: string;
let wrapper: CliPty;
let socketPath: string;

// Ask the agent to do something and wait for its answer on the outer terminal: the agent is alive and its output flows.
async function agentAnswers(text: string): Promise<void> {
  const from = wrapper.output().length;
  wrapper.write(`say ${text}\r`);
  await wrapper.waitFor('OK say', { from, timeoutMs: 20_000, description: `the agent to answer "${text}" through the wrapper` });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rw-fault-sock-'));
  const cwd = join(dir, 'work');
  mkdirSync(cwd);
  const stateDir = join(dir, 'state');
  wrapper = runCliInPty(['--agent', 'pi', '--display', 'none', '--', FAKE_AGENT], {
    cwd,
    env: { RECAPWRAP_STATE_DIR: stateDir, PI_CODING_AGENT_DIR: join(dir, 'pi'), TMUX: undefined, TMUX_PANE: undefined, HOME: dir },
  });
  socketPath = join(stateDir, 'sockets', `${wrapper.pid}.sock`);
  await pollUntil(() => existsSync(socketPath) && existsSync(join(stateDir, `live-${wrapper.pid}.json`)), { timeoutMs: 20_000, description: 'the wrapper socket and state file' });
  await agentAnswers('hello');
});

afterAll(async () => {
  try {
    wrapper.kill('SIGKILL');
  } catch {
    // Already gone.
  }
  await wrapper.exit;
  rmSync(dir, { recursive: true, force: true });
});

describe('control socket faults under a live wrapper', () => {
  it('an id nested past the line limit, a 1,900-deep id and cmd, a huge line and garbage: error replies, nothing crashes', async () => {
    const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
    const tooBig = await exchange(socketPath, `{"id":${deep(MAX_REQUEST_BYTES / 2 + 1)},"cmd":"status"}\n`, 1);
    expect(JSON.parse(tooBig[0]!)).toMatchObject({ ok: false, error: expect.stringContaining('over') });
    const within = await exchange(socketPath, `{"id":${deep(1900)},"cmd":"status"}\n{"id":1,"cmd":${deep(1900)}}\nnot json\n[]\n{"id":9,"cmd":"status"}\n`, 5);
    const replies = within.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(replies.map((r) => r.ok)).toEqual([false, false, false, false, true]);
    expect(replies[4]).toMatchObject({ id: 9, state: { pid: wrapper.pid } });
    const huge = await exchange(socketPath, 'x'.repeat(10 * 1024 * 1024), 1);
    expect(JSON.parse(huge[0]!)).toMatchObject({ ok: false });
    await agentAnswers('after-deep');
    expect(await requestControl(socketPath, 'status')).toMatchObject({ ok: true });
  }, 60_000);

  it('200 connections at once: the extra ones are closed, the wrapper serves again after', async () => {
    const sockets = await Promise.all(Array.from({ length: 200 }, () => connect(socketPath).catch(() => undefined)));
    await agentAnswers('during-connections');
    for (const s of sockets) s?.destroy();
    await pollUntil(async () => (await requestControl(socketPath, 'status', 2000)).ok === true, { timeoutMs: 10_000, description: 'status after the connection burst' });
  }, 60_000);

  it(`a flood of ${FLOOD_REQUESTS.toLocaleString('en')} requests: bounded memory, the agent keeps answering`, async () => {
    const before = rssMb(wrapper.pid, 'VmRSS');
    const line = '{"id":1,"cmd":"status"}\n';
    const chunk = line.repeat(10_000);
    // One client that reads its replies and one that never does: both are flooding.
    const reader = await connect(socketPath);
    const deaf = await connect(socketPath);
    deaf.pause();
    let replies = 0;
    reader.setEncoding('utf8');
    reader.on('data', (d: string) => {
      for (let i = d.indexOf('\n'); i >= 0; i = d.indexOf('\n', i + 1)) replies++;
    });
    let sent = 0;
    const pump = async (s: Socket, total: number) => {
      while (sent < FLOOD_REQUESTS && total-- > 0 && !s.destroyed) {
        sent += 10_000;
        if (!s.write(chunk)) await new Promise((r) => s.once('drain', r));
      }
    };
    deaf.write(chunk.repeat(10)); // 100,000 requests it will never read answers to
    const flooding = pump(reader, FLOOD_REQUESTS / 10_000);
    // While it floods, the agent still answers.
    for (let i = 0; i < 3; i++) await agentAnswers(`during-flood-${i}`);
    await Promise.race([flooding, new Promise((r) => setTimeout(r, 60_000))]);
    await pollUntil(() => replies >= sent * 0.99, { timeoutMs: 60_000, description: 'the flood answered' }).catch(() => undefined);
    const peak = rssMb(wrapper.pid, 'VmHWM');
    console.log(`control-socket flood: ${sent.toLocaleString('en')} requests sent, ${replies.toLocaleString('en')} answered; wrapper RSS ${before.toFixed(0)} MB before, peak ${peak.toFixed(0)} MB`);
    reader.destroy();
    deaf.destroy();
    expect(peak).toBeLessThan(MAX_PEAK_RSS_MB);
    expect(replies).toBeGreaterThan(0);
    await agentAnswers('after-flood');
    expect(await requestControl(socketPath, 'status')).toMatchObject({ ok: true, state: { pid: wrapper.pid } });
  }, 180_000);

  it('the agent ends normally afterwards: its output arrived and the exit code is its own', async () => {
    wrapper.write('quit 0\r');
    expect(await wrapper.exit).toEqual({ exitCode: 0 });
    expect(wrapper.output()).toContain('BYE');
  }, 30_000);
});
