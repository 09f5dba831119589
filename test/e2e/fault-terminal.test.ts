// Terminal faults through the built CLI on a real outer pty (#19): focus reports cut in two between
// reads (as over ssh) never reach a child that did not ask for them, while a lone Esc still gets through;
// with TERM=dumb or no TERM, recapwrap writes no sequence of its own and says so in the debug log.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_BIN, RECORD_INPUT_FIXTURE, runCliInPty, spawnInPty, type CliPty } from '../helpers/cli-pty.js';
import { pollUntil } from '../helpers/poll.js';
import { REPO_DIR } from '../helpers/shared.js';

const DEMO_AGENT = join(REPO_DIR, 'bin', 'demo-agent.js');

let dir: string;
let n = 0;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rw-fault-term-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Not a wait for the code under test: the gap between two writes is the input these tests are about
// (a report cut across separate reads of the terminal), so it has to be real time.
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function reader(file: string): () => string {
  return () => {
    try {
      return readFileSync(file).toString('latin1');
    } catch {
      return '';
    }
  };
}

describe('focus reports cut between reads', () => {
  for (const gapMs of [2, 10, 25]) {
    it(`strips ESC | [I and ESC [ | I arriving ${gapMs} ms apart from a child that did not ask for them`, async () => {
      const file = join(dir, `split-${n++}.bin`);
      const t = runCliInPty([process.execPath, RECORD_INPUT_FIXTURE, '--record', file], { env: { TMUX: undefined, TMUX_PANE: undefined } });
      await t.waitFor('READY');
      const recorded = reader(file);
      t.write('a\x1b');
      await sleep(gapMs);
      t.write('[Ib');
      await pollUntil(() => recorded().endsWith('b'), { description: 'the keys after the first report' });
      t.write('c\x1b[');
      await sleep(gapMs);
      t.write('Od');
      await pollUntil(() => recorded().endsWith('d'), { description: 'the keys after the second report' });
      expect(recorded()).toBe('abcd');
      expect(t.output()).not.toContain('GOT-FOCUS');
      t.write('q');
      expect(await t.exit).toEqual({ exitCode: 0 });
    });
  }

  it('still lets a lone Esc through after the hold, and Esc then a key', async () => {
    const file = join(dir, `esc-${n++}.bin`);
    const t = runCliInPty([process.execPath, RECORD_INPUT_FIXTURE, '--record', file], { env: { TMUX: undefined, TMUX_PANE: undefined } });
    await t.waitFor('READY');
    const recorded = reader(file);
    t.write('\x1b');
    await pollUntil(() => recorded() === '\x1b', { timeoutMs: 3000, description: 'the lone ESC after the hold' });
    t.write('x\x1b');
    await sleep(5);
    t.write('j');
    await pollUntil(() => recorded() === '\x1bx\x1bj', { description: 'Esc then j' });
    t.write('q');
    expect(await t.exit).toEqual({ exitCode: 0 });
  });
});

describe('a terminal without escape sequences (TERM=dumb, or no TERM)', () => {
  async function runDumb(how: 'dumb' | 'unset'): Promise<{ t: CliPty; log: string }> {
    const home = join(dir, `dumb-${n++}`);
    const bin = join(home, 'bin');
    mkdirSync(bin, { recursive: true });
    symlinkSync(DEMO_AGENT, join(bin, 'pi')); // a known agent: the overlay bar would be used otherwise
    const log = join(home, 'debug.log');
    const env = {
      PATH: `${bin}:${process.env.PATH}`,
      TMUX: undefined,
      TMUX_PANE: undefined,
      PI_CODING_AGENT_DIR: join(home, 'pi-agent'),
      RECAPWRAP_STATE_DIR: join(home, 'state'),
      RECAPWRAP_DEBUG_LOG: log,
      RECAPWRAP_DISPLAY: 'overlay',
    };
    // node-pty always sets TERM for what it starts; `env -u TERM` takes it away again.
    const t =
      how === 'dumb'
        ? runCliInPty(['pi'], { cwd: home, env: { ...env, TERM: 'dumb' } })
        : spawnInPty('env', ['-u', 'TERM', process.execPath, CLI_BIN, 'pi'], { cwd: home, env });
    return { t, log };
  }

  for (const how of ['dumb', 'unset'] as const) {
    it(`TERM ${how}: no focus reporting, no cursor query, no overlay; the debug log says why`, async () => {
      const { t, log } = await runDumb(how);
      await t.waitFor('demo agent');
      await pollUntil(() => readFileSync(log, 'utf8').includes('terminal features off'), { description: 'the debug log line' });
      // Focus reports typed anyway are still not the child's.
      t.write('\x1b[I\x1b[O');
      t.kill('SIGTERM');
      await t.exit;
      const out = t.output();
      expect(out).not.toContain('\x1b[?1004h');
      expect(out).not.toContain('\x1b[?1004l');
      expect(out).not.toContain('\x1b[6n');
      expect(out).not.toContain('\x1b7'); // the overlay's cursor save
      const line = readFileSync(log, 'utf8').split('\n').find((l) => l.includes('terminal features off')) ?? '';
      expect(JSON.parse(line)).toMatchObject({ term: how === 'dumb' ? 'dumb' : null });
      // And the user is told once, before the agent's screen, that no recap can show here (#28 point 7).
      expect(out.split('TERM is dumb or unset: no recap can show in this terminal')).toHaveLength(2);
      expect(out.indexOf('no recap can show')).toBeLessThan(out.indexOf('demo agent'));
    });
  }
});
