// A forward proxy of the kind CI networks put between a job and its staging shop, on 127.0.0.1 only.
// It knows host names nobody else resolves (`staging.internal` -> 127.0.0.1), so a run that reaches
// such a host can only have come through it. It takes absolute-form requests (http:// shops) and
// CONNECT tunnels (https:// shops), may ask for credentials, and logs every request it carries.
import { createServer, type IncomingMessage, request } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { upstreamFailed } from './fronts.ts';

export interface ForwardProxy {
  /** http://127.0.0.1:PORT */
  url: string;
  /** What it carried, in order: `GET http://host:port/path` or `CONNECT host:port`. */
  log: string[];
  close(): Promise<void>;
}

export interface ForwardProxyOptions {
  /** Host names only this proxy resolves, each to the address it stands for (the port is kept). */
  hosts: Record<string, string>;
  /** `user:password` it requires in Proxy-Authorization; without it, anyone may use it. */
  credentials?: string;
}

export async function startForwardProxy(options: ForwardProxyOptions): Promise<ForwardProxy> {
  const log: string[] = [];
  const sockets = new Set<Socket>();
  const resolve = (hostname: string) => options.hosts[hostname.toLowerCase()];
  const authorised = (req: IncomingMessage) =>
    options.credentials === undefined ||
    req.headers['proxy-authorization'] === `Basic ${Buffer.from(options.credentials).toString('base64')}`;

  const server = createServer((req, res) => {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      // Origin-form: somebody asked the proxy itself, not through it.
      res.writeHead(400).end('a forward proxy takes absolute-form requests only');
      return;
    }
    if (!authorised(req)) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="selftest"' }).end();
      return;
    }
    const address = resolve(target.hostname);
    if (address === undefined || target.protocol !== 'http:') {
      res.writeHead(502, { 'content-type': 'text/plain' }).end(`the proxy cannot resolve ${target.hostname}`);
      return;
    }
    log.push(`${req.method} ${target.href}`);
    const { 'proxy-authorization': _auth, 'proxy-connection': _connection, ...headers } = req.headers;
    const onward = request(
      {
        host: address,
        port: target.port || 80,
        method: req.method,
        path: `${target.pathname}${target.search}`,
        headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    onward.on('error', () => upstreamFailed(res));
    req.pipe(onward);
  });

  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    if (!authorised(req)) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="selftest"\r\n\r\n');
      return;
    }
    const [hostname, port] = (req.url ?? '').split(':');
    const address = resolve(hostname ?? '');
    if (address === undefined || !port) {
      client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
      return;
    }
    log.push(`CONNECT ${req.url}`);
    const upstream = connect(Number(port), address, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
  });

  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    log,
    close: () =>
      new Promise((done) => {
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
