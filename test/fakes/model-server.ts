/**
 * A real HTTP server on 127.0.0.1 that answers like a model API, scripted per test: OpenAI-compatible
 * `/chat/completions` and Anthropic `/v1/messages` (streaming off). Each request takes the next scripted
 * reply; every request body is kept for assertions.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Reply =
  | { text: string } // a normal answer carrying this text
  | { status: number; body?: string } // an HTTP error
  | { raw: string } // a 200 with this body (garbage)
  | { delayMs: number; text: string } // a slow answer
  | { hangUp: true }; // close the connection without answering

export interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

export interface ModelServer {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

function answer(path: string, text: string): unknown {
  if (path.endsWith('/messages')) return { id: 'msg_1', type: 'message', role: 'assistant', model: 'fake', content: [{ type: 'thinking', thinking: 'hidden reasoning' }, { type: 'text', text }], stop_reason: 'end_turn' };
  return { id: 'cmpl_1', object: 'chat.completion', model: 'fake', choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }] };
}

export async function startModelServer(script: Reply[] | ((req: Received, n: number) => Reply)): Promise<ModelServer> {
  const received: Received[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let data = '';
    req.on('data', (c: Buffer) => (data += c.toString('utf8')));
    req.on('end', () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(data) as Record<string, unknown>;
      } catch {}
      const rec = { path: req.url ?? '', headers: req.headers, body };
      received.push(rec);
      const n = received.length - 1;
      const reply = typeof script === 'function' ? script(rec, n) : (script[n] ?? script[script.length - 1] ?? { status: 500 });
      if ('hangUp' in reply) {
        req.socket.destroy();
        return;
      }
      const send = (status: number, out: string) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(out);
      };
      if ('status' in reply) return send(reply.status, reply.body ?? JSON.stringify({ error: { message: `scripted ${reply.status}` } }));
      if ('raw' in reply) return send(200, reply.raw);
      const out = JSON.stringify(answer(rec.path, reply.text));
      if ('delayMs' in reply) setTimeout(() => send(200, out), reply.delayMs);
      else send(200, out);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
