// Lists split into pages, for the styles that page (HouseStyle.paging). A page number or cursor the
// shop cannot read is the client's mistake: a 400 that says so, never a crash or a quiet first page.
import { type Reply, reply } from './respond.ts';
import type { ListPaging } from './styles.ts';
import type { StoredZone, ZoneStore } from './zone-store.ts';

export type ListPage = { ok: true; zones: StoredZone[]; nextCursor?: string } | { ok: false; reply: Reply };

/** One page of `zones` (already filtered, in creation order), as the query asks for it. */
export function pageOf(paging: ListPaging, store: ZoneStore, zones: StoredZone[], query: URLSearchParams): ListPage {
  // An empty value counts as none, as for the status filter.
  const asked = query.get(paging.param) ?? '';
  return paging.kind === 'page' ? byPageNumber(paging, zones, asked) : byCursor(paging, store, zones, asked);
}

function byPageNumber(paging: ListPaging, zones: StoredZone[], asked: string): ListPage {
  if (asked !== '' && !/^[1-9][0-9]{0,8}$/.test(asked))
    return refused(`${paging.param} must be a whole number from 1 (got "${asked}")`);
  const start = ((asked === '' ? 1 : Number(asked)) - 1) * paging.size;
  return { ok: true, zones: zones.slice(start, start + paging.size) };
}

// A cursor names the last zone shown by its place in creation order, not by an offset: zones
// created or deleted between two pages then neither show twice nor slip through.
function byCursor(paging: ListPaging, store: ZoneStore, zones: StoredZone[], asked: string): ListPage {
  let rest = zones;
  if (asked !== '') {
    const after = positionIn(asked);
    if (after === undefined) return refused(`${paging.param} is not a cursor this shop gave out (got "${asked}")`);
    rest = zones.filter((zone) => store.positionOf(zone.id) > after);
  }
  const shown = rest.slice(0, paging.size);
  const last = shown.at(-1);
  return {
    ok: true,
    zones: shown,
    nextCursor: rest.length > shown.length && last ? cursorAfter(store.positionOf(last.id)) : undefined,
  };
}

const cursorAfter = (position: number): string => Buffer.from(`after:${position}`).toString('base64url');

function positionIn(cursor: string): number | undefined {
  const match = /^after:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  const position = match ? Number(match[1]) : undefined;
  // base64url decoding skips what it cannot read; only a cursor written exactly as given out counts.
  return position !== undefined && cursorAfter(position) === cursor ? position : undefined;
}

const refused = (why: string): ListPage => ({ ok: false, reply: reply(400, { errors: why }) });
