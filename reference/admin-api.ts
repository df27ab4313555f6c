// The four zone endpoints: credential first, then the operation.
import type { IncomingMessage } from 'node:http';
import { letsThrough, refusalFor } from './access.ts';
import { readJsonBody } from './body.ts';
import { type Credential, checkCredential } from './credentials.ts';
import { createZone } from './operations/create.ts';
import { deleteZone } from './operations/delete.ts';
import { listedRecords, listZones } from './operations/list.ts';
import { updateZone } from './operations/update.ts';
import { notFound, type Reply, reply } from './respond.ts';
import { matchAdminRoute, type Operation } from './routes.ts';
import type { ZoneService } from './service.ts';

interface Call {
  req: IncomingMessage;
  operation: Operation;
  zoneId: string;
  query: URLSearchParams;
}

function unauthorized({ style }: ZoneService, extra: Record<string, unknown> = {}): Reply {
  const headers: Record<string, string> = style.authScheme ? { 'www-authenticate': style.authScheme } : {};
  return reply(
    style.codes?.unauthenticated ?? 401,
    { errors: `a valid credential is required in the ${style.authHeader} header`, ...extra },
    headers,
  );
}

async function perform(service: ZoneService, { req, operation, zoneId, query }: Call): Promise<Reply> {
  switch (operation) {
    case 'list':
      return listZones(service, query);
    case 'delete':
      return deleteZone(service, zoneId);
    case 'create':
    case 'update': {
      const body = await readJsonBody(req);
      if (!body.ok) return body.reply;
      return operation === 'create' ? createZone(service, body.value) : updateZone(service, zoneId, body.value);
    }
  }
}

async function refuse(service: ZoneService, call: Call, credential: Exclude<Credential, 'valid'>): Promise<Reply> {
  const refusal = refusalFor(service.fault, call.operation, credential);
  switch (refusal.kind) {
    case 'refuse-with-200':
      return reply(200, { errors: 'unauthorized' });
    case 'refuse-leaking-zones':
      return unauthorized(service, { zones: listedRecords(service, call.query) });
    case 'refuse-but-perform':
      await perform(service, call);
      return unauthorized(service);
    case 'refuse':
      return unauthorized(service);
  }
}

export async function answerAdminRequest(
  service: ZoneService,
  token: string,
  req: IncomingMessage,
  pathname: string,
  query: URLSearchParams,
): Promise<Reply> {
  const { style } = service;
  if (style.latencyMs) await new Promise((resolve) => setTimeout(resolve, style.latencyMs));
  // A shop's limit counts every request, a refused one too, before it looks at anything else.
  const wait = service.bucket?.take();
  if (wait !== undefined) return reply(429, { errors: 'too many requests' }, { 'retry-after': String(wait) });
  const credential = checkCredential(req, style, token, service.fault);
  const route = matchAdminRoute(pathname, req.method ?? '', service.fault, style.apiVersion);
  if (route.kind !== 'operation') {
    if (credential !== 'valid') return unauthorized(service);
    if (route.kind === 'not-found') return notFound();
    return reply(405, { errors: `method ${req.method} is not allowed here` }, { allow: route.allow.join(', ') });
  }
  const call: Call = { req, operation: route.operation, zoneId: route.zoneId, query };
  const filtered = (query.get(style.statusParam) ?? '') !== '';
  if (credential !== 'valid' && !letsThrough(service.fault, call.operation, credential, filtered))
    return refuse(service, call, credential);
  return perform(service, call);
}
