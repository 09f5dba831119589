// The bash snippet routes agent commands through recapwrap with their arguments intact, honours
// RECAPWRAP_AGENTS, and completes recapwrap's own subcommands.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_DIR } from '../helpers/shared.js';

const SNIPPET = join(REPO_DIR, 'shell', 'recapwrap.bash');
let dir: string;

function fakeRecapwrap(): string {
  dir = mkdtempSync(join(tmpdir(), 'rw-shell-'));
  const bin = join(dir, 'recapwrap');
  // Records its argv, one per line, so the test sees exactly what the function passed.
  writeFileSync(bin, `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a"; done > "${dir}/argv"\n`);
  chmodSync(bin, 0o755);
  return dir;
}

afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('shell/recapwrap.bash', () => {
  it('wraps each agent with its arguments intact', () => {
    const d = fakeRecapwrap();
    execFileSync('bash', ['-c', `source "${SNIPPET}"; claude --resume "two words" '$HOME'`], { env: { ...process.env, PATH: `${d}:${process.env.PATH}` } });
    expect(readFileSync(join(d, 'argv'), 'utf8')).toBe('claude\n--resume\ntwo words\n$HOME\n');
  });

  it('wraps only the agents named in RECAPWRAP_AGENTS', () => {
    const d = fakeRecapwrap();
    const out = execFileSync('bash', ['-c', `source "${SNIPPET}"; type -t pi || true; type -t codex || echo none`], {
      env: { ...process.env, PATH: `${d}:${process.env.PATH}`, RECAPWRAP_AGENTS: 'pi' },
      encoding: 'utf8',
    });
    expect(out.trim().split('\n')).toEqual(['function', 'none']);
  });

  it('completes subcommands', () => {
    const out = execFileSync('bash', ['-c', `source "${SNIPPET}"; COMP_WORDS=(recapwrap re); COMP_CWORD=1; _recapwrap_complete; printf '%s\\n' "\${COMPREPLY[@]}"`], { encoding: 'utf8' });
    expect(out.trim().split('\n').sort()).toEqual(['recap', 'resume']);
  });
});
