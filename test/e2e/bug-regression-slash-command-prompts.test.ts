// A new user's report: a slash command counted as a prompt and became the session's subject
// (`sessions` showed `claude-switch · /clear: done`, `show` said "2 prompts" and `recap: … — /clear: …`,
// `read --outline` listed `› 4/5 /compact` as a prompt). Decided: a slash command (`/clear`, `/compact`,
// `/model …`) is not a prompt. `read` shows it where it was typed, marked `(command)`, unnumbered; it is
// never a session's subject, headline, name or title; every count (show, sessions, read, MCP) leaves it out.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layOutSession, type LaidOut } from '../helpers/agent-homes.js';
import { assertBuilt, CLI_BIN } from '../helpers/cli-pty.js';
import { TRANSCRIPTS_DIR } from '../helpers/shared.js';

let root: string;
let env: Record<string, string>;
let cleared: LaidOut;
let compacted: LaidOut;

beforeAll(async () => {
  assertBuilt();
  root = mkdtempSync(join(tmpdir(), 'rw-slash-'));
  const home = join(root, 'home');
  mkdirSync(home);
  env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, XDG_STATE_HOME: join(home, 'state'), XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache'), RECAPWRAP_STATE_DIR: join(root, 'state'), TERM: 'dumb' };
  // The session a `/clear` started: `/clear`, then one typed prompt ("Please list them again").
  cleared = await layOutSession(home, 'claude', join(TRANSCRIPTS_DIR, 'claude', 'clear-switch', 'second.jsonl'));
  // Four typed prompts and a `/compact` between the third and the fourth.
  compacted = await layOutSession(home, 'claude', join(TRANSCRIPTS_DIR, 'claude', 'reader', 'compact-subagent', '41e0c0de-0000-4000-8000-00000000c1a0.jsonl'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const cli = (args: string[]) => execFileSync(process.execPath, [CLI_BIN, ...args], { cwd: root, env, encoding: 'utf8' });

interface Listed { id: string; name: string; headline: string; title?: string; counts: { prompts: number } }

describe('bug regression: a slash command is not a prompt', () => {
  it('is never the subject, headline, name or title; sessions and show count only typed prompts', () => {
    const listed = JSON.parse(cli(['sessions', '--json'])) as Listed[];
    const one = listed.find((s) => s.id === cleared.id) as Listed;
    const five = listed.find((s) => s.id === compacted.id) as Listed;
    for (const s of [one, five]) {
      expect(`${s.name} ${s.headline} ${s.title ?? ''}`, s.id).not.toMatch(/\/(clear|compact)|\bclear\b|\bcompact\b/);
    }
    expect(one.counts.prompts).toBe(1);
    expect(five.counts.prompts).toBe(4);
    const card = cli(['show', one.name]);
    expect(card).toMatch(/activity: +1 prompt, /);
    expect(card).not.toMatch(/^recap:.*\/clear/m);
    expect(cli(['sessions'])).not.toContain('/clear');
  });

  it('read numbers typed prompts only and shows the command, marked, where it was typed', () => {
    const name = (JSON.parse(cli(['sessions', '--json'])) as Listed[]).find((s) => s.id === compacted.id)?.name as string;
    const outline = cli(['read', name, '--outline', '--width', '120']).trimEnd().split('\n');
    expect(outline.map((l) => l.slice(0, 6))).toEqual(['› 1/4 ', '› 2/4 ', '› 3/4 ', '·     ', '› 4/4 ']);
    expect(outline[3]).toMatch(/\/compact {2}\(command\)$/);
    const page = cli(['read', name, '--width', '100']);
    expect(page).toMatch(/counts +4 prompts/);
    expect(page).toMatch(/\n· \/compact {2}\(command, [^)]*\)\n/);
    expect(page).not.toMatch(/› \d\/\d[^\n]*\n +\/compact/);
    expect(cli(['read', name, '--turn', '4', '--width', '100'])).toMatch(/› 4\/4[^\n]*\n +Show notes\.md once more\./);
  });

  it('MCP agrees: list_sessions and get_session count the same prompts; read_session numbers the same', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI_BIN, 'mcp'], env, cwd: root, stderr: 'pipe' });
    const client = new Client({ name: 'recapwrap-e2e', version: '1.0.0' });
    await client.connect(transport);
    try {
      const json = async (name: string, args: Record<string, unknown>) => JSON.parse(((await client.callTool({ name, arguments: args })) as CallToolResult).content.map((c) => (c as { text: string }).text).join('')) as Record<string, unknown>;
      const list = (await json('list_sessions', {})) as { sessions: Array<{ id: string; prompts: number; headline: string }> };
      expect(list.sessions.find((s) => s.id === cleared.id)).toMatchObject({ prompts: 1 });
      expect(list.sessions.find((s) => s.id === compacted.id)).toMatchObject({ prompts: 4 });
      expect(list.sessions.map((s) => s.headline).join('\n')).not.toContain('/clear');
      expect(JSON.stringify(await json('get_session', { session: cleared.id }))).not.toMatch(/"headline":"[^"]*\/clear/);
      const page = (await json('read_session', { session: compacted.id, turn: 4 })) as { prompts: number; markdown?: string; text?: string };
      expect(page.prompts).toBe(4);
      expect(JSON.stringify(page)).toContain('## Prompt 4/4');
    } finally {
      await client.close();
    }
  });
});
