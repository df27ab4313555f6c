// A drift report as drift writes one, for the tests of its page: a drifted pair with one difference,
// whose parts a test replaces with what it looks at.
import type { DriftReport } from '../../helpers/drift/drift-report.ts';
import { SPEC_VERSION } from '../../helpers/rules.ts';

/** One side's conformance run as drift.json sums it up. */
export function sideRan(side: 'service' | 'mock', baseUrl: string, verdict: string, exitCode: number) {
  return { baseUrl, verdict, exitCode, reportsDir: `reports/drift/${side}` };
}

export function driftReportFixture(parts: Pick<DriftReport, 'differences'> & Partial<DriftReport>): DriftReport {
  return {
    tool: 'zones-conformance drift',
    specification: `Zone Management Service, API version ${SPEC_VERSION}`,
    verdict: 'drifted',
    exitCode: 1,
    startedAt: '2026-11-27T12:00:00.000Z',
    finishedAt: '2026-11-27T12:00:09.000Z',
    seed: 42,
    targets: {
      service: sideRan('service', 'http://service.test', 'conformant', 0),
      mock: sideRan('mock', 'http://mock.test', 'conformant', 0),
    },
    compared: { tests: 1, steps: 1 },
    rules: [],
    leftBehind: { service: [], mock: [] },
    ...parts,
  };
}
