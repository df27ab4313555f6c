// Where a run's requests went, for conformance.json, conformance.md and the console's closing lines:
// a staging shop rations requests, so the cost of a run is read here, by endpoint and by rule.
import { addTallies, ENDPOINTS, endpointLabel, type RequestTally, requestsIn } from '../evidence/request-tally.ts';
import type { TestOutcome } from '../judging/verdict.ts';
import { rules } from '../rules.ts';

/** What some tests spent: their own requests, their clean-up's apart, and the list pages among them. */
type Spent = ReturnType<typeof spentBy>;

export interface RequestBreakdown {
  /** Every request of the run by method and path template (`PUT /admin/api/2026-07/zones/{zone_id}.json`). */
  byEndpoint: Record<string, number>;
  /** List pages read (list requests answered 2xx): a list read of N pages is N requests and N pages. */
  listPages: number;
  /** Requests sent again: after a 429, and after a GET got no usable answer. */
  resent: { after429: number; afterNoAnswer: number };
  /** Each rule's tests summed, in catalogue order; rules whose tests sent nothing are left out. */
  byRule: Record<string, Spent>;
  /** The run the model-based tests share, counted once, with the rules it serves. */
  sharedRun?: Spent & { rules: string[] };
  /** The test that sent the most, clean-up included: a chain of requests no run can be shorter than (docs/performance.md). */
  longestTest?: { title: string; requests: number; cleanup: number };
  /** The launcher's own: the preflight before the tests, the final sweep after them. */
  aroundTests: { preflight: Spent; finalSweep: Spent };
}

const spentBy = (test: RequestTally, cleanup: RequestTally) => ({
  requests: requestsIn(test),
  cleanup: requestsIn(cleanup),
  listPages: test.pages + cleanup.pages,
});

const addSpent = (a: Spent | undefined, b: Spent): Spent => ({
  requests: (a?.requests ?? 0) + b.requests,
  cleanup: (a?.cleanup ?? 0) + b.cleanup,
  listPages: (a?.listPages ?? 0) + b.listPages,
});

/** A test counted by hand (no tally) adds nothing here: the totals beside this breakdown are the ones to trust. */
export function accountRequests(
  outcomes: readonly TestOutcome[],
  around: { preflight?: RequestTally; sweep?: RequestTally },
  apiVersion: string,
): RequestBreakdown {
  const all = addTallies(
    ...outcomes.flatMap((o) => (o.tally ? [o.tally.test, o.tally.cleanup] : [])),
    around.preflight,
    around.sweep,
  );
  const perRule = new Map<string, Spent>();
  let sharedRun: RequestBreakdown['sharedRun'];
  let longestTest: RequestBreakdown['longestTest'];
  for (const { tally, ruleId, title, sharesRun } of outcomes) {
    if (tally === undefined || ruleId === undefined) continue;
    const spent = spentBy(tally.test, tally.cleanup);
    if (spent.requests + spent.cleanup > (longestTest ? longestTest.requests + longestTest.cleanup : 0))
      longestTest = { title, requests: spent.requests, cleanup: spent.cleanup };
    // One test sent the shared run's requests for all of them: no rule's own.
    if (sharesRun)
      sharedRun = { ...addSpent(sharedRun, spent), rules: [...new Set([...(sharedRun?.rules ?? []), ruleId])] };
    else perRule.set(ruleId, addSpent(perRule.get(ruleId), spent));
  }
  const none = addTallies();
  return {
    byEndpoint: Object.fromEntries(
      ENDPOINTS.map((endpoint) => [endpointLabel(endpoint, apiVersion), all.sent[endpoint]]),
    ),
    listPages: all.pages,
    resent: { after429: all.resent['after-429'], afterNoAnswer: all.resent['after-no-answer'] },
    // In catalogue order; a rule whose tests sent nothing is left out.
    byRule: Object.fromEntries(
      rules.flatMap(({ id }) => {
        const spent = perRule.get(id);
        return spent && spent.requests + spent.cleanup > 0 ? [[id, spent]] : [];
      }),
    ),
    ...(sharedRun === undefined ? {} : { sharedRun }),
    ...(longestTest === undefined ? {} : { longestTest }),
    aroundTests: {
      preflight: spentBy(around.preflight ?? none, none),
      finalSweep: spentBy(none, around.sweep ?? none),
    },
  };
}

export function requestsLine(requests: { total: number; throttled: number } & RequestBreakdown): string {
  const endpoints = Object.entries(requests.byEndpoint)
    .map(([label, count]) => `${label.split(' ')[0]} ${count}`)
    .join(', ');
  const resent = requests.resent.after429 + requests.resent.afterNoAnswer;
  return `requests: ${requests.total} (${endpoints}); ${requests.listPages} list pages, ${requests.throttled} answered 429, ${resent} sent again`;
}

export function requestTables(requests: RequestBreakdown): string[] {
  const rows = (entries: [string, Spent][]) =>
    entries.map(([what, spent]) => `| ${what} | ${spent.requests} | ${spent.cleanup} | ${spent.listPages} |`);
  const shared = requests.sharedRun;
  return [
    '## Requests',
    '',
    '| Endpoint | Requests |',
    '|---|---|',
    ...Object.entries(requests.byEndpoint).map(([label, count]) => `| \`${label}\` | ${count} |`),
    '',
    `List pages read: ${requests.listPages}. Sent again: ${requests.resent.after429} after a 429, ${requests.resent.afterNoAnswer} after no usable answer.`,
    '',
    '| Spent by | Requests | Clean-up | List pages |',
    '|---|---|---|---|',
    ...rows([['preflight', requests.aroundTests.preflight]]),
    ...rows(Object.entries(requests.byRule)),
    ...(shared ? rows([[`model-based run (${shared.rules.join(', ')})`, shared]]) : []),
    ...rows([['final sweep', requests.aroundTests.finalSweep]]),
    '',
  ];
}
