// Reading and writing zone records in the target's envelope. Ids are opaque: a string, a safe
// integer, or an integer beyond 2^53 kept as its exact text, and always sent back as received.
import type { TargetConfig } from '../config.ts';
import { isLosslessNumber } from '../json.ts';
import { NotJsonBody } from './what-came-back.ts';

/** Thrown where the shop's answers leave a check nothing to stand on (a zone could not be created); the preflight catches it too. */
export class PreconditionError extends Error {
  override name = 'PreconditionError';
}

export interface ZoneId {
  /** The id exactly as it goes into the path. */
  text: string;
}

export interface ZoneRecord {
  id: ZoneId;
  name: unknown;
  coverage: unknown;
  status: unknown;
  raw: Record<string, unknown>;
}

/** Why an answer could not be read as what it should hold, in words a failure message can show. */
export type Unreadable = { ok: false; problem: string };

/** An answer read as what it should hold (under `Key`), or why it could not be. */
export type Read<Key extends string, Value> = ({ ok: true } & Record<Key, Value>) | Unreadable;

export type ZoneRead = Read<'zone', ZoneRecord>;
export type ZonesRead = Read<'zones', ZoneRecord[]>;

export function unreadable(problem: string): Unreadable {
  return { ok: false, problem };
}

export function zoneIdOf(value: unknown): ZoneId | undefined {
  if (typeof value === 'string' && value !== '') return { text: value };
  if (typeof value === 'number' && Number.isSafeInteger(value)) return { text: String(value) };
  if (isLosslessNumber(value)) return { text: value.value };
  return undefined;
}

/**
 * Envelope keys and the cursor field are dotted paths into a JSON body ("data", "meta.next_cursor"):
 * shops nest their envelopes. The value at one, or undefined when a step is missing or not an object.
 */
export function valueAtPath(body: unknown, path: string): unknown {
  let value = body;
  for (const key of path.split('.')) {
    const record = asObject(value);
    // Own members only: "constructor" must not find Object's prototype in a body that lacks it.
    if (record === undefined || !Object.hasOwn(record, key)) return undefined;
    value = record[key];
  }
  return value;
}

/** A create or update body: the fields under ZONES_ZONE_KEY (in new objects for a dotted key), or bare. */
export function wrapZone(config: TargetConfig, fields: Record<string, unknown>): unknown {
  if (config.envelope === 'bare') return fields;
  // fromEntries defines own members, so even a "__proto__" segment stays a plain key.
  return config.zoneKey.split('.').reduceRight<unknown>((inner, key) => Object.fromEntries([[key, inner]]), fields);
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** As the shop wrote it, or why there is none. */
export function zoneItem(
  config: Pick<TargetConfig, 'envelope' | 'zoneKey'>,
  body: unknown,
): Read<'item', Record<string, unknown>> {
  // Not JSON at all: say what it is, rather than blame the envelope settings.
  if (body instanceof NotJsonBody) return unreadable(body.why);
  const wrapped = config.envelope === 'wrapped';
  const record = asObject(wrapped ? valueAtPath(body, config.zoneKey) : body);
  if (!record)
    return unreadable(wrapped ? `the body has no "${config.zoneKey}" object` : 'the body is not a zone object');
  return { ok: true, item: record };
}

/** As the shop wrote them, or why they could not be read. */
export function listItems(config: TargetConfig, body: unknown): Read<'items', Record<string, unknown>[]> {
  if (body instanceof NotJsonBody) return unreadable(body.why);
  const wrapped = config.envelope === 'wrapped';
  const list = wrapped ? valueAtPath(body, config.listKey) : body;
  if (!Array.isArray(list))
    return unreadable(wrapped ? `the body has no "${config.listKey}" array` : 'the body is not an array');
  const index = list.findIndex((item) => asObject(item) === undefined);
  if (index >= 0) return unreadable(`list item ${index} is not an object`);
  return { ok: true, items: list as Record<string, unknown>[] };
}

export function readZone(config: TargetConfig, body: unknown): ZoneRead {
  const read = zoneItem(config, body);
  return read.ok ? toZoneRecord(config, read.item) : read;
}

export function readZoneList(config: TargetConfig, body: unknown): ZonesRead {
  const read = listItems(config, body);
  return read.ok ? toZoneRecords(config, read.items) : read;
}

export function toZoneRecords(config: TargetConfig, items: readonly Record<string, unknown>[]): ZonesRead {
  const zones: ZoneRecord[] = [];
  for (const [index, item] of items.entries()) {
    const read = toZoneRecord(config, item);
    if (!read.ok) return unreadable(`list item ${index}: ${read.problem}`);
    zones.push(read.zone);
  }
  return { ok: true, zones };
}

/** Never an inherited member: "__proto__" or "constructor" in a body is a plain member (lossless-json defines it as one). */
function ownMember(record: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

function toZoneRecord(config: TargetConfig, record: Record<string, unknown>): ZoneRead {
  const idValue = ownMember(record, config.idField);
  const id = zoneIdOf(idValue);
  if (!id) return unreadable(`the record has no usable "${config.idField}" (got ${JSON.stringify(String(idValue))})`);
  const [name, coverage, status] = ['name', 'coverage', 'status'].map((key) => ownMember(record, key));
  return { ok: true, zone: { id, name, coverage, status, raw: record } };
}
