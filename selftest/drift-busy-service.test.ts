// Drift against what a real staging shop looks like: a service that holds 62 zones of other people
// (three of them left by an earlier run of the suite, named as the suite names its zones, with a
// coverage the spec does not show) and pages its lists 50 at a time, against the same shop empty.
// Decided from the issue before any run: list contents are never compared, ids and generated names
// are normalised, and the same scenarios are played on both; two shops that answer alike are "same".
// Asked of drift's report builder on the two runs recorded (recorded-drift.ts); its launcher is run for
// real in drift.test.ts.
import { afterEach, expect, test } from 'vitest';
import { type RunningReference, startReference } from '../reference/server.ts';
import { type HouseStyle, houseStyles } from '../reference/styles.ts';
import { recordedDrift } from './drift/recorded-drift.ts';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** Pages of 50 by page number, no Link header: a service with 62 zones reads two pages, the empty mock one. */
const PAGES_OF_50: HouseStyle = {
  ...houseStyles['page-numbers']!,
  name: 'pages-of-50',
  paging: { kind: 'page', param: 'page', size: 50 },
};

async function shop(token: string): Promise<RunningReference> {
  const reference = await startReference({ token, style: PAGES_OF_50 });
  closers.push(() => reference.close());
  return reference;
}

test('a service holding 62 zones of others, leftovers of an earlier run among them, is the same as its empty copy', async () => {
  const service = await shop('svc_busy_0123456789abcdef');
  const mock = await shop('mock_busy_fedcba9876543210');
  for (let n = 1; n <= 59; n += 1)
    service.backdoor.plant({ name: `another team's zone ${n}`, coverage: { provinces: ['BY', 'NW'] } });
  // Earlier runs' leftovers: numbered below anything this run sends, and shaped unlike the run's zones.
  for (let n = 1; n <= 3; n += 1)
    service.backdoor.plant({ name: `zc-20250101t000000-abcd-ef01-${n}`, coverage: { provinces: ['HH'] } });
  const { report } = await recordedDrift(service, mock, { ZONES_MODEL_SEED: '1' });
  const differences = report.differences.map((d) => `${d.aspect} (${d.subject ?? ''}): ${d.service} / ${d.mock}`);
  expect(differences, report.reason).toEqual([]);
  expect(report.verdict).toBe('same');
  expect(report.exitCode).toBe(0);
  // The model-based sequences were compared to their end on both, not cut off where one side's budget ran out.
  expect(report.compared.steps).toBeGreaterThan(100);
});
