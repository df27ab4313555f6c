// Envelope keys and cursor fields as dotted paths ("data", "meta.next_cursor"): where a style puts
// things in a body, and where it looks for them in a request.

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The value at the path; undefined when a step is missing or not an object. Own members only. */
export function valueAtPath(body: unknown, path: string): unknown {
  let value = body;
  for (const key of path.split('.')) {
    if (!isObject(value) || !Object.hasOwn(value, key)) return undefined;
    value = value[key];
  }
  return value;
}

/** Puts the value at the path, making the objects on the way; a body may hold several paths. */
export function putAtPath(body: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let holder = body;
  for (const key of keys.slice(0, -1)) {
    const next = Object.hasOwn(holder, key) ? holder[key] : undefined;
    if (next !== undefined && !isObject(next))
      throw new Error(`style error: "${path}" runs through a value that is not an object`);
    if (next === undefined)
      Object.defineProperty(holder, key, { value: {}, enumerable: true, writable: true, configurable: true });
    holder = holder[key] as Record<string, unknown>;
  }
  Object.defineProperty(holder, keys.at(-1)!, { value, enumerable: true, writable: true, configurable: true });
}

/** What a client should send, for the error that says it did not: {"data": {...}} and the like. */
export function exampleAtPath(path: string): string {
  return path.split('.').reduceRight((inner, key) => `{${JSON.stringify(key)}: ${inner}}`, '{...}');
}
