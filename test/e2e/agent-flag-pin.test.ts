// `recapwrap --agent pi -- node script.js` (#18 point 6): pi's pin flag (`--session <file>`) belongs to pi's
// own executable. Given to node it broke the command (`node: bad option: --session`); now the command
// gets exactly its own arguments, recapwrap says so in its debug log, and the agent still runs wrapped.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCliInPty } from '../helpers/cli-pty.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('--agent with a command that is not the agent', () => {
  it('does not pass the pin flag to node, and logs why', async () => {
    dir = mkdtempSync(join(tmpdir(), 'rw-pin-'));
    const script = join(dir, 'script.js');
    writeFileSync(script, `require('node:fs').writeFileSync(${JSON.stringify(join(dir, 'argv.json'))}, JSON.stringify(process.argv.slice(2)));\n`);
    const log = join(dir, 'debug.log');
    const env = { TMUX: undefined, TMUX_PANE: undefined, HOME: dir, PI_CODING_AGENT_DIR: join(dir, 'pi'), RECAPWRAP_STATE_DIR: join(dir, 'state'), RECAPWRAP_DEBUG_LOG: log };
    const run = runCliInPty(['--agent', 'pi', '--', process.execPath, script, 'one', '--two'], { env, cwd: dir });
    const { exitCode } = await run.exit;
    expect(run.output()).not.toContain('bad option');
    expect(exitCode).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'argv.json'), 'utf8'))).toEqual(['one', '--two']);
    expect(readFileSync(log, 'utf8')).toContain('"msg":"no session pin: the command is not the agent itself"');
  });
});
