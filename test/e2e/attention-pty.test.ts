// Attention outside tmux, under a real outer pty (#21): the terminal reports focus-out, the agent asks a
// question, and the wrapper rings the bell (at a boundary of the agent's output) and starts the user's
// notify command, which hangs and is killed after 10 s. Measured: the agent's echo time before and
// while that command hangs (it must not be held up).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { unfinishedTailStart } from '../../src/display/stream-boundary.js';
import { runCliInPty } from '../helpers/cli-pty.js';
import { pollUntil } from '../helpers/poll.js';
import { REPO_DIR } from '../helpers/shared.js';

const FAKE_AGENT = join(REPO_DIR, 'test', 'fixtures', 'bin', 'fake-agent.mjs');
const dir = mkdtempSync(join(tmpdir(), 'rw-attn-pty-'));
afterAll(() => rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

describe('attention outside tmux', () => {
  it('rings at a stream boundary when away, runs the command without holding up the agent, kills it after 10 s', async () => {
    const started = join(dir, 'started.txt');
    const debugLogFile = join(dir, 'debug.log');
    const cli = runCliInPty(['--agent', 'pi', '--display', 'none', '--generator', 'heuristic', '--', FAKE_AGENT], {
      cwd: dir,
      env: {
        TMUX: '',
        TMUX_PANE: '',
        PI_CODING_AGENT_DIR: join(dir, 'pi-agent'),
        RECAPWRAP_STATE_DIR: join(dir, 'state'),
        RECAPWRAP_DEBUG_LOG: debugLogFile,
        RECAPWRAP_NOTIFY: `bell,command:echo "$RECAPWRAP_EVENT" > '${started}'; sleep 60`,
      },
    });
    const debugLog = () => (existsSync(debugLogFile) ? readFileSync(debugLogFile, 'utf8') : '');
    try {
      await cli.waitFor('[fake-agent pi]', { timeoutMs: 20_000 });
      const echoTimes = async (n: number): Promise<number[]> => {
        const out: number[] = [];
        for (let i = 0; i < n; i++) {
          const mark = cli.output().length;
          const t0 = performance.now();
          cli.write(`say ping ${i}\r`);
          await cli.waitFor('OK say', { from: mark, intervalMs: 2, timeoutMs: 20_000 });
          out.push(performance.now() - t0);
        }
        return out;
      };
      const before = await echoTimes(8);

      cli.write('\x1b[O'); // the terminal says: focus went elsewhere
      await pollUntil(() => debugLog().includes('focus out'), { description: 'the wrapper to see focus-out' });
      const mark = cli.output().length;
      cli.write('prompt rename it\r');
      cli.write('done Which name do you prefer?\r');
      await pollUntil(() => cli.output().indexOf('\x07', mark) >= 0, { timeoutMs: 20_000, description: 'the bell' });
      const bell = cli.output().indexOf('\x07', mark);
      // Everything the agent wrote before the bell is complete: no sequence or character was cut.
      expect(unfinishedTailStart(Buffer.from(cli.output().slice(0, bell), 'latin1'))).toBe(-1);
      await pollUntil(() => existsSync(started) && readFileSync(started, 'utf8'), { description: 'the notify command to start' });
      expect(readFileSync(started, 'utf8')).toBe('waiting\n');

      const during = await echoTimes(8);
      console.log(`attention-pty: agent echo median ${median(before).toFixed(1)} ms before, ${median(during).toFixed(1)} ms while the notify command hangs (max ${Math.max(...during).toFixed(1)} ms)`);
      expect(median(during)).toBeLessThan(median(before) * 3 + 100);
      expect(debugLog()).not.toContain('"type":"killed"'); // still hanging while we measured

      await pollUntil(() => debugLog().includes('"type":"killed"'), { timeoutMs: 30_000, description: 'the hanging command to be killed after 10 s' });
      expect(cli.output().split('\x07').length - 1).toBe(1); // one notification for one transition
      cli.write('quit\r');
      expect((await cli.exit).exitCode).toBe(0);
    } finally {
      try {
        cli.kill('SIGKILL');
      } catch {}
    }
  });
});
