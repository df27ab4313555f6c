// A setting the suite no longer reads (ZONES_CONCURRENCY, now that tests run one at a time against a
// shop) is said once and the run goes on: a nightly job that still sets it is neither stopped by it
// nor left believing it does something.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { describeTarget, readTargetConfig } from '../helpers/config.ts';

const SHOP = { ZONES_BASE_URL: 'https://shop.example', ZONES_ACCESS_TOKEN: 'shpat_retired_0123' };
const RETIRED = /^ZONES_CONCURRENCY no longer has an effect: tests run one at a time against a shop/;

test('set as a variable, it is a notice, not a bad setting', () => {
  const config = readTargetConfig({ ...SHOP, ZONES_CONCURRENCY: '4' });
  expect(config.notices).toEqual([expect.stringMatching(RETIRED)]);
  expect(JSON.stringify(describeTarget(config))).not.toContain('CONCURRENCY');
});

test('left empty, as an unset CI variable arrives, it says nothing', () => {
  expect(readTargetConfig({ ...SHOP, ZONES_CONCURRENCY: '' }).notices).toEqual([]);
});

test('kept in a shop profile, it is the same notice, and the profile still holds', () => {
  const profile = join(mkdtempSync(join(tmpdir(), 'zc-retired-')), 'shop.json');
  writeFileSync(profile, JSON.stringify({ concurrency: 4, auth_header: 'Authorization' }));
  const config = readTargetConfig({ ...SHOP, ZONES_PROFILE: profile });
  expect(config.notices).toEqual([expect.stringMatching(RETIRED)]);
  expect(config.authHeader).toBe('Authorization');
});

// What a run does with it, said once on stderr while it certifies as usual, is read from the embedded
// partial run of selftest/cli-options.test.ts, which sets it: a run of its own here cost seconds of CPU.
