// Reading, slicing and rewriting list answers. Ids may exceed 2^53, so bodies go through lossless-json
// both ways: a proxy that rounded ids would make the suite fail for the proxy's fault.
import { parse, stringify } from 'lossless-json';

export type Envelope = 'wrapped' | 'bare';

export const PAGE_PARAM = 'page_info';

export interface ListBody {
  body: unknown;
  items: unknown[];
}

/** Undefined when the text is not a list in the expected envelope: such answers pass through untouched. */
export function readList(text: string, envelope: Envelope): ListBody | undefined {
  let body: unknown;
  try {
    body = parse(text);
  } catch {
    return undefined;
  }
  const items = envelope === 'bare' ? body : (body as { zones?: unknown } | null)?.zones;
  return Array.isArray(items) ? { body, items } : undefined;
}

export function writeList({ body }: ListBody, items: unknown[], envelope: Envelope): string {
  // Other envelope fields are kept so the page differs from the full answer only in its items.
  return stringify(envelope === 'bare' ? items : { ...(body as object), zones: items }) ?? '[]';
}

// Opaque on purpose: a client must follow the Link header, not compute offsets of its own.
export const cursorFor = (offset: number): string => Buffer.from(`offset:${offset}`).toString('base64url');

/** The first page for no cursor; undefined for a cursor this proxy never gave out. */
export function offsetFrom(cursor: string | null): number | undefined {
  if (cursor === null) return 0;
  const match = /^offset:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return match ? Number(match[1]) : undefined;
}
