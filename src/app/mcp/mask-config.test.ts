import { describe, expect, it } from 'vitest';
import { maskConfigText } from './mask-config.js';

// Fake values, built here so no file holds a token whole.
const GH = 'ghp_' + 'Zq7Xw2Vb9Nc4Mk8Lj3Hg6Fd1Sa5Pt0Ry7Eu42';
const PLAIN = 'plain-looking-value';

describe('maskConfigText', () => {
  it('masks every env and headers value of a JSON config, on many lines or one, and keeps the rest', () => {
    const text = JSON.stringify(
      {
        mcpServers: {
          github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_TOKEN: GH, LOG_LEVEL: PLAIN } },
          remote: { url: 'https://mcp.example.com/sse', headers: { Authorization: `Bearer ${PLAIN}`, 'X-Team': PLAIN } },
          recapwrap: { command: '/usr/bin/node', args: ['/opt/recapwrap/bin/recapwrap.js', 'mcp'] },
        },
      },
      null,
      2,
    );
    const out = maskConfigText(text);
    expect(out).not.toContain(GH);
    expect(out).not.toContain(PLAIN);
    expect(out).toContain('"GITHUB_TOKEN": "[secret]"');
    expect(out).toContain('"X-Team": "[secret]"');
    expect(out).toContain('"args": [');
    expect(out).toContain('"/opt/recapwrap/bin/recapwrap.js"');
    expect(out.split('\n').length).toBe(text.split('\n').length);
    const compact = `{"mcpServers":{"a":{"env":{"K":"${PLAIN}"},"command":"x"}}}`;
    expect(maskConfigText(compact)).toBe('{"mcpServers":{"a":{"env":{"K":"[secret]"},"command":"x"}}}');
  });

  it('masks TOML env tables and inline tables (Codex), and nothing outside them', () => {
    const text = [
      '[mcp_servers.github]',
      'command = "npx"',
      `env = { GITHUB_TOKEN = "${PLAIN}", MODE = 'x' }`,
      '[mcp_servers.github.env]',
      `API_TOKEN = "${PLAIN}"`,
      `OTHER = '${PLAIN}'`,
      '[mcp_servers.remote.http_headers]',
      `"X-Key" = "${PLAIN}"`,
      '[mcp_servers.recapwrap]',
      'command = "/usr/bin/node"',
      'args = ["/opt/recapwrap/bin/recapwrap.js", "mcp"]',
    ].join('\n');
    const out = maskConfigText(text);
    expect(out).not.toContain(PLAIN);
    expect(out).toContain(`env = { GITHUB_TOKEN = "[secret]", MODE = '[secret]' }`);
    expect(out).toContain('API_TOKEN = "[secret]"');
    expect(out).toContain('command = "/usr/bin/node"');
    expect(out).toContain('args = ["/opt/recapwrap/bin/recapwrap.js", "mcp"]');
  });

  it('masks an argument after a secret-named flag, a --flag=value, and any known token shape', () => {
    const out = maskConfigText(`"args": ["--api-key", "${PLAIN}", "--token=${PLAIN}", "--verbose", "x", "${GH}"]`);
    expect(out).toBe('"args": ["--api-key", "[secret]", "--token=[secret]", "--verbose", "x", "[secret]"]');
  });
});
