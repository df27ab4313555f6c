// `npm run mock -- --profile FILE` as a team starts it: the reference in a house style this project has
// never seen, written here as a shop would (its own auth header, statuses, envelope, id field, cursor
// paging, required fields, and a "mock" section choosing codes, error key, content type, extra fields,
// ids, a rate limit and a latency). Certified through the suite given the same profile, as the mock
// prints it: CONFORMANT, nothing left on it, nothing kept in its data file.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, test } from 'vitest';
import { styleFromProfile } from '../bin/reference-settings.ts';
import { mockSection } from '../helpers/drift/mock-setting.ts';
import { startReference } from '../reference/server.ts';
import { recordedDrift } from './drift/recorded-drift.ts';
import { killGroup, projectRoot, runCommand, runEntry, startNpmRun } from './run-node.ts';

const NEVER_SEEN = {
  description: 'A shop this project has never seen',
  auth_header: 'X-Api-Key',
  statuses: ['live', 'draft', 'retired'],
  status_param: 'state',
  envelope: 'wrapped',
  zone_key: 'data',
  list_key: 'data.items',
  id_field: 'zone_uid',
  paging: 'cursor',
  cursor_field: 'meta.next',
  cursor_param: 'after',
  page_size: 7,
  page_size_param: 'per_page',
  extra_fields: { currency: 'EUR' },
  mock: {
    created: 200,
    deleted: 204,
    unauthenticated: 403,
    booked: 409,
    invalid: 400,
    error_key: 'error',
    content_type: 'application/vnd.shop+json',
    extra_fields: { gid: 'gid://shop/Zone/{id}', synced_at: '{now}', tags: [] },
    unknown_status_filter: 'refused',
    id_style: 'uuid',
    rate_limit: { burst: 40, per_second: 20 },
    latency_ms: 5,
  },
};

/** The export lines the mock prints, as the settings they set. */
function printedSettings(stdout: string): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const [, name, quoted] of stdout.matchAll(/^ {2}export (ZONES_[A-Z_]+)=('(?:[^']|'\\'')*')$/gm))
    settings[name!] = quoted!.slice(1, -1).replaceAll("'\\''", "'");
  return settings;
}

test('a mock started from a profile of a style never seen is CONFORMANT under the suite given that profile, and keeps nothing', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'zc-mock-'));
  const profile = join(dir, 'shop-profile.json');
  const dataFile = join(dir, 'zones.json');
  writeFileSync(profile, JSON.stringify(NEVER_SEEN, null, 2));
  const mock = startNpmRun('mock', ['--profile', profile, '--data', dataFile], {});
  try {
    // No deadline: a slow machine only prints it later; a mock that ends without printing it ends the wait.
    while (!mock.printed.stdout.includes('ZONES_BOOKING_CLEANUP_HOOK') && mock.child.exitCode === null) await sleep(20);
    const settings = printedSettings(mock.printed.stdout);
    expect(Object.keys(settings)).toEqual([
      'ZONES_BASE_URL',
      'ZONES_ACCESS_TOKEN',
      'ZONES_PROFILE',
      'ZONES_BOOKING_HOOK',
      'ZONES_BOOKING_CLEANUP_HOOK',
    ]);
    const reportsDir = join(dir, 'reports');
    const run = await runEntry('bin/conformance.ts', ['--quiet'], { ...settings, ZONES_REPORTS_DIR: reportsDir });
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const certificate = JSON.parse(readFileSync(join(reportsDir, 'conformance.json'), 'utf8'));
    expect(certificate.verdict).toBe('conformant');
    expect(certificate.cleanup.leftBehind).toEqual([]);
    // Every MUST rule was decided, DELETE-02 through the printed booking hooks included.
    expect(
      certificate.rules.filter(
        (rule: { level: string; status: string }) => rule.level === 'must' && rule.status !== 'passed',
      ),
    ).toEqual([]);
    expect(JSON.parse(readFileSync(dataFile, 'utf8')).zones).toEqual([]);
  } finally {
    killGroup(mock);
  }
});

test('a profile whose "mock" section is wrong is one message naming each key, exit 3', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'zc-mock-bad-'));
  const profile = join(dir, 'shop-profile.json');
  writeFileSync(profile, JSON.stringify({ mock: { created: 202, colour: 'red' } }));
  // Through the launcher, as npm run mock starts it: its build when current, where bin/mock.ts alone needs tsx.
  const run = await runCommand(process.execPath, ['bin/zones-conformance.mjs', 'mock', '--profile', profile], {
    cwd: projectRoot,
  });
  expect(run.code).toBe(3);
  expect(run.stderr).toContain('mock.colour is not a key of "mock"');
  expect(run.stderr).toContain('mock.created must be one of 200, 201');
  expect(run.stdout).toBe('');
});

test('drift between a shop of a style never seen and the mock from its profile: no MUST verdict differs, and with the mock settings drift offers, same', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'zc-mock-drift-'));
  const { mock: choices, ...settings } = NEVER_SEEN;
  const write = (name: string, profile: object) => {
    writeFileSync(join(dir, name), JSON.stringify(profile));
    return join(dir, name);
  };
  // The shop: the same settings, and its own codes, error key, content type, extra fields and ids.
  const shop = await startReference({ style: styleFromProfile(write('shop.json', NEVER_SEEN)) });
  const plain = await startReference({ style: styleFromProfile(write('plain.json', settings)) });
  let fitted: Awaited<ReturnType<typeof startReference>> | undefined;
  try {
    const env = { ZONES_PROFILE: join(dir, 'shop.json'), ZONES_MODEL_RUNS: '0' };
    const first = await recordedDrift(shop, plain, env);
    expect(first.report.exitCode).toBe(1);
    const moved = first.report.rules.filter((rule) => rule.level === 'must' && rule.service !== rule.mock);
    expect(moved).toEqual([]);
    const section = mockSection(first.report.differences);
    expect(section).toMatchObject({ created: choices.created, deleted: choices.deleted, error_key: choices.error_key });
    expect(first.markdown).toContain('"mock": {');
    fitted = await startReference({ style: styleFromProfile(write('fitted.json', { ...settings, mock: section })) });
    const second = await recordedDrift(shop, fitted, env);
    expect(second.report.differences.map((d) => [d.aspect, d.subject, d.service, d.mock])).toEqual([]);
    expect(second.report.exitCode).toBe(0);
  } finally {
    for (const server of [shop, plain, fitted]) await server?.close();
  }
});
