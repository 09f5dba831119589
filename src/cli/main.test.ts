// Usage errors through the whole CLI (#18 point 7): one style ("recapwrap: …", one line), exit 2 for
// every one of them, wherever commander or our own validation finds them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from './main.js';

let home: string;
let err: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'rw-main-'));
  vi.stubEnv('HOME', home);
  vi.stubEnv('XDG_STATE_HOME', join(home, 'state'));
  vi.stubEnv('XDG_CONFIG_HOME', join(home, 'config'));
  err = '';
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((err += String(chunk)), true));
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  rmSync(home, { recursive: true, force: true });
});

describe('usage errors', () => {
  it.each([
    [['status', '--bogus'], "recapwrap: unknown option '--bogus'"],
    [['--verbose', 'claude'], "recapwrap: unknown option '--verbose'"],
    [['recap', '--format'], "recapwrap: option '--format <format>' argument missing"],
    [['ls', '--x'], "recapwrap: unknown option '--x'"],
    [['--away', '-1', 'true'], 'recapwrap: Expected `--away` to be a number of seconds from 0 to 86400, got `-1`'],
    [['--hotkey', 'ctrl-1', 'true'], 'recapwrap: Expected `--hotkey` to be ctrl-<letter>, ctrl-] (or ctrl-\\ ctrl-^ ctrl-_), f1–f12 or none, got `ctrl-1`'],
    [['--agent', 'cursor', 'true'], 'recapwrap: Expected `--agent` to be one of pi, qwen, claude, codex, gemini, got `cursor`'],
    [['recap', '--agent', 'pi', '--format', 'xml'], 'recapwrap: Expected `--format` to be one of line, card, json, got `xml`'],
    [['status', '--format', 'json'], 'recapwrap: Expected `--format` to be plain or tmux, got `json`'],
    [['status', '--width', 'wide'], 'recapwrap: Expected `--width` to be a whole number of cells from 20 to 1000, got `wide`'],
    // One bound for every --width (recap took 5 and printed "done."; read refused it), and --turn says no made-up maximum.
    [['recap', '--session', 'f', '--width', '5'], 'recapwrap: Expected `--width` to be a whole number of cells from 20 to 1000, got `5`'],
    [['status', '--width', '1001'], 'recapwrap: Expected `--width` to be a whole number of cells from 20 to 1000, got `1001`'],
    [['read', 'f', '--width', '5'], 'recapwrap: Expected `--width` to be a whole number of cells from 20 to 1000, got `5`'],
    [['read', 'f', '--turn', '0'], 'recapwrap: Expected `--turn` to be a whole number from 1, got `0`'],
    [['resume', '--limit', 'x'], 'recapwrap: Expected `--limit` to be a whole number from 1 to 1,000,000, got `x`'],
    [['transcript', 'f', '--agent', 'cursor'], 'recapwrap: Expected `--agent` to be one of pi, qwen, claude, codex, gemini, got `cursor`'],
    [['recap', '--session', 'f', '--generator', 'anthropic', '--no-llm'], 'recapwrap: --no-llm allows no model, but --generator anthropic is one; drop one of them'],
  ])('%j exits 2 with one line', async (argv, message) => {
    expect(await main(argv)).toBe(2);
    expect(err).toBe(message + '\n');
  });
});
