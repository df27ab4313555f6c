// The shape of a JSON answer: each path it holds and the JSON type found there. Values are left out
// (ids, times, other people's zones differ between any two shops); the keys and their types are
// what a client of the mock relies on, and what changes when the mock is generated from another schema.
import { isLosslessNumber } from '../json.ts';

type JsonType = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';

/** Path to the set of JSON types found there, e.g. `zone.id` -> number, `zones[].name` -> string. */
export type Shape = Map<string, Set<JsonType>>;

function jsonTypeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (isLosslessNumber(value) || typeof value === 'number') return 'number';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object') return 'object';
  return typeof value === 'boolean' ? 'boolean' : 'string';
}

/**
 * Every path of the values (the pages of one list read) with every type any had there; an array's items share one
 * path (`[]`); `opaque` paths are typed, not entered. At `ownItems.at` only the run's own items are read: others'
 * zones may carry other fields, and with none of the run's own the items' shape is unknown (`[]` absent, not compared).
 */
export function shapeOf(
  values: readonly unknown[],
  ownItems?: { at: string; isOwn: (item: unknown) => boolean },
  opaque: ReadonlySet<string> = new Set(),
): Shape {
  const shape: Shape = new Map();
  const add = (path: string, item: unknown): void => {
    const type = jsonTypeOf(item);
    shape.set(path, (shape.get(path) ?? new Set<JsonType>()).add(type));
    // The client's own data sent back (a zone's coverage) has the shape the client gave it, not one of the shop's.
    if (opaque.has(path)) return;
    if (type === 'array') {
      const items = item as unknown[];
      for (const element of path === ownItems?.at ? items.filter(ownItems.isOwn) : items) add(`${path}[]`, element);
    } else if (type === 'object')
      for (const [key, member] of Object.entries(item as Record<string, unknown>))
        add(path === '' ? key : `${path}.${key}`, member);
  };
  for (const value of values) add('', value);
  return shape;
}

function typesText(types: Set<JsonType> | undefined): string {
  return types === undefined ? 'absent' : [...types].sort().join(' or ');
}

/**
 * Where two shapes part, each at the highest path that differs (a field one side lacks is one difference), and
 * inside an array only when both sides had items there: an empty list says nothing about its items' shape.
 */
export function shapeDifferences(service: Shape, mock: Shape): { path: string; service: string; mock: string }[] {
  const found: { path: string; service: string; mock: string }[] = [];
  for (const path of [...new Set([...service.keys(), ...mock.keys()])].sort()) {
    if (found.some((above) => isBelow(path, above.path)) || !bothHaveItemsAbove(path, service, mock)) continue;
    const a = typesText(service.get(path));
    const b = typesText(mock.get(path));
    if (a !== b) found.push({ path, service: a, mock: b });
  }
  return found;
}

function isBelow(path: string, above: string): boolean {
  if (above === '') return path !== '';
  return path.startsWith(`${above}.`) || path.startsWith(`${above}[]`);
}

/** Whether, for every array on the way to `path`, both sides had an item there. */
function bothHaveItemsAbove(path: string, service: Shape, mock: Shape): boolean {
  for (let at = path.indexOf('[]'); at >= 0; at = path.indexOf('[]', at + 2))
    if (!service.has(path.slice(0, at + 2)) || !mock.has(path.slice(0, at + 2))) return false;
  return true;
}
