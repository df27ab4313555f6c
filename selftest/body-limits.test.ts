// The pieces that keep a run bounded whatever the target sends: the body reader stops at the byte
// limit and at the deadline, the nesting pre-check refuses what would overflow the parser's stack,
// and keys such as "__proto__" stay plain members of a record.
import { Readable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { readZoneList, type ZoneRecord } from '../helpers/client/records.ts';
import { describeNotJson, printable } from '../helpers/client/what-came-back.ts';
import { readTargetConfig } from '../helpers/config.ts';
import { EVIDENCE_BYTES, readBodyWithin } from '../helpers/connection/body-limits.ts';
import {
  canonicalJson,
  JsonTooDeepError,
  MAX_JSON_DEPTH,
  nestsDeeperThan,
  parseJson,
  stringifyJson,
} from '../helpers/json.ts';

const neverAborted = new AbortController().signal;

/** An endless body, counting what the reader pulled from it. */
function endless(chunkBytes: number): { stream: Readable; pulled: () => number } {
  let pulled = 0;
  const stream = Readable.from(
    (function* () {
      for (;;) {
        pulled += 1;
        yield Buffer.alloc(chunkBytes, 0x20);
      }
    })(),
  );
  return { stream, pulled: () => pulled };
}

describe('the body reader', () => {
  test('reads a body within the limit whole, decoded as undici would (byte-order mark dropped)', async () => {
    const body = Readable.from([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"zones":'), Buffer.from('[]}')]);
    expect(await readBodyWithin(body, { maxBytes: 1024, deadline: neverAborted })).toEqual({
      whole: true,
      text: '{"zones":[]}',
    });
  });

  test('a body exactly at the limit is whole; one byte more is not', async () => {
    const at = await readBodyWithin(Readable.from([Buffer.alloc(1024, 0x20)]), {
      maxBytes: 1024,
      deadline: neverAborted,
    });
    expect(at.whole).toBe(true);
    const past = await readBodyWithin(Readable.from([Buffer.alloc(1025, 0x20)]), {
      maxBytes: 1024,
      deadline: neverAborted,
    });
    expect(past).toMatchObject({ whole: false, limit: 'size', bytesRead: 1025 });
  });

  test('an endless body is cut at the limit, the stream destroyed, and the rest never pulled', async () => {
    const { stream, pulled } = endless(1024);
    const read = await readBodyWithin(stream, { maxBytes: 64 * 1024, deadline: neverAborted });
    expect(read).toMatchObject({ whole: false, limit: 'size', bytesRead: 65 * 1024 });
    expect(stream.destroyed).toBe(true);
    // What the stream had buffered ahead (its high-water mark) at most, past the 65 chunks read.
    expect(pulled()).toBeLessThan(65 + 32);
    if (!read.whole) expect(read.head).toHaveLength(EVIDENCE_BYTES);
  });

  test('a body announced past the limit is refused after a glimpse for the evidence', async () => {
    const { stream } = endless(1024);
    const read = await readBodyWithin(stream, {
      maxBytes: 1024 * 1024,
      deadline: neverAborted,
      announcedBytes: 300 * 1024 * 1024,
    });
    expect(read).toMatchObject({ whole: false, limit: 'size', announcedBytes: 300 * 1024 * 1024 });
    expect(read.whole ? 0 : read.bytesRead).toBeLessThanOrEqual(EVIDENCE_BYTES + 1024);
  });

  test('a body still coming when the deadline fires is cut, keeping what came', async () => {
    const deadline = new AbortController();
    const stream = new Readable({ read() {} });
    stream.push('{"zo');
    // undici destroys the body when the request's signal fires; this stands in for it.
    deadline.signal.addEventListener('abort', () => stream.destroy(deadline.signal.reason as Error));
    setTimeout(() => deadline.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), 50);
    expect(await readBodyWithin(stream, { maxBytes: 1024, deadline: deadline.signal })).toEqual({
      whole: false,
      limit: 'time',
      head: '{"zo',
      bytesRead: 4,
    });
  });

  test('a connection that breaks before the deadline is a transport problem, passed on as it is', async () => {
    const stream = new Readable({ read() {} });
    stream.push('{"zo');
    setTimeout(() => stream.destroy(new Error('socket hang up')), 10);
    await expect(readBodyWithin(stream, { maxBytes: 1024, deadline: neverAborted })).rejects.toThrow('socket hang up');
  });
});

describe('the nesting pre-check', () => {
  const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

  test(`JSON nested ${MAX_JSON_DEPTH} deep is parsed; one level more is refused before parsing`, () => {
    expect(() => parseJson(nested(MAX_JSON_DEPTH))).not.toThrow();
    expect(() => parseJson(nested(MAX_JSON_DEPTH + 1))).toThrow(JsonTooDeepError);
  });

  test('100,000 levels are refused with a reason, never a stack overflow', () => {
    const deep = `{"zones":${nested(100_000)}}`;
    expect(() => parseJson(deep)).toThrow(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
    expect(() => parseJson(`{"a":`.repeat(100_000))).toThrow(JsonTooDeepError);
  });

  test('brackets inside strings do not count, escaped quotes included', () => {
    expect(nestsDeeperThan(`{"a":"${'['.repeat(1000)}"}`, 2)).toBe(false);
    expect(nestsDeeperThan(`{"a":"\\"${'{'.repeat(1000)}"}`, 2)).toBe(false);
    expect(nestsDeeperThan(`{"a":"\\\\",${'['.repeat(3)}`, 2)).toBe(true);
    expect(parseJson(`{"name":"${'['.repeat(1000)}"}`)).toEqual({ name: '['.repeat(1000) });
  });
});

describe('keys that name a prototype stay plain members', () => {
  const wrapped = readTargetConfig({});
  /** The zones of a list body that must be readable; one that is not fails with its own problem. */
  const readableList = (text: string): ZoneRecord[] => {
    const read = readZoneList(wrapped, parseJson(text));
    if (!read.ok) throw new Error(read.problem);
    return read.zones;
  };

  test('a record with a "__proto__" member is read as a plain record', () => {
    const [zone] = readableList('{"zones":[{"id":1,"__proto__":{"x":1},"name":"a"}]}');
    expect([zone!.id.text, zone!.name]).toEqual(['1', 'a']);
    expect(Object.getPrototypeOf(zone!.raw)).toBe(Object.prototype);
    expect(Object.keys(zone!.raw)).toEqual(['id', '__proto__', 'name']);
    expect((zone!.raw as { x?: unknown }).x).toBeUndefined();
    expect(({} as { x?: unknown }).x).toBeUndefined();
    expect(canonicalJson(zone!.raw)).toBe('{"__proto__":{"x":1},"id":1,"name":"a"}');
  });

  test('"constructor" and "__proto__" members change no prototype, and copies keep them as members', () => {
    const [zone] = readableList(
      '{"zones":[{"id":2,"constructor":{"prototype":{"polluted":true}},"__proto__":{"polluted":true}}]}',
    );
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    // How the client builds a create body: extra fields spread under the suite's own.
    const body = { ...zone!.raw, name: 'n' };
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
    expect(stringifyJson(body)).toBe(
      '{"id":2,"constructor":{"prototype":{"polluted":true}},"__proto__":{"polluted":true},"name":"n"}',
    );
  });

  test('an id, name or status found only under "__proto__" is not read through it', () => {
    const config = readTargetConfig({ ZONES_ID_FIELD: 'zone_id' });
    expect(readZoneList(config, parseJson('{"zones":[{"__proto__":{"zone_id":1},"name":"a"}]}'))).toEqual({
      ok: false,
      problem: expect.stringMatching(/item 0: the record has no usable "zone_id"/),
    });
    const [zone] = readableList('{"zones":[{"id":3,"__proto__":{"status":"published","name":"x"}}]}');
    expect([zone!.name, zone!.status]).toEqual([undefined, undefined]);
    // Nor through what every object inherits.
    expect(
      readZoneList(readTargetConfig({ ZONES_ID_FIELD: 'constructor' }), parseJson('{"zones":[{"name":"a"}]}')),
    ).toEqual({ ok: false, problem: 'list item 0: the record has no usable "constructor" (got "undefined")' });
  });
});

describe('what came back, said plainly', () => {
  test('an HTML page is named as one, with its content type and first characters, and a sign-in page is suspected', () => {
    const page = '<!DOCTYPE html>\n<html>\n  <head><title>Sign in</title></head>\n</html>';
    expect(describeNotJson('text/html; charset=utf-8', page, 'Unexpected character')).toBe(
      'the body is HTML, not JSON (text/html; charset=utf-8), beginning "<!DOCTYPE html> <html> <head><title>Sign in</title></head> </html>": a sign-in page? Something in front of the shop may be answering in its place',
    );
    expect(describeNotJson(undefined, '  <html lang="en">', 'x')).toMatch(
      /^the body is HTML, not JSON \(no content type\)/,
    );
  });

  test('other text is named with the parse error', () => {
    expect(describeNotJson('text/plain', 'OK', "JSON value expected but got 'O'")).toBe(
      `the body is not JSON (text/plain; JSON value expected but got 'O'), beginning "OK"`,
    );
  });

  test('the first characters are shortened and kept on one line', () => {
    expect(printable(`a\r\n\tb\u0000c${'x'.repeat(200)}`, 10)).toBe('a b?cxxxxx...');
  });
});
