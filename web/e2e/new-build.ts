import http from 'node:http';
import net from 'node:net';

/**
 * The server as if a new build of the console were deployed: an HTTP proxy on 127.0.0.1 in front
 * of `target` that passes everything through (WebSockets too) until deploy() is called, after
 * which its /sw.js names another version of the shell, as a new bundle's worker does (the build
 * writes the version into it). A browser fetches a worker's script itself, out of reach of a
 * page's routes, so the new version has to come over the wire.
 */
export async function newBuildProxy(target: string): Promise<{ url: string; deploy: () => void; close: () => Promise<void> }> {
  const upstream = new URL(target);
  let deployed = false;
  const server = http.createServer((req, res) => {
    const rewrite = deployed && (req.url ?? '').split('?')[0] === '/sw.js';
    const headers: http.OutgoingHttpHeaders = { ...req.headers, host: upstream.host };
    if (rewrite) {
      // the whole body, as it is now: no compression, no "not modified"
      for (const name of ['accept-encoding', 'if-none-match', 'if-modified-since']) {
        delete headers[name];
      }
    }
    const forward = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers }, (answer) => {
      if (!rewrite) {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        return;
      }
      const parts: Buffer[] = [];
      answer.on('data', (part: Buffer) => parts.push(part));
      answer.on('end', () => {
        const body = Buffer.concat(parts).toString('utf8').replace(/"version":"([^"]*)"/, '"version":"$1-next"');
        const { 'content-length': _length, etag: _etag, ...rest } = answer.headers;
        res.writeHead(answer.statusCode ?? 502, { ...rest, 'content-length': Buffer.byteLength(body) });
        res.end(body);
      });
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  // every socket, so close() ends them all (a WebSocket's included)
  const sockets = new Set<net.Socket>();
  const keep = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };
  server.on('connection', keep);
  server.on('upgrade', (req, socket, head) => {
    const up = net.connect(Number(upstream.port), upstream.hostname, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      }
      up.write(`${lines.join('\r\n')}\r\n\r\n`);
      up.write(head);
      up.pipe(socket);
      socket.pipe(up);
    });
    keep(up);
    up.on('error', () => socket.destroy());
    socket.on('error', () => up.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    deploy: () => {
      deployed = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) {
          socket.destroy();
        }
      }),
  };
}
