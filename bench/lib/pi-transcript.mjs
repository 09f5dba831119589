// A generated pi transcript of about `size` bytes (user prompt, thinking + text + bash call, result, answer
// per turn), for the benches that need a big real-format session file. With `compactEvery: n`, a pi
// `compaction` entry follows every n-th turn (in the chain, as pi writes it), so a load keeps history
// across compactions.
import { createWriteStream, statSync } from 'node:fs';

export async function generatePiTranscript(file, size, { compactEvery = 0 } = {}) {
  const out = createWriteStream(file);
  const write = (obj) => {
    const line = JSON.stringify(obj) + '\n';
    written += Buffer.byteLength(line);
    return out.write(line) ? undefined : new Promise((r) => out.once('drain', r));
  };
  let written = 0;
  let parent = null;
  let n = 0;
  const ts = Date.parse('2026-11-22T08:00:00Z');
  const entry = async (message) => {
    const id = `e${(n++).toString(16)}`;
    await write({ type: 'message', id, parentId: parent, timestamp: new Date(ts + n * 1000).toISOString(), message: { ...message, timestamp: ts + n * 1000 } });
    parent = id;
  };
  const words = 'the parser reads each line once and keeps only what the recap needs from the session file'.split(' ');
  const text = (len) => {
    let s = '';
    while (s.length < len) s += words[(s.length * 7) % words.length] + ' ';
    return s;
  };
  await write({ type: 'session', version: 3, id: 'bench', timestamp: new Date(ts).toISOString(), cwd: '/bench' });
  for (let turn = 0; written < size; turn++) {
    await entry({ role: 'user', content: [{ type: 'text', text: `turn ${turn}: ${text(200)}` }] });
    await entry({ role: 'assistant', content: [{ type: 'thinking', thinking: text(1000) }, { type: 'text', text: text(400) }, { type: 'toolCall', id: `c${turn}`, name: 'bash', arguments: { command: `npm test -- ${turn}` } }], stopReason: 'toolUse' });
    await entry({ role: 'toolResult', toolCallId: `c${turn}`, toolName: 'bash', content: [{ type: 'text', text: text(3000) }], isError: turn % 17 === 0 });
    await entry({ role: 'assistant', content: [{ type: 'text', text: text(300) }], stopReason: 'stop' });
    if (compactEvery > 0 && turn % compactEvery === compactEvery - 1) {
      const id = `e${(n++).toString(16)}`;
      await write({ type: 'compaction', id, parentId: parent, timestamp: new Date(ts + n * 1000).toISOString(), summary: `## Goal\nSummary of turns up to ${turn}: ${text(1500)}`, firstKeptEntryId: parent, tokensBefore: 150000 });
      parent = id;
    }
  }
  await new Promise((r) => out.end(r));
  return statSync(file).size;
}

