// What a run's requests were spent on, counted as the client sends them: against a staging shop the
// suite's cost is its requests. Plain data, so that tallies cross task.meta and add up.
import { type Exchange, isSuccessStatus, type Method } from './exchange.ts';

/** The four operations, each one method on one path: the only requests the client can send. */
export const ENDPOINTS = ['list', 'create', 'update', 'delete'] as const;
export type Endpoint = (typeof ENDPOINTS)[number];

const METHOD_OF: Record<Endpoint, Method> = { list: 'GET', create: 'POST', update: 'PUT', delete: 'DELETE' };

/** after-no-answer: a GET got none, a 502 to 504, or a body still coming when the time limit ran out. */
export type Resend = 'after-429' | 'after-no-answer';

export interface RequestTally {
  /** Requests sent, by endpoint: 429s and re-sends included, so they add up to every request. */
  sent: Record<Endpoint, number>;
  /** List requests answered 2xx: a walk of N pages is N of these. */
  pages: number;
  throttled: number;
  resent: Record<Resend, number>;
}

export function emptyTally(): RequestTally {
  return {
    sent: { list: 0, create: 0, update: 0, delete: 0 },
    pages: 0,
    throttled: 0,
    resent: { 'after-429': 0, 'after-no-answer': 0 },
  };
}

/** One request as it went out and came back; `resend` says why, when it repeats the one before. */
export function countRequest(tally: RequestTally, exchange: Exchange, resend?: Resend): void {
  const endpoint = ENDPOINTS.find((each) => METHOD_OF[each] === exchange.method)!;
  tally.sent[endpoint] += 1;
  if (exchange.status === 429) tally.throttled += 1;
  // A page whose body went past a limit was not read.
  if (endpoint === 'list' && isSuccessStatus(exchange.status) && !exchange.bodyLimit) tally.pages += 1;
  if (resend !== undefined) tally.resent[resend] += 1;
}

export function addTallies(...tallies: readonly (RequestTally | undefined)[]): RequestTally {
  const sum = emptyTally();
  for (const tally of tallies) {
    if (tally === undefined) continue;
    for (const endpoint of ENDPOINTS) sum.sent[endpoint] += tally.sent[endpoint];
    sum.pages += tally.pages;
    sum.throttled += tally.throttled;
    for (const why of Object.keys(sum.resent) as Resend[]) sum.resent[why] += tally.resent[why];
  }
  return sum;
}

export function requestsIn(tally: RequestTally): number {
  return ENDPOINTS.reduce((sum, endpoint) => sum + tally.sent[endpoint], 0);
}

/** The method and path template of an endpoint, as the specification writes it: ids never show. */
export function endpointLabel(endpoint: Endpoint, apiVersion: string): string {
  const one = endpoint === 'update' || endpoint === 'delete' ? '/{zone_id}' : '';
  return `${METHOD_OF[endpoint]} /admin/api/${apiVersion}/zones${one}.json`;
}
