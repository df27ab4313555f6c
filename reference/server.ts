import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerAdminRequest } from './admin-api.ts';
import { answerControlRequest, isControlPath } from './control.ts';
import { loadDataFile, saveDataFile } from './data-file.ts';
import { type Fault, resolveFault } from './faults.ts';
import { inHouseSpelling } from './house-spelling.ts';
import { notFound, type Reply, reply, sendReply } from './respond.ts';
import { isAdminPath } from './routes.ts';
import { createZoneService, plantZone, type ZoneService } from './service.ts';
import { type HouseStyle, resolveStyle } from './styles.ts';
import type { StoredZone } from './zone-store.ts';

export interface ReferenceOptions {
  host?: string;
  port?: number;
  token?: string;
  style?: string | HouseStyle;
  fault?: string;
  /** A JSON file the zones are kept in across restarts (see data-file.ts); in memory when absent. */
  dataFile?: string;
}

export interface RunningReference {
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:41234 */
  url: string;
  token: string;
  style: HouseStyle;
  fault?: Fault;
  /** For self-tests: zones planted before a run, and what the store really keeps, past the API and any fault. */
  backdoor: {
    plant(fields: { name: string; coverage: unknown; bookings?: number }): string;
    stored(id: string): StoredZone | undefined;
    /** Every zone the store keeps. */
    all(): StoredZone[];
  };
  close(): Promise<void>;
}

async function answer(service: ZoneService, token: string, req: IncomingMessage): Promise<Reply> {
  // Split by hand: new URL() would read a path such as //host/x as a host name.
  const target = req.url ?? '/';
  const queryStart = target.indexOf('?');
  const pathname = queryStart < 0 ? target : target.slice(0, queryStart);
  const query = new URLSearchParams(queryStart < 0 ? '' : target.slice(queryStart + 1));
  if (isControlPath(pathname)) return answerControlRequest(service, req.method ?? '', pathname);
  if (isAdminPath(pathname)) return answerAdminRequest(service, token, req, pathname, query);
  return notFound();
}

const internalError = (): Reply => reply(500, { errors: 'Internal Server Error' });

// Only a bug in the reference lands in these catches; every client mistake has its own 4xx.
async function respond(service: ZoneService, token: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  let outcome: Reply;
  try {
    outcome = await answer(service, token, req);
  } catch (error) {
    console.error('reference: internal error', error);
    outcome = internalError();
  }
  if (res.headersSent || res.destroyed) return;
  try {
    sendReply(res, inHouseSpelling(service.style, outcome), service.style.contentType);
  } catch (error) {
    console.error('reference: could not write the response', error);
    if (!res.headersSent) sendReply(res, internalError());
  }
}

function handler(service: ZoneService, token: string) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    respond(service, token, req, res).catch((error: unknown) => {
      console.error('reference: response failed', error);
      res.destroy();
    });
  };
}

function urlFor(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

export async function startReference(options: ReferenceOptions = {}): Promise<RunningReference> {
  const style = resolveStyle(options.style);
  const fault = resolveFault(options.fault);
  const host = options.host ?? '127.0.0.1';
  const token = options.token ?? `ref_${randomBytes(12).toString('hex')}`;
  const service = createZoneService(style, fault);
  if (options.dataFile !== undefined) {
    const path = options.dataFile;
    loadDataFile(path, service.store);
    service.store.onChange = () => saveDataFile(path, service.store);
  }
  const server = createServer(handler(service, token));

  return new Promise<RunningReference>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      const { port } = server.address() as AddressInfo;
      resolve({
        url: urlFor(host, port),
        token,
        style,
        ...(fault ? { fault } : {}),
        backdoor: {
          plant: (fields) => plantZone(service, fields),
          stored: (id) => service.store.find(id),
          all: () => service.store.all(),
        },
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((error) => (error ? fail(error) : done()));
            // Idle keep-alive sockets would otherwise hold close() open until they time out.
            server.closeAllConnections();
          }),
      });
    });
  });
}
