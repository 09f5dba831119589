// Registration logic: reading each agent's config file, idempotence, dry runs, failures, pi. The agent
// CLIs are the collaborator here (faked by a `run` that edits the files as `mcp add/remove` do); the
// real CLIs are driven in test/agents/mcp-register.test.ts.
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MCP_AGENT_IDS } from '../../cli/commands/mcp.js';
import { isSupported, MCP_AGENTS, readJsonEntry, readTomlEntry } from './agent-configs.js';
import { checkMcpRegistration, diffLines, installMcp, uninstallMcp, type RegisterDeps } from './register.js';

const LAUNCH = { command: '/opt/node/bin/node', args: ['/opt/recapwrap/bin/recapwrap.js', 'mcp'] };
let home: string;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'rw-mcp-reg-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

function jsonFile(agent: string): string {
  return agent === 'claude' ? join(home, '.claude.json') : join(home, agent === 'gemini' ? '.gemini' : '.qwen', 'settings.json');
}

// What `<agent> mcp add/remove` do to their files, enough for the logic under test.
function fakeDeps(onPath: string[], fail: Record<string, string> = {}): RegisterDeps & { ran: string[] } {
  const ran: string[] = [];
  return {
    env: { HOME: home },
    ran,
    findOnPath: (command) => (onPath.includes(command) ? `/usr/bin/${command}` : undefined),
    async run(path, args) {
      const agent = path.split('/').pop() as string;
      ran.push(`${agent} ${args.join(' ')}`);
      if (fail[agent]) return { code: 1, stdout: '', stderr: `${fail[agent]}\n` };
      const name = 'recapwrap';
      if (agent === 'codex') {
        const file = join(home, '.codex', 'config.toml');
        mkdirSync(join(home, '.codex'), { recursive: true });
        let text = (() => { try { return readFileSync(file, 'utf8'); } catch { return ''; } })();
        text = text.replace(/\[mcp_servers\.recapwrap\][^[]*/s, '');
        if (args[1] === 'add') text += `[mcp_servers.${name}]\ncommand = ${JSON.stringify(args[4])}\nargs = ${JSON.stringify(args.slice(5)).replace(/,/g, ', ')}\n`;
        writeFileSync(file, text);
        return { code: 0, stdout: '', stderr: 'WARNING: proceeding\n' };
      }
      const file = jsonFile(agent);
      mkdirSync(join(file, '..'), { recursive: true });
      const json = (() => { try { return JSON.parse(readFileSync(file, 'utf8')); } catch { return {}; } })();
      json.mcpServers ??= {};
      if (args[1] === 'add') {
        const rest = args.slice(args.indexOf(name) + 1).filter((a) => a !== '--');
        json.mcpServers[name] = { command: rest[0], args: rest.slice(1) };
      } else delete json.mcpServers[name];
      writeFileSync(file, JSON.stringify(json, null, 2));
      return { code: 0, stdout: '', stderr: '' };
    },
  };
}

describe('reading the agents\' config files', () => {
  it('finds the entry in a JSON settings file (comments allowed) and keeps the others out of it', () => {
    const file = join(home, 'settings.json');
    writeFileSync(file, '// mine\n{ "mcpServers": { "other": { "command": "x" }, "recapwrap": { "command": "/n", "args": ["/b.js", "mcp"] } } }');
    expect(readJsonEntry(file)).toEqual({ kind: 'present', launch: { command: '/n', args: ['/b.js', 'mcp'] } });
    expect(readJsonEntry(join(home, 'none.json'))).toEqual({ kind: 'absent' });
    writeFileSync(file, '{ "mcpServers": ');
    expect(readJsonEntry(file)).toMatchObject({ kind: 'unreadable', error: expect.stringContaining('is not valid JSON') });
    // The parser's message quotes the text near the fault: another server's secret there is not printed.
    writeFileSync(file, `{ "mcpServers": { "gh": { "env": { "GITHUB_TOKEN": ${'ghp_' + 'Zq7Xw2Vb9Nc4Mk8Lj3Hg6Fd1Sa5Pt0Ry7Eu42'} } } } }`);
    const bad = readJsonEntry(file);
    expect(bad).toMatchObject({ kind: 'unreadable', error: expect.stringContaining('is not valid JSON') });
    expect(JSON.stringify(bad)).not.toContain('ghp_');
  });

  it('finds [mcp_servers.recapwrap] in config.toml, not a neighbour', () => {
    const file = join(home, 'config.toml');
    writeFileSync(file, 'model = "o3"\n\n[mcp_servers.other]\ncommand = "x"\nargs = ["y"]\n\n[mcp_servers.recapwrap]\ncommand = "/n"\nargs = ["/b \\"q\\".js", \'mcp\']\n\n[profiles.x]\ncommand = "no"\n');
    expect(readTomlEntry(file)).toEqual({ kind: 'present', launch: { command: '/n', args: ['/b "q".js', 'mcp'] } });
    writeFileSync(file, '[mcp_servers.recapwrap-old]\ncommand = "x"\n');
    expect(readTomlEntry(file)).toEqual({ kind: 'absent' });
  });
});

describe('diffLines', () => {
  it('shows only the changed middle', () => {
    expect(diffLines('a\nb\nc\nd', 'a\nb\nX\nY\nd')).toEqual(['- c', '+ X', '+ Y']);
    expect(diffLines('same', 'same')).toEqual([]);
    expect(diffLines('', 'x\ny\nz', 2)).toEqual(['+ x', '+ y', '  … 1 more changed line']);
  });
});

describe('mcp install / uninstall', () => {
  it('the agents help and completion name are the ones with MCP support', () => {
    expect(MCP_AGENT_IDS).toEqual(MCP_AGENTS.filter(isSupported).map((c) => c.agent));
  });

  it('registers with each agent on PATH through its own command, says why pi gets nothing, and keeps other servers', async () => {
    writeFileSync(join(home, '.claude.json'), JSON.stringify({ mcpServers: { mine: { command: 'keep-me' } } }, null, 2));
    const deps = fakeDeps(['claude', 'codex', 'pi']);
    const report = await installMcp({ launch: LAUNCH }, deps);
    expect(report.code).toBe(0);
    expect(deps.ran).toEqual([
      'claude mcp add --scope user recapwrap -- /opt/node/bin/node /opt/recapwrap/bin/recapwrap.js mcp',
      'codex mcp add recapwrap -- /opt/node/bin/node /opt/recapwrap/bin/recapwrap.js mcp',
    ]);
    const text = report.lines.join('\n');
    expect(text).toContain('  $ claude mcp add --scope user recapwrap -- /opt/node/bin/node /opt/recapwrap/bin/recapwrap.js mcp');
    expect(text).toContain('~/.claude.json:');
    expect(text).toMatch(/^ {4}\+ {5}"recapwrap": \{$/m);
    expect(text).toContain('gemini: not on PATH, skipped.');
    expect(text).toMatch(/^pi: pi has no MCP support/m);
    expect(JSON.parse(readFileSync(join(home, '.claude.json'), 'utf8')).mcpServers.mine).toEqual({ command: 'keep-me' });

    // Again: nothing to do, nothing run.
    const again = fakeDeps(['claude', 'codex']);
    const second = await installMcp({ launch: LAUNCH }, again);
    expect(again.ran).toEqual([]);
    expect(second.lines).toEqual(['claude: already registered in ~/.claude.json (nothing to do).', 'codex: already registered in ~/.codex/config.toml (nothing to do).', 'gemini: not on PATH, skipped.', 'qwen: not on PATH, skipped.']);
    expect(text.indexOf('claude:')).toBeLessThan(text.indexOf('gemini:'));

    const removed = fakeDeps(['claude', 'codex']);
    const un = await uninstallMcp({}, removed);
    expect(un.code).toBe(0);
    expect(removed.ran).toEqual(['claude mcp remove --scope user recapwrap', 'codex mcp remove recapwrap']);
    expect(JSON.parse(readFileSync(join(home, '.claude.json'), 'utf8')).mcpServers).toEqual({ mine: { command: 'keep-me' } });
    expect(readTomlEntry(join(home, '.codex', 'config.toml'))).toEqual({ kind: 'absent' });
    expect((await uninstallMcp({}, fakeDeps(['claude']))).lines[0]).toBe('claude: not registered in ~/.claude.json (nothing to do).');
  });

  it('replaces an entry of another recapwrap (remove, then add), and a dry run changes nothing', async () => {
    writeFileSync(jsonFile('claude'), JSON.stringify({ mcpServers: { recapwrap: { command: 'node', args: ['/old/bin/recapwrap.js', 'mcp'] } } }));
    const dry = fakeDeps(['claude']);
    const plan = await installMcp({ launch: LAUNCH, dryRun: true, agent: 'claude' }, dry);
    expect(dry.ran).toEqual([]);
    expect(plan.lines).toEqual([
      'claude: would run (~/.claude.json, mcpServers.recapwrap: node /old/bin/recapwrap.js mcp → /opt/node/bin/node /opt/recapwrap/bin/recapwrap.js mcp):',
      '  $ claude mcp remove --scope user recapwrap',
      '  $ claude mcp add --scope user recapwrap -- /opt/node/bin/node /opt/recapwrap/bin/recapwrap.js mcp',
    ]);
    const real = fakeDeps(['claude']);
    expect((await installMcp({ launch: LAUNCH, agent: 'claude' }, real)).code).toBe(0);
    expect(real.ran).toHaveLength(2);
    expect(readJsonEntry(jsonFile('claude'))).toEqual({ kind: 'present', launch: LAUNCH });
  });

  it('reports a failing agent command and an agent asked for that is missing, with exit code 1', async () => {
    const deps = fakeDeps(['gemini'], { gemini: 'Error: settings are locked' });
    const report = await installMcp({ launch: LAUNCH }, deps);
    expect(report.code).toBe(1);
    expect(report.lines).toContain('  failed (exit 1): Error: settings are locked');
    expect(report.lines).toContain('  not registered.');
    const missing = await installMcp({ launch: LAUNCH, agent: 'qwen' }, fakeDeps([]));
    expect(missing).toEqual({ code: 1, lines: ['qwen: Expected the `qwen` command on PATH, got none: nothing to do.'] });
    const none = await installMcp({ launch: LAUNCH }, fakeDeps([]));
    expect(none.code).toBe(1);
    expect(none.lines.at(-1)).toMatch(/^No agent CLI with MCP support/);
  });

  it('--agent pi: one line with what to use instead, nothing run, exit 1 like any agent asked for that cannot be done', async () => {
    const line = 'pi: pi has no MCP support (it leaves MCP to extensions by design), so nothing is registered with it; from pi, have its bash tool run `recapwrap search WORDS --json` and `recapwrap show REF --json` instead.';
    for (const onPath of [['pi'], []]) {
      for (const dryRun of [false, true]) {
        const deps = fakeDeps(onPath);
        expect(await installMcp({ launch: LAUNCH, agent: 'pi', dryRun }, deps)).toEqual({ code: 1, lines: [line] });
        expect(await uninstallMcp({ agent: 'pi', dryRun }, deps)).toEqual({ code: 1, lines: [line] });
        expect(deps.ran).toEqual([]);
      }
    }
    // Met on PATH while going through every agent, pi is only said: the others' outcome is the exit code.
    const all = await installMcp({ launch: LAUNCH, dryRun: true }, fakeDeps(['claude', 'pi']));
    expect(all.code).toBe(0);
    expect(all.lines.at(-1)).toBe(line);
  });

  it('a dry run with no agent CLI on PATH previews what would run for each agent and says which CLI is missing (#37)', async () => {
    const deps = fakeDeps([]);
    const report = await installMcp({ launch: LAUNCH, dryRun: true }, deps);
    expect(deps.ran).toEqual([]);
    expect(report.lines).toEqual([
      'claude: `claude` is not on PATH (Claude Code: npm install -g @anthropic-ai/claude-code); once it is, this would run (~/.claude.json):',
      '  $ claude mcp add --scope user recapwrap -- /opt/node/bin/node /opt/recapwrap/bin/recapwrap.js mcp',
      'codex: `codex` is not on PATH (Codex: npm install -g @openai/codex); once it is, this would run (~/.codex/config.toml):',
      '  $ codex mcp add recapwrap -- /opt/node/bin/node /opt/recapwrap/bin/recapwrap.js mcp',
      'gemini: `gemini` is not on PATH (Gemini CLI: npm install -g @google/gemini-cli); once it is, this would run (~/.gemini/settings.json):',
      '  $ gemini mcp add --scope user recapwrap /opt/node/bin/node /opt/recapwrap/bin/recapwrap.js mcp',
      'qwen: `qwen` is not on PATH (Qwen Code: npm install -g @qwen-code/qwen-code); once it is, this would run (~/.qwen/settings.json):',
      '  $ qwen mcp add --scope user recapwrap /opt/node/bin/node /opt/recapwrap/bin/recapwrap.js mcp',
      'No agent CLI with MCP support (claude, codex, gemini, qwen) is on PATH: nothing would be registered.',
    ]);
  });

  it('prints the config change with the other servers\' env, headers and secret arguments masked (#33 item 8)', async () => {
    const token = 'ghp_' + 'Zq7Xw2Vb9Nc4Mk8Lj3Hg6Fd1Sa5Pt0Ry7Eu42';
    const plain = 'team-shared-value';
    // A compact file: the agent rewrites it whole, so the printed diff spans the other servers.
    writeFileSync(jsonFile('claude'), JSON.stringify({ mcpServers: { github: { command: 'npx', args: ['--api-key', plain], env: { GITHUB_TOKEN: token } }, remote: { url: 'https://x.example.com/mcp', headers: { 'X-Api-Team': plain } } } }));
    mkdirSync(join(home, '.codex'));
    writeFileSync(join(home, '.codex', 'config.toml'), `[mcp_servers.recapwrap]\ncommand = "node"\nargs = ["/old/recapwrap.js", "mcp"]\n[mcp_servers.github]\ncommand = "npx"\n[mcp_servers.github.env]\nGITHUB_TOKEN = "${token}"\nTEAM = "${plain}"\n`);
    const report = await installMcp({ launch: LAUNCH }, fakeDeps(['claude', 'codex']));
    const text = report.lines.join('\n');
    expect(report.code).toBe(0);
    expect(text).toContain('"GITHUB_TOKEN": "[secret]"');
    expect(text).toContain('GITHUB_TOKEN = "[secret]"');
    expect(text).toContain('"X-Api-Team": "[secret]"');
    expect(text).not.toContain(token.slice(4, 20));
    expect(text).not.toContain(plain);
    const un = await uninstallMcp({}, fakeDeps(['claude', 'codex']));
    expect(un.lines.join('\n')).not.toContain(token.slice(4, 20));
    expect(un.lines.join('\n')).not.toContain(plain);
    expect(readFileSync(join(home, '.codex', 'config.toml'), 'utf8')).toContain(token); // the file itself is untouched
  });

  it('leaves a settings file it cannot read alone', async () => {
    mkdirSync(join(home, '.qwen'));
    writeFileSync(jsonFile('qwen'), '{ broken');
    const deps = fakeDeps(['qwen']);
    const report = await installMcp({ launch: LAUNCH }, deps);
    expect(deps.ran).toEqual([]);
    expect(report.code).toBe(1);
    expect(report.lines.join('\n')).toMatch(/qwen: left alone: .*settings\.json is not valid JSON/);
  });
});

describe('doctor: where the server is registered', () => {
  it('says registered, not registered, registered with another command, and pi has no MCP', async () => {
    await installMcp({ launch: LAUNCH, agent: 'claude' }, fakeDeps(['claude']));
    await installMcp({ launch: { ...LAUNCH, command: '/old/node' }, agent: 'gemini' }, fakeDeps(['gemini']));
    const onPath = ['claude', 'gemini', 'qwen', 'pi'];
    const results = checkMcpRegistration({ HOME: home }, LAUNCH, (c) => (onPath.includes(c) ? `/bin/${c}` : undefined));
    expect(results.map((r) => [r.name, r.status])).toEqual([
      ['mcp claude', 'ok'], ['mcp gemini', 'warn'], ['mcp qwen', 'skip'], ['mcp pi', 'skip'],
    ]);
    expect(results[0]?.detail).toBe('registered in ~/.claude.json: /opt/node/bin/node /opt/recapwrap/bin/recapwrap.js mcp');
    expect(results[1]?.fix).toBe('recapwrap mcp install --agent gemini');
    expect(results[2]?.detail).toMatch(/^not registered \(~\/\.qwen\/settings\.json\)/);
  });
});
