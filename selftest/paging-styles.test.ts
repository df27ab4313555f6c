// The paging house styles, certified through settings alone as a user would run them. Before each
// run the shop already holds more than a page of somebody else's zones, so every zone the suite
// creates sits past the first page. Run again without the paging setting (the default, Link), the
// suite reads only that first page: the zones it looks for are missing, and the shop must not come
// out conformant. The specification says GET returns every zone, so a list read one page short
// fails LIST-01; a wrong setting may cost a false failure here, never a false certificate. The zones
// that run makes sit past the first page too, so its clean-up shows whether reading too little loses
// any. It runs without the model-based suite: LIST-01's example test fails on the first short read,
// and the model's search and shrinking on a shop that fails at every read would only cost time.
// The settings are read as a run reads them, and the four shops certified in one vitest run.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bookingHooksForReference, configForReference, settingsForStyle } from '../bin/reference-settings.ts';
import { readTargetConfig, type TargetConfig } from '../helpers/config.ts';
import type { ConformanceReport } from '../helpers/report/certificate.ts';
import { rules } from '../helpers/rules.ts';
import { type RunningReference, startReference } from '../reference/server.ts';
import { houseStyles } from '../reference/styles.ts';
import { certifyMany } from './gallery/certify-many.ts';

const PAGING_STYLES = ['page-numbers', 'data-envelope'];
const PAGING_SETTINGS = ['ZONES_PAGING', 'ZONES_PAGE_PARAM', 'ZONES_CURSOR_FIELD', 'ZONES_CURSOR_PARAM'];
/** Somebody else's zones, more than a page of them. */
const PLANTED = 3;

interface Certified {
  reference: RunningReference;
  planted: string[];
  report: ConformanceReport;
}

const runs = new Map<string, { paged: Certified; unpaged: Certified }>();
const started: RunningReference[] = [];

/** A shop of the style holding more than a page of others' zones, and its settings as a run reads them. */
async function shop(style: string, withPaging: boolean, reportsDir: string) {
  const reference = await startReference({ style });
  started.push(reference);
  const planted = Array.from({ length: PLANTED }, (_, i) =>
    reference.backdoor.plant({ name: `bystander-${i}`, coverage: { planted: i } }),
  );
  expect(reference.style.paging!.size).toBeLessThan(PLANTED);
  const settings = settingsForStyle(reference.style, reference.url, reference.token);
  if (!withPaging) for (const name of PAGING_SETTINGS) delete settings[name];
  const config = readTargetConfig({
    ...settings,
    ...bookingHooksForReference(),
    ZONES_REPORTS_DIR: reportsDir,
    ...(withPaging ? {} : { ZONES_MODEL_RUNS: '0' }),
  });
  return { name: `${style} ${withPaging ? 'paged' : 'unpaged'}`, config, reference, planted };
}

beforeAll(async () => {
  const reportsDir = mkdtempSync(join(tmpdir(), 'zc-paging-style-'));
  const shops: Awaited<ReturnType<typeof shop>>[] = [];
  for (const style of PAGING_STYLES)
    for (const withPaging of [true, false]) shops.push(await shop(style, withPaging, reportsDir));
  const reports = await certifyMany(shops, { workers: 2, include: ['selftest/gallery/all-suites.gallery.ts'] });
  const certified = (style: string, paging: string): Certified => {
    const { reference, planted, name } = shops.find((s) => s.name === `${style} ${paging}`)!;
    return { reference, planted, report: reports.get(name)! };
  };
  for (const style of PAGING_STYLES)
    runs.set(style, { paged: certified(style, 'paged'), unpaged: certified(style, 'unpaged') });
});

afterAll(async () => {
  await Promise.all(started.map((reference) => reference.close()));
});

function expectBystandersUntouched({ reference, planted }: Certified): void {
  for (const [i, id] of planted.entries())
    expect(reference.backdoor.stored(id)).toMatchObject({ name: `bystander-${i}`, coverage: { planted: i } });
}

describe.for(PAGING_STYLES)('the %s style', (style) => {
  test('with its paging settings: conformant, exit 0, every MUST rule passed, nothing left behind', () => {
    const { report } = runs.get(style)!.paged;
    const must = report.rules.filter((rule) => rule.level === 'must');
    expect(
      must.filter((rule) => rule.status !== 'passed').map((rule) => `${rule.id}: ${rule.status} ${rule.reason ?? ''}`),
    ).toEqual([]);
    expect(must).toHaveLength(rules.filter((rule) => rule.level === 'must').length);
    expect([report.verdict, report.exitCode]).toEqual(['conformant', 0]);
    expect(report.cleanup.leftBehind).toEqual([]);
    expectBystandersUntouched(runs.get(style)!.paged);
  });

  test('without the paging setting: zones past the first page are missed, and the shop is not certified', () => {
    const { report } = runs.get(style)!.unpaged;
    const failed = report.rules.filter((rule) => rule.status === 'failed').map((rule) => rule.id);
    expect(failed).toContain('LIST-01');
    expect([report.verdict, report.exitCode]).toEqual(['non-conformant', 1]);
    // Reading too little must not make the clean-up miss what the run created.
    expect(report.cleanup.created).toBeGreaterThan(0);
    expect(report.cleanup.leftBehind).toEqual([]);
    expect(report.cleanup.deleted).toBe(report.cleanup.created);
    expectBystandersUntouched(runs.get(style)!.unpaged);
  });
});

test('both bridges give every house style the same settings, whatever the user had set for another shop', () => {
  const fields: (keyof TargetConfig)[] = [
    'authHeader',
    'authScheme',
    'statuses',
    'statusParam',
    'filterValues',
    'envelope',
    'zoneKey',
    'listKey',
    'idField',
    'paging',
    'pageParam',
    'cursorField',
    'cursorParam',
    'pageSize',
    'pageSizeParam',
    'extraFields',
  ];
  const pick = (config: TargetConfig) => Object.fromEntries(fields.map((field) => [field, config[field]]));
  const otherShop = readTargetConfig({
    ZONES_PAGING: 'page',
    ZONES_PAGE_PARAM: 'p',
    ZONES_PAGE_SIZE: '250',
    ZONES_PAGE_SIZE_PARAM: 'per_page',
    ZONES_LIST_KEY: 'items',
    ZONES_ZONE_KEY: 'item',
  });
  for (const style of Object.values(houseStyles)) {
    const running = { style, url: 'http://127.0.0.1:1', token: 't' } as RunningReference;
    const fromSettings = readTargetConfig(settingsForStyle(style, running.url, running.token));
    expect(pick(configForReference(otherShop, running)), style.name).toEqual(pick(fromSettings));
  }
});
