// JSON without loss. Real shops use 64-bit integer ids above 2^53; JSON.parse would round them and
// the suite would then address a different zone. Unsafe numbers stay LosslessNumber (their exact text).
import { isLosslessNumber, isSafeNumber, LosslessNumber, parse, stringify } from 'lossless-json';

export { isLosslessNumber };

/** The deepest nesting read: lossless-json parses by recursion, and some thousands of levels overflow the stack. */
export const MAX_JSON_DEPTH = 256;

/** Thrown instead of parsing text nested past MAX_JSON_DEPTH. */
export class JsonTooDeepError extends SyntaxError {
  constructor() {
    super(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
    this.name = 'JsonTooDeepError';
  }
}

/** Whether brackets outside strings nest deeper than `limit`: one pass, no recursion, no parse. */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const character = text[i];
    if (inString) {
      if (character === '\\') i += 1;
      else if (character === '"') inString = false;
    } else if (character === '"') {
      inString = true;
    } else if (character === '[' || character === '{') {
      depth += 1;
      if (depth > limit) return true;
    } else if (character === ']' || character === '}') {
      depth -= 1;
    }
  }
  return false;
}

export function parseJson(text: string): unknown {
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) throw new JsonTooDeepError();
  return parse(text, null, (digits) => (isSafeNumber(digits) ? Number(digits) : new LosslessNumber(digits)));
}

export function stringifyJson(value: unknown): string {
  const text = stringify(value);
  if (text === undefined) throw new TypeError('value has no JSON form');
  return text;
}

/** A value as a message shows it: its stable text form, or `nothing` where there is none. */
export function shownJson(value: unknown): string {
  return value === undefined ? 'nothing' : canonicalJson(value);
}

/** A stable text form: object keys sorted, numbers by value, so equal JSON gives equal text. */
export function canonicalJson(value: unknown): string {
  if (isLosslessNumber(value)) return isSafeNumber(value.value) ? String(Number(value.value)) : value.value;
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
