// junit.xml as CI tools keep it night after night: a test keeps its name whatever the settings (a
// test whose name changes starts a new history), and what the settings chose goes beside the name.
// DELETE-02 is the test whose fixture the settings choose: a booked zone by id, a booking hook, or
// none at all.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { bookingHooksForReference, settingsForStyle } from '../bin/reference-settings.ts';
import { readTargetConfig } from '../helpers/config.ts';
import { Secrets } from '../helpers/evidence/secrets.ts';
import { isModelTestTitle } from '../helpers/harness/model/title.ts';
import { writeReports } from '../helpers/report/write-reports.ts';
import { type RunningReference, startReference } from '../reference/server.ts';
import { certifyMany } from './gallery/certify-many.ts';

const TOKEN = 'shpat_selftest_junit_0123456789abcdef';

let reference: RunningReference;
const junitOf: Record<string, string> = {};

/**
 * DELETE-02 alone, with each night's booking settings; each night's junit.xml, written by the launcher's own
 * writer. The three nights are certified in one vitest run (certifyMany), each with its settings read as a run
 * reads them. Without the model-based suite, whose test of DELETE-02 would only add a testcase of another name
 * (set aside below) and the cost of its search.
 */
async function nightsWith(nights: Record<string, Record<string, string>>): Promise<void> {
  const targets = Object.entries(nights).map(([name, settings]) => ({
    name,
    config: readTargetConfig({
      ...settingsForStyle(reference.style, reference.url, TOKEN),
      ...settings,
      ZONES_REPORTS_DIR: mkdtempSync(join(tmpdir(), 'zc-junit-')),
      ZONES_MODEL_RUNS: '0',
    }),
  }));
  const reports = await certifyMany(targets, {
    workers: 1,
    include: ['selftest/gallery/all-suites.gallery.ts'],
    rule: 'DELETE-02',
  });
  for (const { name, config } of targets) {
    const report = reports.get(name)!;
    // The runs of one rule are incomplete (exit 2) for the rules they leave out; DELETE-02 itself passes, or is not verified.
    expect([name, report.exitCode]).toEqual([name, 2]);
    const { junit } = writeReports(report, {
      reportsDir: config.reportsDir,
      secrets: new Secrets(config),
      warn: () => {},
    });
    junitOf[name] = readFileSync(junit, 'utf8');
  }
}

beforeAll(async () => {
  reference = await startReference({ token: TOKEN });
  const booked = reference.backdoor.plant({ name: 'booked by somebody', coverage: { countries: ['DE'] }, bookings: 1 });
  await nightsWith({ hook: bookingHooksForReference(), zoneId: { ZONES_BOOKED_ZONE_ID: booked }, none: {} });
});

afterAll(async () => {
  await reference?.close();
});

const testcases = (junit: string) => junit.match(/<testcase [\s\S]*?(<\/testcase>)/g) ?? [];
/** The other rules' tests are in the file too, as not run. */
const nameOf = (testcase: string) => testcase.match(/ name="([^"]*)"/)![1]!;
/** DELETE-02's example test; with both booking hooks a model-based test of DELETE-02 runs too, under its own name. */
const delete02 = (junit: string) =>
  testcases(junit).filter(
    (testcase) => testcase.includes('"MUST.DELETE-02"') && !isModelTestTitle(nameOf(testcase).replace(/&quot;/g, '"')),
  );

test("DELETE-02's testcase has one name, whichever booking fixture the settings give", () => {
  const names = Object.fromEntries(
    Object.entries(junitOf).map(([night, junit]) => [night, delete02(junit).map(nameOf)]),
  );
  const one = ['DELETE-02 a delete of a zone with booking history is refused and the zone stays unchanged'];
  expect(names).toEqual({ hook: one, zoneId: one, none: one });
});

test('which booked zone it was checked with is a property beside the name', () => {
  expect(junitOf.hook).toContain('<property name="checked with" value="a zone booked by ZONES_BOOKING_HOOK"/>');
  expect(junitOf.zoneId).toMatch(
    /<property name="checked with" value="the booked zone \S+ \(ZONES_BOOKED_ZONE_ID\)"\/>/,
  );
  expect(junitOf.none).not.toContain('checked with');
  expect(junitOf.none).toContain('<skipped message="not verified: no booking fixture');
});

test('every testcase and the suite have a time in seconds, and the verdict is a property, not a name', () => {
  for (const junit of Object.values(junitOf)) {
    for (const testcase of testcases(junit)) expect(testcase).toMatch(/^<testcase [^>]* time="\d+\.\d{3}"/);
    expect(junit).toMatch(/<testsuite name="Zone Management Service, API version 2026-07" [^>]* time="\d+\.\d{3}"/);
    expect(junit).toContain('<property name="verdict" value="incomplete"/>');
  }
  // A check against the reference takes some time, and the time is what vitest measured.
  expect(Number(delete02(junitOf.hook!)[0]!.match(/time="([\d.]+)"/)![1])).toBeGreaterThan(0);
});

test('a partial run lists the tests of the rules it left out, skipped as not selected, so their history goes on', () => {
  const authTests = testcases(junitOf.hook!).filter((testcase) => testcase.includes('classname="MUST.AUTH-02"'));
  expect(authTests.map(nameOf)).toEqual(['AUTH-02 a create request without a credential is refused']);
  expect(authTests[0]).toContain('<skipped message="not verified: not selected (--rule DELETE-02)">');
});
