// Ids are opaque and exact: 64-bit integers above 2^53 must come back to the target digit for digit,
// or the suite would update or delete a zone other than the one it means.
import { expect, test } from 'vitest';
import {
  readZone,
  readZoneList,
  wrapZone,
  type ZoneRead,
  type ZonesRead,
  zoneIdOf,
} from '../helpers/client/records.ts';
import { readTargetConfig } from '../helpers/config.ts';
import { canonicalJson, jsonEqual, parseJson, stringifyJson } from '../helpers/json.ts';

const wrapped = readTargetConfig({});
const bare = readTargetConfig({ ZONES_ENVELOPE: 'bare', ZONES_ID_FIELD: 'zone_id' });
/** The id read, or why none was: a failed read shows its problem in the assertion. */
const idText = (read: ZoneRead) => (read.ok ? read.zone.id.text : read.problem);
const idTexts = (read: ZonesRead) => (read.ok ? read.zones.map((zone) => zone.id.text) : read.problem);

test('an id above 2^53 is read and written back with every digit', () => {
  const text = '{"zone":{"id":9007199254740993,"name":"n","coverage":{},"status":"draft"}}';
  expect(idText(readZone(wrapped, parseJson(text)))).toBe('9007199254740993');
  // What plain JSON.parse would have done, and why the suite does not use it for bodies:
  expect(String(JSON.parse(text).zone.id)).toBe('9007199254740992');
  expect(stringifyJson(parseJson(text))).toBe(text);
});

test.for([
  ['string ids', '"zn_8f3k2"', 'zn_8f3k2'],
  ['safe integers', '1001', '1001'],
  ['integers above 2^53', '18446744073709551615', '18446744073709551615'],
] as const)('%s keep their exact text', ([, raw, expected]) => {
  expect(zoneIdOf(parseJson(raw))?.text).toBe(expected);
});

test('unusable ids are refused rather than guessed', () => {
  for (const raw of ['null', '""', '1.5', '{}', '[]', 'true']) expect(zoneIdOf(parseJson(raw))).toBeUndefined();
});

test('a bare list with another id field is read', () => {
  const zones = readZoneList(bare, parseJson('[{"zone_id":"a","name":"x","coverage":1,"status":"draft"}]'));
  expect(idTexts(zones)).toEqual(['a']);
});

test('a list in the wrong envelope is reported, not half-read', () => {
  expect(idTexts(readZoneList(wrapped, parseJson('[]')))).toMatch(/no "zones" array/);
  expect(idTexts(readZoneList(bare, parseJson('{"zones":[]}')))).toMatch(/not an array/);
  expect(idTexts(readZoneList(wrapped, parseJson('{"zones":[{"name":"no id"}]}')))).toMatch(/item 0.*"id"/);
});

test('envelope keys may be dotted paths, and 64-bit ids inside them keep every digit', () => {
  const nested = readTargetConfig({ ZONES_ZONE_KEY: 'data', ZONES_LIST_KEY: 'data.items', ZONES_ID_FIELD: 'zone_id' });
  const one = readZone(nested, parseJson('{"data":{"zone_id":18446744073709551615,"name":"n"}}'));
  expect(idText(one)).toBe('18446744073709551615');
  const list = readZoneList(
    nested,
    parseJson('{"data":{"items":[{"zone_id":9007199254740993},{"zone_id":9007199254740992}]},"meta":{}}'),
  );
  expect(idTexts(list)).toEqual(['9007199254740993', '9007199254740992']);
});

test('a body without the configured key is reported naming the key looked for', () => {
  const nested = readTargetConfig({ ZONES_ZONE_KEY: 'data.zone', ZONES_LIST_KEY: 'data.items' });
  const noZone = { ok: false, problem: 'the body has no "data.zone" object' };
  const noItems = { ok: false, problem: 'the body has no "data.items" array' };
  expect(readZone(nested, parseJson('{"data":{"id":1}}'))).toEqual(noZone);
  expect(readZone(nested, parseJson('{"zone":{"id":1}}'))).toEqual(noZone);
  expect(readZoneList(nested, parseJson('{"data":[{"id":1}]}'))).toEqual(noItems);
  expect(readZoneList(nested, parseJson('{"data":{"items":{"id":1}}}'))).toEqual(noItems);
  // A key is looked up among the body's own members, never on Object's prototype.
  expect(readZone(readTargetConfig({ ZONES_ZONE_KEY: 'constructor' }), parseJson('{}'))).toEqual({
    ok: false,
    problem: 'the body has no "constructor" object',
  });
});

test('create and update bodies are wrapped under the zone key, nested for a dotted key', () => {
  const fields = { name: 'n', coverage: parseJson('{"shop":12345678901234567890}') as object };
  expect(stringifyJson(wrapZone(wrapped, fields))).toBe(
    '{"zone":{"name":"n","coverage":{"shop":12345678901234567890}}}',
  );
  expect(stringifyJson(wrapZone(readTargetConfig({ ZONES_ZONE_KEY: 'data.attributes' }), fields))).toBe(
    '{"data":{"attributes":{"name":"n","coverage":{"shop":12345678901234567890}}}}',
  );
  expect(wrapZone(bare, fields)).toBe(fields);
  // A hostile key stays a plain member; it never becomes the object's prototype.
  const odd = wrapZone(readTargetConfig({ ZONES_ZONE_KEY: '__proto__' }), fields) as object;
  expect(Object.getPrototypeOf(odd)).toBe(Object.prototype);
  expect(stringifyJson(odd)).toBe('{"__proto__":{"name":"n","coverage":{"shop":12345678901234567890}}}');
});

test('JSON equality ignores key order and number spelling but not values', () => {
  expect(jsonEqual(parseJson('{"a":[1,2],"b":1.0}'), parseJson('{"b":1,"a":[1,2]}'))).toBe(true);
  expect(jsonEqual(parseJson('{"a":9007199254740993}'), parseJson('{"a":9007199254740992}'))).toBe(false);
  expect(jsonEqual(parseJson('[1,2]'), parseJson('[2,1]'))).toBe(false);
  expect(canonicalJson(parseJson('{"b":{"d":1,"c":2},"a":null}'))).toBe('{"a":null,"b":{"c":2,"d":1}}');
});
