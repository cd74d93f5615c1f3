// A TCP relay in front of a real server, so a test can take that server off the network and
// bring it back without stopping it: closed, the relay refuses connections and cuts the ones it
// carries, as a server that went down would; opened again, it listens on the same port.
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export class TcpRelay {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private port = 0;

  private constructor(private readonly target: URL) {}

  /** A relay to `targetUrl` (http://host:port), listening on a free local port. */
  static async start(targetUrl: string): Promise<TcpRelay> {
    const relay = new TcpRelay(new URL(targetUrl));
    await relay.open();
    return relay;
  }

  /** The target's URL with the relay's port in place of its own. */
  get url(): string {
    const url = new URL(this.target);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.toString().replace(/\/$/, '');
  }

  async open(): Promise<void> {
    const server = createServer((client) => {
      const upstream = createConnection({ host: this.target.hostname, port: Number(this.target.port) });
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {}); // a cut connection is the point; its peer is destroyed below
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
