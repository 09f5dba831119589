// recapwrap in a pane of a private tmux server with an attached client: switching panes away and back
// reaches the wrapper as focus-out then focus-in (seen in its debug log), the pane shows no stray
// characters, and the focus-events warning / --tmux-focus behave as documented.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, CLI_BIN, RECORD_INPUT_FIXTURE } from '../helpers/cli-pty.js';
import { pollUntil } from '../helpers/poll.js';
import { TmuxServer, tmuxAvailable } from '../helpers/tmux.js';

const hasTmux = tmuxAvailable();
let dir: string;
const servers: TmuxServer[] = [];

beforeAll(() => {
  assertBuilt();
  dir = mkdtempSync(join(tmpdir(), 'rw-tmux-'));
});
afterAll(() => {
  for (const server of servers) server.kill();
  rmSync(dir, { recursive: true, force: true });
});

function newServer(): TmuxServer {
  const server = TmuxServer.create('rw-focus');
  servers.push(server);
  return server;
}

// Focus events the wrapper logged, in order.
function loggedFocus(logFile: string): string[] {
  let text = '';
  try {
    text = readFileSync(logFile, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { msg: string }).msg)
    .filter((msg) => msg === 'focus in' || msg === 'focus out');
}

describe.skipIf(!hasTmux)('recapwrap inside tmux', () => {
  for (const childAsks of [false, true]) {
    it(`sees focus-out then focus-in on select-pane away and back (child ${childAsks ? 'asks for' : 'does not ask for'} focus reports)`, async () => {
      const server = newServer();
      const log = join(dir, `debug-${childAsks}.log`);
      const recorded = join(dir, `input-${childAsks}.bin`);
      const wrapped = server.newSession({
        name: 'main',
        command: [process.execPath, CLI_BIN, process.execPath, RECORD_INPUT_FIXTURE, '--record', recorded, ...(childAsks ? ['--focus'] : [])],
        env: { RECAPWRAP_DEBUG_LOG: log },
      });
      server.run(['set', '-g', 'focus-events', 'on']);
      server.splitWindow(wrapped, ['cat']);
      const client = server.attach('main');
      await pollUntil(() => server.capturePane(wrapped).includes('READY'), { description: 'the fixture to start in the pane' });
      await pollUntil(() => loggedFocus(log).at(-1) === 'focus in', { description: 'an initial focus-in once the client is attached' });
      const before = loggedFocus(log).length;

      server.run(['select-pane', '-t', `${wrapped}`, '-D']); // the cat pane below
      await pollUntil(() => loggedFocus(log).slice(before).join(',') === 'focus out', { description: 'focus out after select-pane away' });
      server.run(['select-pane', '-t', wrapped]);
      await pollUntil(() => loggedFocus(log).slice(before).join(',') === 'focus out,focus in', { description: 'focus in after select-pane back' });

      const pane = server.capturePane(wrapped);
      expect(pane).not.toMatch(/\^\[|\[I|\[O/);
      if (childAsks) {
        await pollUntil(() => server.capturePane(wrapped).includes('GOT-FOCUS-IN'), { description: 'the child to get the forwarded report' });
        expect(server.capturePane(wrapped)).toContain('GOT-FOCUS-OUT');
      } else {
        expect(pane).not.toContain('GOT-FOCUS');
        let input = '';
        try {
          input = readFileSync(recorded, 'latin1');
        } catch {}
        expect(input).toBe('');
      }
      // The child quits; the pane's shell-less command ends and nothing stray was typed into cat either.
      client.kill();
      server.kill();
    });
  }

  it('warns once before the agent starts when focus-events is off, with the one-line fix', async () => {
    const server = newServer();
    const pane = server.newSession({ name: 'w', command: ['sh', '-c', `${process.execPath} ${CLI_BIN} --agent pi -- sh -c 'echo CHILD-STARTED; exec cat'`] });
    await pollUntil(() => server.capturePane(pane).includes('CHILD-STARTED'), { description: 'the child to start' });
    const lines = server.capturePane(pane).split('\n');
    const warnings = lines.filter((l) => l.includes('focus-events is off'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('tmux set -g focus-events on');
    expect(lines.findIndex((l) => l.includes('focus-events is off'))).toBeLessThan(lines.findIndex((l) => l.includes('CHILD-STARTED')));
    expect(server.showGlobalOption('focus-events')).toBe('off'); // never changed without being asked
  });

  it('--tmux-focus turns focus-events on, and then does not warn', async () => {
    const server = newServer();
    const pane = server.newSession({ name: 't', command: ['sh', '-c', `${process.execPath} ${CLI_BIN} --tmux-focus --agent pi -- sh -c 'echo CHILD-STARTED; exec cat'`] });
    await pollUntil(() => server.capturePane(pane).includes('CHILD-STARTED'), { description: 'the child to start' });
    expect(server.showGlobalOption('focus-events')).toBe('on');
    expect(server.capturePane(pane)).not.toContain('focus-events is off');
  });

  // #28 point 7: a command that is not an agent gets no recap, so nothing about focus-events either.
  it('says nothing about focus-events for a command that is not an agent', async () => {
    const server = newServer();
    const pane = server.newSession({ name: 'c', command: ['sh', '-c', `${process.execPath} ${CLI_BIN} sh -c 'echo CHILD-STARTED; exec cat'`] });
    await pollUntil(() => server.capturePane(pane).includes('CHILD-STARTED'), { description: 'the child to start' });
    expect(server.capturePane(pane)).not.toContain('focus-events');
    expect(server.showGlobalOption('focus-events')).toBe('off');
  });
});
