// The mock from a profile, for every house style of the reference and for three profiles written here
// that match none of them: certified by the suite given the same profile (as `npm run mock` prints it),
// each is CONFORMANT with nothing left on it. The styles become profiles the way a shop would write
// one: its settings, and a "mock" section for the codes, error key, content type, extra fields and ids.
// The settings are read as a run reads them (readTargetConfig), and the mocks certified in one vitest
// run, as the gallery certifies its targets; that `npm run mock` prints those settings, and that a run
// started from them in a shell is CONFORMANT, is mock.test.ts's to show.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { mockSettings, settingsForStyle, styleFromProfile } from '../bin/reference-settings.ts';
import { readTargetConfig } from '../helpers/config.ts';
import type { ConformanceReport } from '../helpers/report/certificate.ts';
import { type RunningReference, startReference } from '../reference/server.ts';
import { type HouseStyle, houseStyles } from '../reference/styles.ts';
import { certifyMany } from './gallery/certify-many.ts';

type Profile = Record<string, unknown>;

/** A house style as a shop would write its profile: each setting under its key, JSON where the setting is JSON. */
function profileOf(style: HouseStyle): Profile {
  const profile: Profile = {};
  for (const [name, value] of Object.entries(settingsForStyle(style, 'http://unused', 'unused'))) {
    if (['ZONES_BASE_URL', 'ZONES_ACCESS_TOKEN'].includes(name) || value === '') continue;
    const key = name.replace(/^ZONES_/, '').toLowerCase();
    if (key === 'statuses') profile[key] = value.split(',');
    else if (key === 'status_filter_values')
      profile[key] = Object.fromEntries(value.split(',').map((pair) => pair.split('=')));
    else if (key === 'extra_fields' || key === 'coverage_samples') profile[key] = JSON.parse(value);
    else profile[key] = value;
  }
  const { codes = {}, errorKey, contentType, extraZoneFields, unknownStatusFilter } = style;
  const ids = style.idStyle === 'max-plus-one' ? 'number' : style.stringIdShape === 'uuid' ? 'uuid' : style.idStyle;
  const mock = { ...codes, error_key: errorKey, content_type: contentType, extra_fields: extraZoneFields };
  profile.mock = JSON.parse(JSON.stringify({ ...mock, unknown_status_filter: unknownStatusFilter, id_style: ids }));
  return profile;
}

/** Three shops no style describes. */
const WRITTEN: Record<string, Profile> = {
  'bare, page numbers, string ids, 403': {
    auth_header: 'X-Shop-Key',
    statuses: ['draft', 'on', 'off'],
    status_param: 'visibility',
    status_filter_values: { on: 'visible', off: 'hidden' },
    envelope: 'bare',
    id_field: 'key',
    paging: 'page',
    page_param: 'p',
    page_size: 4,
    page_size_param: 'size',
    mock: { unauthenticated: 403, invalid: 400, id_style: 'string', error_key: 'message', extra_fields: { v: 2 } },
  },
  'dotted keys, link paging, big ids, 204': {
    auth_header: 'Authorization',
    auth_scheme: 'Token',
    statuses: ['published', 'draft'],
    envelope: 'wrapped',
    zone_key: 'result.zone',
    list_key: 'result.zones',
    id_field: 'zoneId',
    mock: { created: 200, deleted: 204, booked: 423, id_style: 'big-number', content_type: 'application/hal+json' },
  },
  'required fields, cursor at the top, uuids, a rate limit': {
    auth_header: 'X-Token',
    statuses: ['draft', 'active'],
    envelope: 'wrapped',
    zone_key: 'item',
    list_key: 'items',
    paging: 'cursor',
    cursor_field: 'next',
    cursor_param: 'from',
    page_size: 3,
    extra_fields: { region: 'eu', priority: 1 },
    mock: { id_style: 'uuid', rate_limit: { burst: 30, per_second: 30 }, extra_fields: { href: '/zones/{id}' } },
  },
};

const PROFILES: [string, Profile][] = [
  ...Object.values(houseStyles).map((style): [string, Profile] => [`the ${style.name} style`, profileOf(style)]),
  ...Object.entries(WRITTEN),
];

const mocks = new Map<string, RunningReference>();
let certificates: Map<string, ConformanceReport>;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'zc-mock-style-'));
  const targets = [];
  for (const [index, [name, profile]] of PROFILES.entries()) {
    const path = join(dir, `shop-profile-${index}.json`);
    writeFileSync(path, JSON.stringify(profile, null, 2));
    const mock = await startReference({ style: styleFromProfile(path) });
    mocks.set(name, mock);
    const config = readTargetConfig({
      // The settings npm run mock prints for it.
      ...mockSettings(mock, path),
      // Each mock's reports, ledger included, in a folder of its own, as its own run would keep them.
      ZONES_REPORTS_DIR: join(dir, 'reports', String(index)),
      // The model-based sequences are the same in every style: the example tests judge each rule.
      ZONES_MODEL_RUNS: '0',
    });
    targets.push({ name, config });
  }
  certificates = await certifyMany(targets, { workers: 2, include: ['selftest/gallery/all-suites.gallery.ts'] });
});

afterAll(async () => {
  await Promise.all([...mocks.values()].map((mock) => mock.close()));
});

test.for(PROFILES)('the mock from a profile of %s is CONFORMANT under the suite given that profile', ([name]) => {
  const certificate = certificates.get(name)!;
  const failed = certificate.rules.filter((rule) => rule.status !== 'passed' && rule.level === 'must');
  expect(failed.map((rule) => `${rule.id} ${rule.status}: ${rule.reason}`)).toEqual([]);
  expect([certificate.verdict, certificate.exitCode, certificate.suiteErrors]).toEqual(['conformant', 0, []]);
  expect(certificate.cleanup.leftBehind).toEqual([]);
  expect(mocks.get(name)!.backdoor.all()).toEqual([]);
});
