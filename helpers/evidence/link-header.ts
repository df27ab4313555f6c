// The Link response header (RFC 8288), read one way for the client that follows a list's pages and for
// the evidence that tells a next page from a new read: read two ways, drift lines up pages never asked for.

/** Where a list goes on, as a Link header says: a next page (or none), or an address that is no URL. */
export type NextPageLink = { ok: true; next?: string } | { ok: false; target: string; problem: string };

/** Resolved against the page it came with; rel is a list of types, quoted or bare, and first, last, prev or nextpage name no page. */
export function nextPageLink(link: string | undefined, base: string): NextPageLink {
  for (const value of link?.split(/,(?=\s*<)/) ?? []) {
    const [, target, params] = /^\s*<([^>]*)>(.*)$/s.exec(value) ?? [];
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;"]+))/i.exec(params ?? '');
    if (target === undefined || !(rel?.[1] ?? rel?.[2])?.toLowerCase().split(/\s+/).includes('next')) continue;
    try {
      return { ok: true, next: new URL(target, base).toString() };
    } catch (error) {
      return { ok: false, target, problem: (error as Error).message };
    }
  }
  return { ok: true };
}
