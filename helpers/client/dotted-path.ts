// Envelope keys and the cursor field are dotted paths into a JSON body ("data", "meta.next_cursor"):
// each segment names a member of an object. Shops nest their envelopes; a path says where without code.

/** The value at the path, or undefined when a step is missing or not an object. Own members only. */
export function valueAtPath(body: unknown, path: string): unknown {
  let value = body;
  for (const key of path.split('.')) {
    // Own members only: "constructor" must not find Object's prototype in a body that lacks it.
    if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, key))
      return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** The value nested in new objects so that valueAtPath(result, path) gives it back. */
export function nestUnderPath(path: string, value: unknown): Record<string, unknown> {
  // fromEntries defines own members, so even a "__proto__" segment stays a plain key.
  return path.split('.').reduceRight<unknown>((inner, key) => Object.fromEntries([[key, inner]]), value) as Record<
    string,
    unknown
  >;
}
