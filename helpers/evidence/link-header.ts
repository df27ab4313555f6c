// The Link response header (RFC 8288) read once, the same way for the client that follows a list's
// pages and for the evidence that tells a list's next page from a new read: if the two read it
// differently, drift would line up pages the client never asked for.

/** Where a list goes on, as a Link header says: a next page (or none), or an address that is no URL. */
export type NextPageLink = { ok: true; next?: string } | { ok: false; target: string; problem: string };

/** One link-value: `<target>` and its parameters, up to the comma before the next one. */
const LINK_VALUE = /^\s*<([^>]*)>(.*)$/s;
/** The rel parameter, quoted or bare: a space-separated list of relation types. */
const REL_PARAM = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;"]+))/i;

function relationTypes(params: string): string[] {
  const rel = REL_PARAM.exec(params);
  return (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/);
}

/**
 * The page a Link header names with the relation type `next`, resolved against the page it came with.
 * Other types (first, last, prev, or a word that merely begins with next) name no page still to read.
 */
export function nextPageLink(link: string | undefined, base: string): NextPageLink {
  for (const value of link?.split(/,(?=\s*<)/) ?? []) {
    const parts = LINK_VALUE.exec(value);
    if (!parts || !relationTypes(parts[2]!).includes('next')) continue;
    const target = parts[1]!;
    try {
      return { ok: true, next: new URL(target, base).toString() };
    } catch (error) {
      return { ok: false, target, problem: (error as Error).message };
    }
  }
  return { ok: true };
}
