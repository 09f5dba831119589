// tmux.conf.example's pane border cut the recap with #{=/-80/…:@recap}: a negative length keeps the
// LAST 80 characters, so the border showed "…ed two warnings … the new flag END" and lost the recap's
// start, then tmux cut that to the pane (an 80-column pane showed only a middle piece). The example's
// own line, sourced into a private server, must show the start, mark the cut with … and fit the pane.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { setPaneRecapOptions } from '../../src/display/tmux.js';
import { displayWidth } from '../../src/util/text-width.js';
import { REPO_DIR } from '../helpers/shared.js';
import { tmuxAvailable } from '../helpers/tmux.js';
import { tmuxE2e } from '../helpers/tmux-e2e.js';

const hasTmux = tmuxAvailable();
const LONG_RECAP =
  'recap: START added the --dry-run flag to src/cli.ts, wrote 4 tests in test/cli.test.ts, all pass; ran the linter and fixed two warnings in src/app. Next: update docs/reference.md with the new flag END';
const SHORT_RECAP = 'recap: added a flag. Next: docs.';
/** tmux draws a top pane border in pane_width - 4 columns (screen-redraw.c, screen_redraw_make_pane_status). */
const BORDER_MARGIN_COLS = 4;

describe.skipIf(!hasTmux)('pane-border-format from tmux.conf.example', () => {
  const setup = tmuxE2e('rw-border', { built: false });
  const panes = new Map<number, string>();
  beforeAll(() => {
    const { dir, server } = setup;
    const line = readFileSync(join(REPO_DIR, 'tmux.conf.example'), 'utf8').split('\n').find((l) => l.startsWith('set -g pane-border-format '));
    expect(line).toBeDefined();
    const confFile = join(dir, 'border.conf');
    writeFileSync(confFile, `${line}\n`);
    for (const cols of [100, 80, 14]) panes.set(cols, server.newSession({ name: `w${cols}`, cols, rows: 10, command: ['sleep', '600'] }));
    server.run(['source-file', confFile]);
  });

  // The border as tmux expands it for the pane, with its #[…] styles removed: the text a user reads.
  const shownBorder = (pane: string): string => setup.server.run(['display-message', '-p', '-t', pane, '#{E:pane-border-format}']).replace(/\n$/, '').replace(/#\[[^\]]*\]/g, '');
  const target = (pane: string) => ({ pane, serverArgs: ['-L', setup.server.socket, '-f', '/dev/null'] });

  it.each([100, 80])('keeps the start of a long recap in a %i-column pane, cut with … to fit the border', async (cols) => {
    const pane = panes.get(cols)!;
    expect(await setPaneRecapOptions(target(pane), { recap: LONG_RECAP, state: 'working' })).toBe(true);
    const shown = shownBorder(pane);
    // The state, then the recap's first characters up to the cut, then … and the closing space.
    const kept = shown.slice(' working '.length, -'… '.length);
    expect(shown).toBe(` working ${LONG_RECAP.slice(0, kept.length)}… `);
    expect(kept).toMatch(/^recap: START added the --dry-run flag/);
    expect(displayWidth(shown)).toBe(cols - BORDER_MARGIN_COLS);
  });

  // Below 16 columns pane_width - 15 would be 0 (no cut) or negative (the END again): the length stays 1.
  it('keeps the start in a pane too narrow for more than a character of it', async () => {
    const pane = panes.get(14)!;
    expect(await setPaneRecapOptions(target(pane), { recap: LONG_RECAP, state: 'idle' })).toBe(true);
    expect(shownBorder(pane)).toBe(' idle r… ');
  });

  it.each([100, 80])('shows a short recap whole in a %i-column pane', async (cols) => {
    const pane = panes.get(cols)!;
    expect(await setPaneRecapOptions(target(pane), { recap: SHORT_RECAP, state: 'idle' })).toBe(true);
    expect(shownBorder(pane)).toBe(` idle ${SHORT_RECAP} `);
  });
});
