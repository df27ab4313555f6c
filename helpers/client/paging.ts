// How a list goes on past its first page. The specification shows no paging, so the manner is a
// setting (ZONES_PAGING): a Link header (the default profile), page numbers, or a next cursor in the body.
import type { TargetConfig } from '../config.ts';
import { nextPageLink } from '../evidence/link-header.ts';
import { isLosslessNumber, stringifyJson } from '../json.ts';
import type { Paging } from '../settings.ts';
import { PreconditionError, valueAtPath, type ZoneRecord } from './records.ts';

/** A page (its URL, body, Link header and records) in; the records it adds to the list, and the next page's URL unless the list ends, out. */
export type ListWalk = (page: { url: string; body: unknown; link?: string; zones: ZoneRecord[] }) => {
  zones: ZoneRecord[];
  next?: string;
};

export function startListWalk(
  config: Pick<TargetConfig, 'paging' | 'pageParam' | 'cursorField' | 'cursorParam'>,
  firstUrl: string,
): ListWalk {
  const walks: Record<Paging, () => ListWalk> = {
    link: () => (page) => ({ zones: page.zones, next: nextPageUrl(page.link, page.url) }),
    page: () => pageNumberWalk(config.pageParam, firstUrl),
    cursor: () => cursorWalk(config.cursorField, config.cursorParam, firstUrl),
  };
  return walks[config.paging]();
}

function pageNumberWalk(param: string, firstUrl: string): ListWalk {
  const seen = new Set<string>();
  let pageNumber = 1;
  return (page) => {
    const fresh = unseen(page.zones, seen);
    // A page with nothing new (empty, or the first again from a shop that ignores the parameter) ends it.
    if (fresh.length === 0) return { zones: [] };
    pageNumber += 1;
    return { zones: fresh, next: withParam(firstUrl, param, String(pageNumber)) };
  };
}

function cursorWalk(field: string, param: string, firstUrl: string): ListWalk {
  const seen = new Set<string>();
  return (page) => {
    const fresh = unseen(page.zones, seen);
    // Records all seen before (a shop that ignores the cursor, or a loop) end the list. An empty page
    // (some stores filter after paging) or a repeated cursor (scroll-style cursors) does not.
    if (page.zones.length > 0 && fresh.length === 0) return { zones: [] };
    const cursor = cursorIn(page.body, field);
    if (cursor === undefined) return { zones: fresh };
    // A cursor that is an address is followed as one; the same-host rule still applies to it.
    if (/^https?:\/\//i.test(cursor) || cursor.startsWith('/'))
      return { zones: fresh, next: new URL(cursor, page.url).toString() };
    return { zones: fresh, next: withParam(firstUrl, param, cursor) };
  };
}

function unseen(zones: ZoneRecord[], seen: Set<string>): ZoneRecord[] {
  const fresh = zones.filter((zone) => !seen.has(zone.id.text));
  for (const zone of fresh) seen.add(zone.id.text);
  return fresh;
}

function withParam(url: string, param: string, value: string): string {
  const next = new URL(url);
  next.searchParams.set(param, value);
  return next.toString();
}

function cursorIn(body: unknown, field: string): string | undefined {
  const value = valueAtPath(body, field);
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (isLosslessNumber(value)) return value.value;
  throw new PreconditionError(
    `the list's next cursor "${field}" is neither text nor a number (got ${stringifyJson(value)}), so the list cannot be read past this page`,
  );
}

/** The page a Link header names rel="next"; one that is no URL is the shop's error, not read past. */
export function nextPageUrl(link: string | undefined, current: string): string | undefined {
  const found = nextPageLink(link, current);
  if (!found.ok) throw new TypeError(found.problem);
  return found.next;
}
