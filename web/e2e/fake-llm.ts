import { createServer, type Server } from 'node:http';

/**
 * A stand-in for a hosted language model (which cannot run here), speaking the OpenAI chat
 * completions protocol over a real socket: POST /v1/chat/completions with stream:true answers
 * with server-sent events. The answer quotes the first source the console's server gave it;
 * a question that asks to answer "slowly" streams for a long time, so a test can stop it.
 */
export function startFakeLLM(): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404).end();
      return;
    }
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw) as { stream?: boolean; messages: { role: string; content: string }[] };
      const system = body.messages[0]?.content ?? '';
      const question = body.messages[body.messages.length - 1]?.content ?? '';
      const first = /\[1\][^:\n]*:\n([^\n]+)/.exec(system)?.[1] ?? 'no source';
      const slow = /slowly/i.test(question);
      const words = `According to [1], ${first}`.split(' ');
      if (slow) {
        for (let i = 0; i < 2000; i++) words.push(`detail${i}`);
      }
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
      let i = 0;
      const timer = setInterval(
        () => {
          if (i >= words.length) {
            res.write('data: [DONE]\n\n');
            res.end();
            clearInterval(timer);
            return;
          }
          const piece = (i === 0 ? '' : ' ') + words[i];
          res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: piece } }] })}\n\n`);
          i += 1;
        },
        slow ? 60 : 10,
      );
      res.on('close', () => clearInterval(timer));
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      resolve({
        url: `http://127.0.0.1:${port}/v1`,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}
