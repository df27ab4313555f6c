// Observations grouped so that one behaviour is one difference: a mock that answers 200 to every create differs
// once, with the count and list of the steps that showed it. A rule's verdict that differs goes with the first
// difference its test reads (rules.ts READS) in a test of it whose outcome differs; it stands on its own only where
// there is none.
import type { ExchangeBodies, RecordedExchange, TestExchanges } from '../evidence/exchange-detail.ts';
import { isModelTestTitle } from '../harness/model/title.ts';
import { readsOf } from '../rules.ts';
import { compareTest, type DriftSettings, type Observation, partsOf, type Seen } from './compare.ts';
import { OPERATIONS, type Operation } from './steps.ts';

/** An exchange as a difference shows it: the line the reports print, the command that replays it, what went and came. */
export interface ShownExchange extends Partial<ExchangeBodies> {
  line: string;
  curl: string;
}

type RuleVerdicts = { rule: string; service: string; mock: string };

/** One behaviour: the first step that showed it (its operation, words and exchanges), and every step that did (the first 20 cases). */
export interface Difference extends Seen {
  operation: Operation | 'any';
  operations: string[];
  case: string;
  /** Steps that showed it, or rules for a verdict. */
  count: number;
  cases: string[];
  exchanges: { service?: ShownExchange; mock?: ShownExchange };
  /** Rules whose verdict differs along with this difference. */
  verdicts?: RuleVerdicts[];
  /** The key of npm run mock's "mock" section that sets it away, with the service's value (mock-setting.ts). */
  mock_setting?: Record<string, unknown>;
}

export interface RunSide {
  tests: readonly TestExchanges[];
  rules: readonly { id: string; status: string }[];
  /** The run id its zones' names carry: what tells the run's own zones from any other on the shop. */
  runId: string;
}

const CASES_KEPT = 20;

function shown(exchange: RecordedExchange | undefined): ShownExchange | undefined {
  return exchange === undefined ? undefined : { line: exchange.line, curl: exchange.curl, ...exchange.bodies };
}

function caseOf({ test, step, request }: Observation): string {
  if (step > 0) return `${test}, step ${step}: ${request}`;
  return request === '' ? test : `${test}: ${request}`;
}

/** One behaviour: the same aspect of the same thing, the same on each side, wherever it showed. */
function keyOf(seen: Seen): string {
  return JSON.stringify([seen.aspect, seen.subject ?? '', seen.service, seen.mock]);
}

function group(observations: readonly Observation[]): Map<string, Difference> {
  const byKey = new Map<string, Difference>();
  for (const observation of observations) {
    const { operation, aspect, subject, service, mock, exchanges } = observation;
    const known = byKey.get(keyOf(observation));
    // As first seen, in the order of its fields in drift.json.
    if (known === undefined) {
      const first = caseOf(observation);
      const shownExchanges = { service: shown(exchanges.service), mock: shown(exchanges.mock) };
      const difference = { operation, operations: [operation], aspect, subject, case: first, service, mock };
      byKey.set(keyOf(observation), { ...difference, count: 1, cases: [first], exchanges: shownExchanges });
      continue;
    }
    known.count += 1;
    if (known.cases.length < CASES_KEPT) known.cases.push(caseOf(observation));
    if (!known.operations.includes(operation)) known.operations.push(operation);
  }
  return byKey;
}

function testOnOneSide(test: TestExchanges, side: 'service' | 'mock'): Observation {
  const words = `ran (${test.state})`;
  return {
    test: test.title,
    step: 0,
    request: '',
    operation: 'any',
    aspect: 'step',
    service: side === 'service' ? words : '(no such test)',
    mock: side === 'mock' ? words : '(no such test)',
    exchanges: { [side]: test.exchanges[0] },
  };
}

/** A verdict no difference its rule reads explains, as its first test whose outcome differs, with the last exchange each side (the check). */
function verdictSeen(
  verdict: RuleVerdicts,
  deciding: readonly TestExchanges[],
  service: RunSide,
  mock: RunSide,
): Observation {
  const test = deciding[0] ?? service.tests.find((each) => each.ruleId === verdict.rule);
  // A rule of the LIST, CREATE, UPDATE or DELETE family is about that operation.
  const family = verdict.rule.split('-')[0]!.toLowerCase() as Operation;
  return {
    test: test?.title ?? verdict.rule,
    step: 0,
    request: 'no difference in what its test reads explains it',
    operation: OPERATIONS.includes(family) ? family : 'any',
    aspect: 'verdict',
    subject: verdict.rule,
    service: verdict.service,
    mock: verdict.mock,
    exchanges: {
      service: test?.exchanges.at(-1),
      mock: mock.tests.find((other) => other.title === test?.title)?.exchanges.at(-1),
    },
  };
}

export function compareRuns(service: RunSide, mock: RunSide, settings: DriftSettings) {
  const observations: Observation[] = [];
  // Steps compared on both targets: a comparison of nothing says nothing, and is not "same".
  let comparedSteps = 0;
  let comparedTests = 0;
  const mockTests = new Map(mock.tests.map((test) => [test.title, test]));
  for (const test of service.tests) {
    const other = mockTests.get(test.title);
    if (other === undefined) {
      observations.push(testOnOneSide(test, 'service'));
      continue;
    }
    comparedTests += 1;
    const found = compareTest({ test, runId: service.runId }, { test: other, runId: mock.runId }, settings);
    observations.push(...found.observations);
    comparedSteps += found.compared;
  }
  const serviceTitles = new Set(service.tests.map((test) => test.title));
  const mockOnly = mock.tests.filter((test) => !serviceTitles.has(test.title));
  observations.push(...mockOnly.map((test) => testOnOneSide(test, 'mock')));

  const differences = group(observations);
  const onMock = new Map(mock.rules.map((rule) => [rule.id, rule.status]));
  const rules = service.rules.map(({ id, status }) => ({
    rule: id,
    service: status,
    mock: onMock.get(id) ?? 'absent',
  }));
  // The tests whose outcome differs, in the order they ran: a test on one side only among them.
  const differing = [...service.tests.filter((test) => mockTests.get(test.title)?.state !== test.state), ...mockOnly];
  const alone: Observation[] = [];
  for (const verdict of rules) {
    if (verdict.service === verdict.mock) continue;
    const deciding = differing.filter((test) => test.ruleId === verdict.rule);
    const reads = readsOf(verdict.rule);
    const isRead = (seen: Observation) => {
      const parts = partsOf(seen, settings);
      return parts === 'all' || parts.some((part) => reads.includes(part));
    };
    // The first difference the rule's test reads, in the first deciding test that shows one. A model-based test's
    // steps are those of the one model run the model-based tests share, recorded under whichever of them played it.
    const ownStep = (title: string) => (seen: Observation) =>
      isModelTestTitle(title) ? isModelTestTitle(seen.test) : seen.test === title;
    const explained = deciding.flatMap(({ title }) => observations.filter(ownStep(title)).filter(isRead))[0];
    const difference = explained && differences.get(keyOf(explained))!;
    if (difference) difference.verdicts = [...(difference.verdicts ?? []), verdict];
    else alone.push(verdictSeen(verdict, deciding, service, mock));
  }
  return { differences: [...differences.values(), ...group(alone).values()], comparedSteps, comparedTests, rules };
}
