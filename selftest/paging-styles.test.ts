// The paging house styles, certified through settings alone as a user would run them. Before each
// run the shop already holds more than a page of somebody else's zones, so every zone the suite
// creates sits past the first page. Run again without the paging setting (the default, Link), the
// suite reads only that first page: the zones it looks for are missing, and the shop must not come
// out conformant. The specification says GET returns every zone, so a list read one page short
// fails LIST-01; a wrong setting may cost a false failure here, never a false certificate. That run
// checks LIST-01 alone: its failure decides the verdict whatever else runs, and the zones it makes
// sit past the first page too, so its clean-up shows whether reading too little loses any. It runs
// without the model-based suite: LIST-01's example test fails on the first short read, and the
// model's search and shrinking on a shop that fails at every read would only cost time.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bookingHooksForReference, configForReference, settingsForStyle } from '../bin/reference-settings.ts';
import { readTargetConfig, type TargetConfig } from '../helpers/config.ts';
import type { ConformanceReport } from '../helpers/report/certificate.ts';
import { rules } from '../helpers/rules.ts';
import { type RunningReference, startReference } from '../reference/server.ts';
import { houseStyles } from '../reference/styles.ts';
import { type ChildRun, runEntry } from './run-node.ts';

const PAGING_STYLES = ['page-numbers', 'data-envelope'];
const PAGING_SETTINGS = ['ZONES_PAGING', 'ZONES_PAGE_PARAM', 'ZONES_CURSOR_FIELD', 'ZONES_CURSOR_PARAM'];
/** Somebody else's zones, more than a page of them. */
const PLANTED = 3;

interface Certified {
  reference: RunningReference;
  planted: string[];
  run: ChildRun;
  report: ConformanceReport;
}

const started: RunningReference[] = [];

async function certify(style: string, withPaging: boolean): Promise<Certified> {
  const reference = await startReference({ style });
  started.push(reference);
  const planted = Array.from({ length: PLANTED }, (_, i) =>
    reference.backdoor.plant({ name: `bystander-${i}`, coverage: { planted: i } }),
  );
  expect(reference.style.paging!.size).toBeLessThan(PLANTED);
  const settings = settingsForStyle(reference.style, reference.url, reference.token);
  if (!withPaging) for (const name of PAGING_SETTINGS) delete settings[name];
  const dir = mkdtempSync(join(tmpdir(), 'zc-paging-style-'));
  const run = await runEntry('bin/conformance.ts', withPaging ? [] : ['--rule', 'LIST-01'], {
    ...settings,
    ...bookingHooksForReference(),
    ZONES_REPORTS_DIR: dir,
    ...(withPaging ? {} : { ZONES_MODEL_RUNS: '0' }),
  });
  const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport;
  return { reference, planted, run, report };
}

const runs = new Map<string, { paged: Certified; unpaged: Certified }>();

beforeAll(async () => {
  await Promise.all(
    PAGING_STYLES.map(async (style) => {
      runs.set(style, { paged: await certify(style, true), unpaged: await certify(style, false) });
    }),
  );
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
    const { run, report } = runs.get(style)!.paged;
    const must = report.rules.filter((rule) => rule.level === 'must');
    expect(
      must.filter((rule) => rule.status !== 'passed').map((rule) => `${rule.id}: ${rule.status} ${rule.reason ?? ''}`),
    ).toEqual([]);
    expect(must).toHaveLength(rules.filter((rule) => rule.level === 'must').length);
    expect([report.verdict, run.code]).toEqual(['conformant', 0]);
    expect(report.cleanup.leftBehind).toEqual([]);
    expectBystandersUntouched(runs.get(style)!.paged);
  });

  test('without the paging setting: zones past the first page are missed, and the shop is not certified', () => {
    const { run, report } = runs.get(style)!.unpaged;
    const failed = report.rules.filter((rule) => rule.status === 'failed').map((rule) => rule.id);
    expect(failed).toContain('LIST-01');
    expect([report.verdict, run.code]).toEqual(['non-conformant', 1]);
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
