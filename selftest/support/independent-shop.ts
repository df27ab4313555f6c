// A zone service written here from the specification alone, sharing nothing with the reference (reference/): a
// second, independent correct implementation in the Shopify spelling, for the tests that certify from the outside a
// shop this project did not build. Its zones live in a Map; a zone gets booking history through a path of its own,
// which its booking hooks call.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface IndependentShop {
  url: string;
  /** The ZONES_* settings that point the suite at it, its booking hooks included. */
  settings: Record<string, string>;
  close(): Promise<void>;
}

interface Zone {
  id: number;
  name: string;
  coverage: unknown;
  status: string;
  booked: boolean;
}

const STATUSES = ['draft', 'published'];
const API = '/admin/api/2026-07/';

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
}

/** Why the fields sent cannot make or change a zone, or undefined when they can. */
function problemOf(fields: Record<string, unknown>, creating: boolean): string | undefined {
  const { name, coverage, status } = fields;
  if ((creating || name !== undefined) && (typeof name !== 'string' || name.trim() === '' || name.length > 255))
    return 'name must be text of 1 to 255 characters';
  if (creating && coverage === undefined) return 'coverage is required';
  if (!creating && status !== undefined && !STATUSES.includes(status as string)) return 'status is not known';
  return undefined;
}

/** A booking hook of this shop: node, always there, asks its booking path (POST books, DELETE clears). */
const hook = (method: string) =>
  `"${process.execPath}" -e "fetch(process.env.ZONES_BASE_URL+'/test-bookings/'+process.env.ZONE_ID,{method:'${method}'}).then(r=>process.exit(r.ok?0:1),()=>process.exit(2))"`;

export async function startIndependentShop(token = 'independent_shop_token_0123'): Promise<IndependentShop> {
  const zones = new Map<number, Zone>();
  let nextId = 501;
  const shown = ({ id, name, coverage, status }: Zone) => ({ id, name, coverage, status });
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://shop.invalid');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const booking = /^\/test-bookings\/(\d+)$/.exec(url.pathname);
    if (booking) {
      const zone = zones.get(Number(booking[1]));
      if (zone) zone.booked = req.method === 'POST';
      return send(res, zone ? 200 : 404, {});
    }
    if (!url.pathname.startsWith(API)) return send(res, 404, { errors: 'Not Found' });
    if (req.headers['x-shopify-access-token'] !== token) return send(res, 401, { errors: 'Invalid access token' });
    let body: { zone?: Record<string, unknown> } | undefined;
    try {
      body = raw === '' ? undefined : JSON.parse(raw);
    } catch {
      return send(res, 400, { errors: 'the body is not JSON' });
    }
    const fields = body !== null && typeof body === 'object' && typeof body.zone === 'object' ? body.zone : undefined;
    const path = url.pathname.slice(API.length);
    if (path === 'zones.json' && req.method === 'GET') {
      const status = url.searchParams.get('status');
      const listed = [...zones.values()].filter((zone) => status === null || zone.status === status);
      return send(res, 200, { zones: listed.map(shown) });
    }
    if (path === 'zones.json' && req.method === 'POST') {
      const problem = fields === null || fields === undefined ? 'a zone object is required' : problemOf(fields, true);
      if (problem) return send(res, 422, { errors: problem });
      const zone = {
        id: nextId++,
        name: fields!.name as string,
        coverage: fields!.coverage,
        status: 'draft',
        booked: false,
      };
      zones.set(zone.id, zone);
      return send(res, 201, { zone: shown(zone) });
    }
    const one = /^zones\/(\d+)\.json$/.exec(path);
    const zone = one ? zones.get(Number(one[1])) : undefined;
    if (!one || (req.method !== 'PUT' && req.method !== 'DELETE')) return send(res, one ? 405 : 404, { errors: 'no' });
    if (!zone) return send(res, 404, { errors: 'Not Found' });
    if (req.method === 'DELETE') {
      if (zone.booked) return send(res, 422, { errors: 'the zone has booking history' });
      zones.delete(zone.id);
      return send(res, 200, {});
    }
    const problem = fields === null || fields === undefined ? 'a zone object is required' : problemOf(fields, false);
    if (problem) return send(res, 422, { errors: problem });
    for (const key of ['name', 'coverage', 'status'] as const)
      if (fields![key] !== undefined) (zone as unknown as Record<string, unknown>)[key] = fields![key];
    return send(res, 200, { zone: shown(zone) });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    settings: {
      ZONES_BASE_URL: url,
      ZONES_ACCESS_TOKEN: token,
      ZONES_BOOKING_HOOK: hook('POST'),
      ZONES_BOOKING_CLEANUP_HOOK: hook('DELETE'),
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
