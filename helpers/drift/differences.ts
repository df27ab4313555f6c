// Observations grouped so that one behaviour is one difference: a mock that answers 200 to every
// create differs once, with the count and list of the steps that showed it, not once per test. A
// rule's verdict that differs because of a step difference goes with that difference; it stands on
// its own only where no step of the rule's tests showed one (a defect only a rule sees).
import type { RecordedExchange, TestExchanges } from '../evidence/exchange-detail.ts';
import { type Aspect, compareTest, type DriftSettings, type Observation } from './compare.ts';
import type { Operation } from './steps.ts';

/** An exchange as a difference shows it: the line the reports print, and the command that replays it. */
export interface ShownExchange {
  line: string;
  curl: string;
}

export interface RuleVerdicts {
  rule: string;
  service: string;
  mock: string;
}

export interface Difference {
  /** The operation of the first step that showed it. */
  operation: Operation | 'any';
  /** Every operation whose steps showed it. */
  operations: string[];
  aspect: Aspect;
  /** The field, header or path it is about, for the aspects that have several. */
  subject?: string;
  /** What the first step that showed it was, in words. */
  case: string;
  service: string;
  mock: string;
  /** How many steps (or rules, for a verdict) showed it, and which (the first 20). */
  count: number;
  cases: string[];
  /** The first case's exchange on each target, with its curl replay. */
  exchanges: { service?: ShownExchange; mock?: ShownExchange };
  /** Rules whose verdict differs along with this difference. */
  verdicts?: RuleVerdicts[];
}

export interface RuleSide {
  id: string;
  status: string;
}

export interface RunSide {
  tests: readonly TestExchanges[];
  rules: readonly RuleSide[];
  /** The run id its zones' names carry: what tells the run's own zones from any other on the shop. */
  runId: string;
}

const CASES_KEPT = 20;

function shown(exchange: RecordedExchange | undefined): ShownExchange | undefined {
  return exchange === undefined ? undefined : { line: exchange.line, curl: exchange.curl };
}

function caseOf(observation: Observation): string {
  return observation.step === 0
    ? observation.test
    : `${observation.test}, step ${observation.step}: ${observation.request}`;
}

/** One behaviour: the same aspect of the same thing, the same on each side, wherever it showed. */
function keyOf(seen: Pick<Observation, 'aspect' | 'subject' | 'service' | 'mock'>): string {
  return JSON.stringify([seen.aspect, seen.subject ?? '', seen.service, seen.mock]);
}

function group(observations: readonly Observation[]): Difference[] {
  const byKey = new Map<string, Difference>();
  for (const observation of observations) {
    const key = keyOf(observation);
    const known = byKey.get(key);
    if (known) {
      known.count += 1;
      if (known.cases.length < CASES_KEPT) known.cases.push(caseOf(observation));
      if (!known.operations.includes(observation.operation)) known.operations.push(observation.operation);
      continue;
    }
    byKey.set(key, {
      operation: observation.operation,
      operations: [observation.operation],
      aspect: observation.aspect,
      ...(observation.subject === undefined ? {} : { subject: observation.subject }),
      case: caseOf(observation),
      service: observation.service,
      mock: observation.mock,
      count: 1,
      cases: [caseOf(observation)],
      exchanges: {
        service: shown(observation.exchanges.service),
        mock: shown(observation.exchanges.mock),
      },
    });
  }
  return [...byKey.values()];
}

const FAMILY_OPERATION: Record<string, Operation> = {
  LIST: 'list',
  CREATE: 'create',
  UPDATE: 'update',
  DELETE: 'delete',
};

/**
 * Rules whose verdicts differ and no step difference explains: each its own difference, shown with
 * the last exchange of its first test whose outcome differs (the check that decided it).
 */
function verdictDifferences(verdicts: readonly RuleVerdicts[], service: RunSide, mock: RunSide): Difference[] {
  return verdicts.map((verdict) => {
    const testsA = service.tests.filter((test) => test.ruleId === verdict.rule);
    const testB = (title: string) => mock.tests.find((test) => test.title === title);
    const deciding = testsA.find((test) => testB(test.title)?.state !== test.state) ?? testsA[0];
    const a = deciding?.exchanges.at(-1);
    const b = deciding === undefined ? undefined : testB(deciding.title)?.exchanges.at(-1);
    const operation = FAMILY_OPERATION[verdict.rule.split('-')[0]!] ?? 'any';
    return {
      operation,
      operations: [operation],
      aspect: 'verdict',
      subject: verdict.rule,
      case: deciding === undefined ? verdict.rule : deciding.title,
      service: verdict.service,
      mock: verdict.mock,
      count: 1,
      cases: [deciding?.title ?? verdict.rule],
      exchanges: { service: shown(a), mock: shown(b) },
    };
  });
}

export interface Comparison {
  differences: Difference[];
  /** Steps compared on both targets: a comparison of nothing says nothing, and is not "same". */
  comparedSteps: number;
  comparedTests: number;
  rules: { id: string; service: string; mock: string }[];
}

export function compareRuns(service: RunSide, mock: RunSide, settings: DriftSettings): Comparison {
  const observations: Observation[] = [];
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
    const { observations: found, compared } = compareTest(
      test.title,
      { test, runId: service.runId },
      { test: other, runId: mock.runId },
      settings,
    );
    observations.push(...found);
    comparedSteps += compared;
  }
  const serviceTitles = new Set(service.tests.map((test) => test.title));
  for (const test of mock.tests) if (!serviceTitles.has(test.title)) observations.push(testOnOneSide(test, 'mock'));

  const differences = group(observations);
  const mockRules = new Map(mock.rules.map((rule) => [rule.id, rule.status]));
  const rules = service.rules.map((rule) => ({
    id: rule.id,
    service: rule.status,
    mock: mockRules.get(rule.id) ?? 'absent',
  }));
  const alone: RuleVerdicts[] = [];
  const outcomeDiffers = new Set(
    service.tests.filter((test) => mockTests.get(test.title)?.state !== test.state).map((test) => test.title),
  );
  // A difference also seen in a test whose outcome is the same on both sides cannot be why an outcome
  // differs: a field every zone lacks shows in the first step of nearly every test.
  const seenWhereOutcomesAgree = new Set(
    observations
      .filter((observation) => !outcomeDiffers.has(observation.test) && observation.step > 0)
      .map((observation) => keyOf(observation)),
  );
  for (const rule of rules) {
    if (rule.service === rule.mock) continue;
    const verdict = { rule: rule.id, service: rule.service, mock: rule.mock };
    const explained = explanationOf(rule.id, differences, observations, outcomeDiffers, seenWhereOutcomesAgree);
    if (explained) explained.verdicts = [...(explained.verdicts ?? []), verdict];
    else alone.push(verdict);
  }
  return {
    differences: [...differences, ...verdictDifferences(alone, service, mock)],
    comparedSteps,
    comparedTests,
    rules,
  };
}

/** Which aspects say most of why a check came out otherwise: an answer's status before its body's shape. */
const EXPLAINS_FIRST: readonly Aspect[] = [
  'status',
  'value',
  'step',
  'error-body',
  'content-type',
  'header',
  'shape',
  'setting',
  'verdict',
];

/**
 * The difference that explains why a rule's verdict differs: one a step showed in a test of the rule
 * whose outcome differs, and not also in tests whose outcomes agree. Failing that, any in a test of the
 * rule whose outcome differs; then any in the rule's tests. None: the verdict is a difference of its own.
 */
function explanationOf(
  ruleId: string,
  differences: readonly Difference[],
  observations: readonly Observation[],
  outcomeDiffers: ReadonlySet<string>,
  seenWhereOutcomesAgree: ReadonlySet<string>,
): Difference | undefined {
  const ofRule = observations.filter((observation) => observation.ruleId === ruleId);
  const differenceOf = (observation: Observation) =>
    differences.find((difference) => keyOf(difference) === keyOf(observation));
  const byAspect = (a: Observation, b: Observation) =>
    EXPLAINS_FIRST.indexOf(a.aspect) - EXPLAINS_FIRST.indexOf(b.aspect);
  const best = (candidates: readonly Observation[], order: (a: Observation, b: Observation) => number) =>
    [...candidates].sort(order)[0];
  const inDifferingTests = ofRule.filter((observation) => outcomeDiffers.has(observation.test));
  const telling = inDifferingTests.filter((observation) => !seenWhereOutcomesAgree.has(keyOf(observation)));
  // Among differences only the differing tests show, the latest step's is nearest the check; among
  // those every test shows, the aspect says more than the place.
  const chosen =
    best(telling, (a, b) => b.step - a.step || byAspect(a, b)) ??
    best(inDifferingTests, (a, b) => byAspect(a, b) || a.step - b.step) ??
    best(ofRule, (a, b) => byAspect(a, b) || a.step - b.step);
  return chosen === undefined ? undefined : differenceOf(chosen);
}

function testOnOneSide(test: TestExchanges, side: 'service' | 'mock'): Observation {
  const first = test.exchanges[0];
  const words = `ran (${test.state})`;
  return {
    test: test.title,
    ruleId: test.ruleId,
    step: 0,
    request: test.title,
    operation: 'any',
    aspect: 'step',
    service: side === 'service' ? words : '(no such test)',
    mock: side === 'mock' ? words : '(no such test)',
    exchanges: side === 'service' ? { service: first } : { mock: first },
  };
}
