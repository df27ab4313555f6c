import { type Fault, has } from './faults.ts';

const API_VERSION = '2026-07';

export type Operation = 'list' | 'create' | 'update' | 'delete';

export type AdminRoute =
  | { kind: 'operation'; operation: Operation; zoneId: string }
  | { kind: 'method-not-allowed'; allow: string[] }
  | { kind: 'not-found' };

const notFound: AdminRoute = { kind: 'not-found' };

/** Every path under /admin/api needs a credential, including ones that then turn out not to exist. */
export const isAdminPath = (pathname: string): boolean =>
  pathname === '/admin/api' || pathname.startsWith('/admin/api/');

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function choose(method: string, byMethod: Partial<Record<string, Operation>>, zoneId: string): AdminRoute {
  const allow = Object.keys(byMethod);
  if (allow.length === 0) return notFound;
  const operation = byMethod[method];
  return operation ? { kind: 'operation', operation, zoneId } : { kind: 'method-not-allowed', allow };
}

export function matchAdminRoute(
  pathname: string,
  method: string,
  fault: Fault | undefined,
  version = API_VERSION,
): AdminRoute {
  const prefix = `/admin/api/${version}/`;
  if (!pathname.startsWith(prefix)) return notFound;
  const rest = pathname.slice(prefix.length);
  // The PATH mutants move one operation off the .json address; the reference keeps all four on it.
  if (rest === 'zones.json' || rest === 'zones') {
    const hasSuffix = rest === 'zones.json';
    const byMethod: Partial<Record<string, Operation>> = {};
    if (hasSuffix !== has(fault, 'list-path-without-json')) byMethod.GET = 'list';
    if (hasSuffix !== has(fault, 'create-path-without-json')) byMethod.POST = 'create';
    return choose(method, byMethod, '');
  }

  const match = /^zones\/([^/]+)$/.exec(rest);
  if (!match) return notFound;
  const segment = match[1]!;
  const hasSuffix = segment.endsWith('.json') && segment.length > '.json'.length;
  const zoneId = decodeSegment(hasSuffix ? segment.slice(0, -'.json'.length) : segment);
  if (zoneId === undefined) return notFound;

  const byMethod: Partial<Record<string, Operation>> = {};
  if (hasSuffix !== has(fault, 'update-path-without-json')) byMethod.PUT = 'update';
  if (hasSuffix !== has(fault, 'delete-path-without-json')) byMethod.DELETE = 'delete';
  return choose(method, byMethod, zoneId);
}
