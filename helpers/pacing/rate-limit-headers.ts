// What a shop says about its rate limit in the answer headers, read in the forms seen in the field:
// - Shopify's leaky bucket, `X-Shopify-Shop-Api-Call-Limit: 32/40` (used/size; the leak rate is not said);
// - the IETF httpapi drafts: `RateLimit-Remaining` + `RateLimit-Reset` (drafts 00-06), the
//   dictionary `RateLimit: limit=10, remaining=0, reset=7` (draft 07), and the list of policies
//   `RateLimit: "default";r=0;t=7` (drafts 08 on). Reset is always delay seconds, never a timestamp.
// A value that does not parse is ignored, as the drafts ask: a hint is never worth a failed run.

export interface QuotaHint {
  remaining: number;
  /** In ms from now, if the shop said. */
  resetMs?: number;
}

export type BucketHint = { used: number; size: number };
export type RateLimitHints = { quota?: QuotaHint; bucket?: BucketHint };

/** `headers` with lower-case names, as the client records them. */
export function readRateLimitHeaders(headers: Record<string, string>): RateLimitHints {
  const hints: RateLimitHints = {};
  const bucket = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(headers['x-shopify-shop-api-call-limit'] ?? '');
  if (bucket && Number(bucket[2]) > 0) hints.bucket = { used: Number(bucket[1]), size: Number(bucket[2]) };
  const separate = () => quotaOf(headers['ratelimit-remaining'], headers['ratelimit-reset']);
  const quota = (headers.ratelimit !== undefined ? combinedQuota(headers.ratelimit) : undefined) ?? separate();
  if (quota) hints.quota = quota;
  return hints;
}

/** Reset is delay seconds; a quota without `remaining` says nothing. */
function quotaOf(remainingText: string | undefined, resetText: string | undefined): QuotaHint | undefined {
  const remaining = integer(remainingText);
  if (remaining === undefined) return undefined;
  const reset = integer(resetText);
  return reset === undefined ? { remaining } : { remaining, resetMs: reset * 1000 };
}

/** Either draft 07's dictionary (limit=, remaining=, reset=) or the later list of policies (;r= ;t=). */
function combinedQuota(value: string): QuotaHint | undefined {
  const members = splitOutsideQuotes(value, ',').map((member) =>
    splitOutsideQuotes(member, ';').map((part) => part.trim()),
  );
  const dictionary = new Map<string, string>();
  const policies: (QuotaHint | undefined)[] = [];
  for (const [head = '', ...parameters] of members) {
    const pair = /^([a-z*][a-z0-9_.*-]*)=(.*)$/.exec(head);
    if (pair && !head.startsWith('"')) {
      dictionary.set(pair[1]!, pair[2]!);
      continue;
    }
    const named = new Map(parameters.map((parameter) => parameter.split('=', 2) as [string, string | undefined]));
    policies.push(quotaOf(named.get('r'), named.get('t')));
  }
  policies.push(quotaOf(dictionary.get('remaining'), dictionary.get('reset')));
  // The policy closest to refusing: the fewest remaining, and of those the latest reset.
  return policies
    .filter((policy) => policy !== undefined)
    .sort((a, b) => a.remaining - b.remaining || (b.resetMs ?? 0) - (a.resetMs ?? 0))[0];
}

function integer(text: string | undefined): number | undefined {
  const trimmed = text?.trim();
  return trimmed !== undefined && /^\d+$/.test(trimmed) ? Number(trimmed) : undefined;
}

/** Splits at `separator` except inside "quoted strings" (a policy name may hold a comma). */
function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (char === '\\' && quoted) {
      current += char + (text[i + 1] ?? '');
      i += 1;
      continue;
    }
    if (char === '"') quoted = !quoted;
    if (char === separator && !quoted) {
      parts.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  parts.push(current);
  return parts;
}
