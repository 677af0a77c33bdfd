import net from 'node:net';

/**
 * The phone's link to the server: a TCP proxy on 127.0.0.1 in front of `target` that can lose
 * coverage. While down, it closes every connection it holds and refuses new ones, whoever opens
 * them (the page, its service worker, the browser itself) — what a phone out of coverage gets,
 * which the browser's offline emulation alone does not always give (it covers the page; a test
 * once saw an action reach the server while emulated offline).
 */
export interface Coverage {
  url: string;
  setCovered: (covered: boolean) => void;
  close: () => Promise<void>;
}

export async function coverageProxy(target: string): Promise<Coverage> {
  const upstream = new URL(target);
  let covered = true;
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    if (!covered) {
      client.destroy();
      return;
    }
    const server = net.connect(Number(upstream.port), upstream.hostname);
    for (const socket of [client, server]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(server);
    server.pipe(client);
    client.on('close', () => server.destroy());
    server.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    setCovered(next) {
      covered = next;
      if (!next) {
        for (const socket of open) socket.destroy();
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
