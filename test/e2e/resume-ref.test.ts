// `recapwrap resume REF [--next|--fork]` end to end in a private tmux server: the index (real SQLite, built from
// a real pi session file in a throwaway home) resolves REF from another folder; recapwrap relaunches the
// session's agent (a fake `pi` on PATH that records its argv, its folder and every byte of its input) in
// the session's folder with pi's own resume flag, and with --next types the recap's next step once the
// agent has drawn: one bracketed paste, no CR. A session whose transcript is gone starts a fresh pi with
// its reference block as the draft.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isProcessAlive } from '../../src/util/process.js';
import { encodePiCwd } from '../../src/transcripts/pi/paths.js';
import { CLI_BIN } from '../helpers/cli-pty.js';
import { pollUntil } from '../helpers/poll.js';
import { REPO_DIR } from '../helpers/shared.js';
import { shellQuote, tmuxAvailable } from '../helpers/tmux.js';
import { tmuxE2e } from '../helpers/tmux-e2e.js';

const hasTmux = tmuxAvailable();
const AGENT = join(REPO_DIR, 'test', 'fixtures', 'bin', 'fullscreen-agent.mjs');

describe.skipIf(!hasTmux)('resume REF', () => {
  const wrappers: number[] = [];
  const setup = tmuxE2e('rw-resume-ref', {
    afterKill: () => pollUntil(() => wrappers.every((pid) => !isProcessAlive(pid)), { timeoutMs: 10_000, description: 'the wrappers to exit' }).catch(() => undefined),
  });
  let n = 0;

  // A home with one pi session of `project`, and a fake pi on PATH.
  function world(id: string) {
    const base = join(setup.dir, `w${++n}`);
    const home = join(base, 'home');
    const project = join(base, 'billing');
    const elsewhere = join(base, 'elsewhere');
    const bin = join(base, 'bin');
    for (const d of [home, project, elsewhere, bin]) mkdirSync(d, { recursive: true });
    const sessions = join(home, '.pi', 'agent', 'sessions', encodePiCwd(project));
    mkdirSync(sessions, { recursive: true });
    const t = (s: number) => new Date(Date.UTC(2026, 10, 22, 8, 0, s)).toISOString();
    const lines = [
      { type: 'session', version: 3, id, timestamp: t(0), cwd: project },
      { type: 'message', id: 'a1', parentId: null, timestamp: t(1), message: { role: 'user', content: [{ type: 'text', text: 'fix the invoices foreign key' }], timestamp: 1 } },
      { type: 'message', id: 'a2', parentId: 'a1', timestamp: t(2), message: { role: 'assistant', content: [{ type: 'text', text: 'I changed the constraint in src/invoices.ts. Shall I run npm test again?' }], provider: 'x', model: 'y', stopReason: 'stop', timestamp: 2 } },
    ];
    const transcript = join(sessions, `${t(0).replace(/[:.]/g, '-')}_${id}.jsonl`);
    writeFileSync(transcript, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const argvFile = join(base, 'argv.txt');
    const record = join(base, 'input.bin');
    writeFileSync(join(bin, 'pi'), `#!/bin/sh\n{ pwd; printf '%s\\n' "$@"; } > ${shellQuote(argvFile)}\nexec ${shellQuote(process.execPath)} ${shellQuote(AGENT)} --record ${shellQuote(record)}\n`);
    chmodSync(join(bin, 'pi'), 0o755);
    const env = { HOME: home, RECAPWRAP_STATE_DIR: join(base, 'state'), RECAPWRAP_DEBUG_LOG: join(base, 'debug.log') };
    return { base, bin, project, elsewhere, transcript, argvFile, record, env };
  }

  async function resume(w: ReturnType<typeof world>, args: string[]) {
    const { server } = setup;
    // tmux's -e does not reach PATH of a pane's command (the server's own wins): set it in the command.
    const command = ['sh', '-c', `export PATH=${shellQuote(w.bin)}:"$PATH" && cd ${shellQuote(w.elsewhere)} && exec ${[process.execPath, CLI_BIN, 'resume', ...args].map(shellQuote).join(' ')}`];
    const pane = server.newSession({ name: `r${n}`, cols: 100, rows: 30, command, env: w.env });
    wrappers.push(Number(server.run(['display-message', '-p', '-t', pane, '#{pane_pid}']).trim()));
    await pollUntil(() => server.capturePane(pane).includes('status: READY'), { timeoutMs: 20_000, description: 'the agent to draw' });
    return pane;
  }

  const received = (w: ReturnType<typeof world>) => (existsSync(w.record) ? readFileSync(w.record, 'latin1') : '');

  it('REF (an id prefix, from another folder) --next: pi resumes the session in its folder, the next step typed, not sent', async () => {
    const w = world('4b7d0c1e-1111-4222-8333-444455556666');
    await resume(w, ['4b7d0c', '--next']);
    const [cwd, ...argv] = readFileSync(w.argvFile, 'utf8').trim().split('\n');
    expect(cwd).toBe(w.project);
    expect(argv).toEqual(['--session', w.transcript]);
    await pollUntil(() => received(w).endsWith('\x1b[201~'), { timeoutMs: 20_000, description: 'the draft' });
    const got = received(w);
    expect(got).toMatch(/^\x1b\[200~[^\x1b\r]*npm test[^\x1b\r]*\x1b\[201~$/);
  });

  it('a session whose transcript is gone: a fresh pi with the reference block as the draft', async () => {
    const w = world('6c9e0d2f-1111-4222-8333-444455556666');
    execFileSync(process.execPath, [CLI_BIN, 'index'], { env: { ...process.env, ...w.env }, stdio: 'ignore' }); // indexed while the file is there
    rmSync(w.transcript);
    await resume(w, ['6c9e0d']);
    const [cwd, ...argv] = readFileSync(w.argvFile, 'utf8').trim().split('\n');
    expect(cwd).toBe(w.project);
    // A new session: recapwrap pins pi's new file as for any `recapwrap pi`, never the one that is gone.
    expect(argv).toHaveLength(2);
    expect(argv[0]).toBe('--session');
    expect(argv[1]).not.toBe(w.transcript);
    expect(existsSync(argv[1] as string)).toBe(false); // pi (here a fake) would create it
    await pollUntil(() => received(w).endsWith('\x1b[201~'), { timeoutMs: 20_000, description: 'the draft' });
    const got = received(w);
    expect(got.startsWith('\x1b[200~Earlier session @@')).toBe(true);
    expect(got).toContain(`folder: ${w.project}\n`);
    expect(got).toContain(`transcript: ${w.transcript} (gone)`);
    expect(got).not.toContain('\r');
    expect(got.split('\x1b[200~')).toHaveLength(2);
  });

  it('REF --fork: pi resumes a new session branched from it, with its own --fork', async () => {
    const w = world('7d1f0e3a-1111-4222-8333-444455556666');
    await resume(w, ['7d1f0e', '--fork']);
    const [cwd, ...argv] = readFileSync(w.argvFile, 'utf8').trim().split('\n');
    expect(cwd).toBe(w.project);
    expect(argv).toEqual(['--fork', w.transcript]);
  });

  // #43.3: REF resolves first with --json too (it was taken for search words: `[]`), and a failure is JSON.
  it('REF --json and --fork --json say the session and the command without running it; an error is {"error", "code"}', () => {
    const w = world('8e2a0f4b-1111-4222-8333-444455556666');
    const cli = (...args: string[]) => {
      try {
        return { out: execFileSync(process.execPath, [CLI_BIN, 'resume', ...args], { cwd: w.elsewhere, env: { ...process.env, ...w.env, PATH: `${w.bin}:${process.env.PATH}` }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }), code: 0 };
      } catch (error) {
        const e = error as { stdout: string; status: number };
        return { out: e.stdout, code: e.status };
      }
    };
    const plain = cli('8e2a0f', '--json');
    expect(plain.code).toBe(0);
    expect(JSON.parse(plain.out)).toEqual({
      session: { id: '8e2a0f4b-1111-4222-8333-444455556666', name: expect.any(String), agent: 'pi' },
      cwd: w.project,
      command: ['recapwrap', 'pi', '--session', w.transcript],
      fork: false,
      fresh: false,
    });
    const fork = cli('8e2a0f', '--fork', '--json');
    expect(fork.code).toBe(0);
    expect(JSON.parse(fork.out)).toMatchObject({ command: ['recapwrap', 'pi', '--fork', w.transcript], fork: true });
    expect(existsSync(w.argvFile)).toBe(false); // nothing was run
    const gone = cli('8e2a0f', '--json', '--cwd', join(w.base, 'no-such-folder'));
    expect(gone.code).toBe(1);
    expect(JSON.parse(gone.out)).toEqual({ error: `no folder ${join(w.base, 'no-such-folder')}`, code: 1 });
    const bad = cli('8e2a0f', '--json', '--agent', 'nope');
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.out)).toMatchObject({ code: 2 });
  });
});
