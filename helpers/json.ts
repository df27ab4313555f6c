// JSON without loss. Real shops use 64-bit integer ids above 2^53; JSON.parse would round them and
// the suite would then address a different zone. Unsafe numbers stay LosslessNumber (their exact text).
import { LosslessNumber, isLosslessNumber, isSafeNumber, parse, stringify } from 'lossless-json';

export { LosslessNumber, isLosslessNumber };

function parseNumberExactly(text: string): number | LosslessNumber {
  return isSafeNumber(text) ? Number(text) : new LosslessNumber(text);
}

export function parseJson(text: string): unknown {
  return parse(text, null, parseNumberExactly);
}

export function stringifyJson(value: unknown): string {
  const text = stringify(value);
  if (text === undefined) throw new TypeError('value has no JSON form');
  return text;
}

/** A stable text form: object keys sorted, numbers by value, so equal JSON gives equal text. */
export function canonicalJson(value: unknown): string {
  if (isLosslessNumber(value)) {
    const asNumber = Number(value.value);
    return isSafeNumber(value.value) ? String(asNumber) : value.value;
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

export function jsonEqual(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}
