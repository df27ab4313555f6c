// What a person needs to act on a drift: a verdict told with the difference its rule's check reads, and
// both answers shown. The service and its mock are the reference, each behind a front that rewrites
// its answers: each adds a marker field of its own to every answer, and the mock's also drops `status`
// and `created_at` from every zone (a store that keeps no status, and no timestamps either), and answers
// updates sent together each with whichever landed last, as json-server does. What drift finds of them
// is asked of its report builder on the two runs recorded (recorded-drift.ts); its launcher, the
// same builder's caller, is run for real in drift.test.ts.
// Beside it, drift against what a real staging shop looks like: a service that holds 62 zones of other
// people (three of them left by an earlier run of the suite, named as the suite names its zones, with a
// coverage the spec does not show) and pages its lists 50 at a time, against the same shop empty.
// Decided from the issue before any run: list contents are never compared, ids and generated names are
// normalised, and the same scenarios are played on both; two shops that answer alike are "same". Both
// pairs are recorded in one vitest run (recordedDrifts), which starts vitest and its workers once.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { verdictLine } from '../helpers/drift/drift-files.ts';
import { readCertificate } from '../helpers/drift/drift-report.ts';
import { exchangesPath, SIDES, sideReportsDir } from '../helpers/drift/targets.ts';
import type { TestExchanges } from '../helpers/evidence/exchange-detail.ts';
import { isModelTestTitle } from '../helpers/harness/model/title.ts';
import { type RunningReference, startReference } from '../reference/server.ts';
import { type HouseStyle, houseStyles } from '../reference/styles.ts';
import { everyFileText } from './drift/drift-run.ts';
import { type RecordedDrift, recordedDrifts } from './drift/recorded-drift.ts';
import { type Answer, type RewritingFront, startRewritingFront } from './support/rewriting-front.ts';

const SERVICE_TOKEN = 'svc_cause_0123456789abcdef';
const MOCK_TOKEN = 'mock_cause_fedcba9876543210';
const MARKS = {
  service: `svc-mark-${randomBytes(4).toString('hex')}`,
  mock: `mock-mark-${randomBytes(4).toString('hex')}`,
};

const closers: (() => Promise<void>)[] = [];
let drift: RecordedDrift;
let busyDrift: RecordedDrift;
let racingFront: RewritingFront | undefined;
const BUSY_SERVICE_TOKEN = 'svc_busy_0123456789abcdef';
const BUSY_MOCK_TOKEN = 'mock_busy_fedcba9876543210';
let busy: { service: RunningReference; mock: RunningReference };
/** The busy service's zones before the drift, as text: each run must leave them exactly as they were. */
let busyZonesBefore: string;

type Body = Record<string, unknown>;

/** Every JSON object answer with `marker` added, and each zone in it rewritten by `zone`. */
function rewriting(marker: string, mark: string, zone: (fields: Body) => Body = (fields) => fields) {
  return (answer: Answer): Answer => {
    let body: unknown;
    try {
      body = JSON.parse(answer.body);
    } catch {
      return answer;
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return answer;
    const { zone: one, zones: many, ...rest } = body as Body;
    const rewritten: Body = { ...rest, [marker]: mark };
    if (one !== undefined) rewritten.zone = zone(one as Body);
    if (Array.isArray(many)) rewritten.zones = many.map((each) => zone(each as Body));
    return { ...answer, body: JSON.stringify(rewritten) };
  };
}

async function behindFront(
  token: string,
  rewrite: (answer: Answer) => Answer,
  racingWrites = false,
): Promise<RunningReference> {
  const reference = await startReference({ token });
  const front = await startRewritingFront(reference.url, rewrite, { racingWrites });
  if (racingWrites) racingFront = front;
  closers.push(
    () => front.close(),
    () => reference.close(),
  );
  return { ...reference, url: front.url };
}

/** Pages of 50 by page number, no Link header: a service with 62 zones reads two pages, the empty mock one. */
const PAGES_OF_50: HouseStyle = {
  ...houseStyles['page-numbers']!,
  name: 'pages-of-50',
  paging: { kind: 'page', param: 'page', size: 50 },
};

async function pagingShop(token: string): Promise<RunningReference> {
  const reference = await startReference({ token, style: PAGES_OF_50 });
  closers.push(() => reference.close());
  return reference;
}

/** The staging shop: 59 zones of other teams and 3 leftovers of an earlier run. */
async function busyService(): Promise<RunningReference> {
  const service = await pagingShop(BUSY_SERVICE_TOKEN);
  for (let n = 1; n <= 59; n += 1)
    service.backdoor.plant({ name: `another team's zone ${n}`, coverage: { provinces: ['BY', 'NW'] } });
  // Earlier runs' leftovers: numbered below anything this run sends, and shaped unlike the run's zones.
  for (let n = 1; n <= 3; n += 1)
    service.backdoor.plant({ name: `zc-20250101t000000-abcd-ef01-${n}`, coverage: { provinces: ['HH'] } });
  return service;
}

beforeAll(async () => {
  const service = await behindFront(SERVICE_TOKEN, rewriting('service_marker', MARKS.service));
  const withoutStatus = ({ status: _status, created_at: _created, ...fields }: Body) => fields;
  const mock = await behindFront(MOCK_TOKEN, rewriting('mock_marker', MARKS.mock, withoutStatus), true);
  busy = { service: await busyService(), mock: await pagingShop(BUSY_MOCK_TOKEN) };
  busyZonesBefore = JSON.stringify(busy.service.backdoor.all());
  const drifts = await recordedDrifts([
    { service, mock, env: { ZONES_MODEL_SEED: '1' } },
    { ...busy, env: { ZONES_MODEL_SEED: '1' } },
  ]);
  drift = drifts[0]!;
  busyDrift = drifts[1]!;
});

afterAll(async () => {
  for (const close of closers.splice(0)) await close();
});

test('a mock that keeps no status and no timestamps: every verdict that differs is told with the status, none with created_at', () => {
  const { report } = drift;
  expect(report.exitCode, JSON.stringify(report.differences, null, 2)).toBe(1);
  const moved = report.rules.filter((rule) => rule.service !== rule.mock).map((rule) => rule.id);
  // LIST-02 among them: a store without statuses leaves the filter unjudged (the example).
  expect(moved).toContain('LIST-02');
  const toldWith = report.differences.flatMap((d) => (d.verdicts ?? []).map((v) => [v.rule, d.aspect, d.subject]));
  expect(toldWith.map(([rule]) => rule).sort()).toEqual([...moved].sort());
  for (const [rule, aspect, subject] of toldWith)
    expect([rule, aspect, subject]).toEqual([rule, 'shape', '<zone>.status']);
  expect(report.differences.filter((d) => d.aspect === 'verdict')).toEqual([]);
});

test("a front that adds a marker to each side's answers: both markers are shown in drift.json, drift.md and drift.html", () => {
  const { report, markdown, html } = drift;
  const marked = report.differences.find((d) => d.subject === 'service_marker');
  expect(marked, JSON.stringify(report.differences, null, 2)).toBeDefined();
  // The difference holds each side's request and answer, the answer's body whole.
  expect(marked!.exchanges.service?.answer?.body).toContain(MARKS.service);
  expect(marked!.exchanges.mock?.answer?.body).toContain(MARKS.mock);
  expect(marked!.exchanges.service?.request).toMatchObject({ method: expect.any(String), url: expect.any(String) });
  for (const text of [markdown, html]) {
    expect(text).toContain(MARKS.service);
    expect(text).toContain(MARKS.mock);
  }
  // The field that differs is marked where it stands in the body.
  expect(html).toMatch(/<mark>[^<]*service_marker[^<]*<\/mark>/);
  for (const token of [SERVICE_TOKEN, MOCK_TOKEN])
    for (const text of [JSON.stringify(report), markdown, html]) expect(text).not.toContain(token);
});

test('updates sent together, each answered with whichever landed last: what ROBUST-07 allows, so no difference', () => {
  const { report } = drift;
  // The mock did answer some update with another's zone: else this would prove nothing.
  expect(racingFront?.racedAnswers).toBeGreaterThan(0);
  const values = report.differences.filter((d) => d.aspect === 'value');
  expect(values.map((d) => [d.subject, d.service, d.mock, d.case])).toEqual([]);
  expect(report.rules.find((rule) => rule.id === 'ROBUST-07')).toMatchObject({ service: 'passed', mock: 'passed' });
});

test('a service holding 62 zones of others, leftovers of an earlier run among them, is the same as its empty copy', () => {
  const { report } = busyDrift;
  const differences = report.differences.map((d) => `${d.aspect} (${d.subject ?? ''}): ${d.service} / ${d.mock}`);
  expect(differences, report.reason).toEqual([]);
  expect(report.verdict).toBe('same');
  expect(report.exitCode).toBe(0);
  // The model-based sequences were compared to their end on both, not cut off where one side's budget ran out.
  expect(report.compared.steps).toBeGreaterThan(100);
  expect(report.rules.filter((rule) => rule.service !== rule.mock)).toEqual([]);
  expect([report.targets.service.verdict, report.targets.mock.verdict]).toEqual(['conformant', 'conformant']);
  for (const side of SIDES) {
    const played = readFileSync(exchangesPath(sideReportsDir(busyDrift.reportsDir, side)), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as TestExchanges)
      .filter((t) => isModelTestTitle(t.title) && t.exchanges.length > 0);
    expect(played, side).toHaveLength(1);
  }
  expect(busyDrift.markdown).toMatch(/^# Drift: SAME\n/);
  expect(verdictLine(report)).toContain('SAME: the mock answered as the service did');
  // Somebody else's zones, leftovers of an earlier run among them, are exactly as they were; the mock is empty again.
  expect(JSON.stringify(busy.service.backdoor.all())).toBe(busyZonesBefore);
  expect(busy.mock.backdoor.all()).toEqual([]);
  for (const { path, text } of everyFileText(busyDrift.reportsDir))
    for (const token of [BUSY_SERVICE_TOKEN, BUSY_MOCK_TOKEN]) expect(text.includes(token), path).toBe(false);
});

test("each side's zones are named by its own run id, as npm run drift's two runs name them, and the two still compare as the same", () => {
  const sides = SIDES.map((side) => {
    const reportsDir = sideReportsDir(busyDrift.reportsDir, side);
    const certificate = readCertificate(reportsDir);
    return {
      runId: certificate !== undefined && 'runId' in certificate ? certificate.runId : '',
      exchanges: readFileSync(exchangesPath(reportsDir), 'utf8'),
    };
  });
  const [service, mock] = sides as [(typeof sides)[number], (typeof sides)[number]];
  expect(service.runId).not.toBe(mock.runId);
  // Unless drift reads each side's names by that side's id, every step that names a zone differs.
  expect(service.exchanges).toContain(`zc-${service.runId}-`);
  expect(service.exchanges).not.toContain(`zc-${mock.runId}-`);
  expect(mock.exchanges).toContain(`zc-${mock.runId}-`);
  expect(mock.exchanges).not.toContain(`zc-${service.runId}-`);
  expect(busyDrift.report.verdict).toBe('same');
});
