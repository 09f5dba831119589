// The one agent-HOME setup (test/helpers/agent-home.ts) that the real-agent e2e tests and `npm run
// fixtures` share (#29): every CLI gets its config pointing at the fake model, its key, and trust for
// the given folders; nothing is written outside the HOME.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentModelServer } from '../fakes/agent-model-server.js';
import { AGENT_CLIS, type AgentCli } from '../helpers/agent-cli.js';
import { FAKE_ANTHROPIC_KEY, prepareAgentHome } from '../helpers/agent-home.js';

const model = { url: 'http://127.0.0.1:4242', baseUrl: 'http://127.0.0.1:4242/v1' } as AgentModelServer;
let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'rw-agent-home-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const filesUnder = (dir: string) => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));

describe('prepareAgentHome', () => {
  it('points every agent CLI at the fake model, inside the HOME only', () => {
    for (const agent of Object.keys(AGENT_CLIS) as AgentCli[]) {
      const dir = mkdtempSync(join(home, `${agent}-`));
      const env = prepareAgentHome(agent, { home: dir, model, trusted: ['/w/one', '/w/two'] });
      const files = filesUnder(dir);
      expect(files.length, agent).toBeGreaterThan(0);
      const text = files.map((f) => readFileSync(f, 'utf8')).join('\n') + JSON.stringify(env);
      expect(text.includes(model.url), agent).toBe(true);
      expect(env.HOME, agent).toBeUndefined();
      // Temp files inside the run's folder, removed with it.
      expect(env.TMPDIR, agent).toBe(join(dir, '.tmp'));
    }
  });

  it('trusts exactly the given folders (Claude Code, Codex) and keeps the key Claude approves', () => {
    prepareAgentHome('claude', { home, model, trusted: ['/w/one', '/w/two'] });
    const claude = JSON.parse(readFileSync(join(home, '.claude.json'), 'utf8')) as { projects: Record<string, unknown>; customApiKeyResponses: { approved: string[] } };
    expect(Object.keys(claude.projects)).toEqual(['/w/one', '/w/two']);
    expect(claude.customApiKeyResponses.approved).toEqual([FAKE_ANTHROPIC_KEY.slice(-20)]);
    prepareAgentHome('codex', { home, model, trusted: ['/w/one'] });
    expect(readFileSync(join(home, '.codex', 'config.toml'), 'utf8')).toContain('[projects."/w/one"]\ntrust_level = "trusted"');
  });

  it("declares pi's fake model a reasoning one only when asked (the fixtures record thinking)", () => {
    const reasoning = (on?: boolean) => {
      prepareAgentHome('pi', { home, model, trusted: [], reasoning: on });
      return (JSON.parse(readFileSync(join(home, '.pi', 'agent', 'models.json'), 'utf8')) as { providers: { fake: { models: Array<{ reasoning: boolean }> } } }).providers.fake.models[0]?.reasoning;
    };
    expect(reasoning()).toBe(false);
    expect(reasoning(true)).toBe(true);
  });
});
