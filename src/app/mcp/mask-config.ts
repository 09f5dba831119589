/**
 * An agent's MCP config file as `mcp install` / `uninstall` may print it (the diff of what they changed):
 * every value of an `env` or `headers` table (JSON, JSONC or TOML, inline or not), an argument after a flag
 * named like a secret (`"--api-key", "…"`, `--token=…`) and every known secret shape (secrets.ts) replaced by
 * `[secret]`. Another server's `GITHUB_TOKEN` was printed verbatim (#33 item 8). Pure; line breaks are kept,
 * so a diff of two masked texts lines up as the files do.
 */
import { maskSecrets } from '../../memory/secrets.js';

const MASK = '[secret]';
// Tables whose values are secrets as a rule: environment variables and HTTP headers of a server.
const SECRET_TABLE_RE = /^(?:env|environment|headers|http_headers|env_http_headers)$/i;
// A TOML table header `[mcp_servers.github.env]`; any other `[header]` ends it.
const TOML_SECRET_HEADER_RE = /^\s*\[[^\]\n]*\.(?:env|environment|headers|http_headers|env_http_headers)\]\s*(?:#.*)?$/i;
const TOML_HEADER_RE = /^\s*\[/;
const TOML_KEY_VALUE_RE = /^(\s*[^=#\s][^=#]*?=\s*)(\S.*)$/;
// `"--api-key", "value"` in an argument list, and `--token=value` in one argument.
const FLAG_THEN_VALUE_RE = /(["'])(--?[\w-]*(?:token|key|secret|passw(?:or)?d|pass|auth)[\w-]*)\1(\s*,\s*)(["'])(?:(?!\4)[^\\\n]|\\.)*\4/gi;
const FLAG_EQUALS_RE = /(["']--?[\w-]*(?:token|key|secret|passw(?:or)?d|pass|auth)[\w-]*=)((?:[^"'\\\n]|\\.)+)/gi;

/** The config text with every secret value masked (see the module comment). */
export function maskConfigText(text: string): string {
  const tablesMasked = maskTomlTables(maskTableValues(text));
  const flagsMasked = tablesMasked.replace(FLAG_THEN_VALUE_RE, (_w, q: string, flag: string, sep: string, vq: string) => `${q}${flag}${q}${sep}${vq}${MASK}${vq}`).replace(FLAG_EQUALS_RE, `$1${MASK}`);
  return flagsMasked.split('\n').map(maskSecrets).join('\n');
}

// The string values inside `env`/`headers` objects: JSON `"env": { "K": "v" }` and TOML `env = { K = "v" }`,
// over any number of lines. A small scanner: strings (with their escapes) are skipped whole, braces and
// brackets nest, a value is a string right after `:` or `=`.
function maskTableValues(text: string): string {
  let out = '';
  const secretDepth: boolean[] = [];
  let lastKey = '';
  let prev = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' && c === '"' ? 2 : 1;
      const isValue = prev === ':' || prev === '=';
      if (isValue && secretDepth[secretDepth.length - 1]) out += c + MASK + c;
      else out += text.slice(i, j + 1);
      if (!isValue) lastKey = text.slice(i + 1, j);
      prev = c;
      i = j + 1;
      continue;
    }
    if (c === '{' || c === '[') {
      const opensSecret = c === '{' && (prev === ':' || prev === '=') && SECRET_TABLE_RE.test(lastKey);
      secretDepth.push(opensSecret || secretDepth[secretDepth.length - 1] === true);
    } else if (c === '}' || c === ']') secretDepth.pop();
    else if (/[A-Za-z_]/.test(c) && prev !== ':' && prev !== '=') {
      // A bare TOML key (`env = {`).
      const word = /^[\w.-]+/.exec(text.slice(i, i + 200))?.[0] ?? c;
      lastKey = word;
      out += word;
      prev = word[word.length - 1] as string;
      i += word.length;
      continue;
    }
    if (!/\s/.test(c)) prev = c;
    out += c;
    i++;
  }
  return out;
}

// The values of TOML tables `[….env]` / `[….http_headers]`, up to the next table header.
function maskTomlTables(text: string): string {
  let inSecret = false;
  return text
    .split('\n')
    .map((line) => {
      if (TOML_HEADER_RE.test(line)) {
        inSecret = TOML_SECRET_HEADER_RE.test(line);
        return line;
      }
      return inSecret ? line.replace(TOML_KEY_VALUE_RE, `$1"${MASK}"`) : line;
    })
    .join('\n');
}
