// A rule its example tests verified keeps their verdict on a night the model-based sequences cannot
// reach it: the same shop gets the same statuses, whichever rules the random sequences happened to
// check, and the reports say what the sequences missed as a note. Here the sequences miss on every
// seed: the shop holds sixty zones of others, two to a page, so a list read is thirty-one pages and
// the smallest budget runs out before any update can follow one.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { settingsForStyle } from '../bin/reference-settings.ts';
import type { ConformanceReport } from '../helpers/report/certificate.ts';
import { type RunningReference, startReference } from '../reference/server.ts';
import { runEntry } from './run-node.ts';

let reference: RunningReference | undefined;
afterAll(() => reference?.close());

test('a rule its example tests verified stays passed when no sequence reached it, with a note in every report', async () => {
  reference = await startReference({ style: 'page-numbers' });
  for (let n = 0; n < 60; n++) reference.backdoor.plant({ name: `zone of another team ${n}`, coverage: { n } });
  const dir = mkdtempSync(join(tmpdir(), 'zc-steady-'));
  const run = await runEntry('bin/conformance.ts', ['--rule', 'UPDATE'], {
    ...settingsForStyle(reference.style, reference.url, reference.token),
    ZONES_REPORTS_DIR: dir,
    ZONES_MODEL_RUNS: '1',
    ZONES_MODEL_MAX_REQUESTS: '10',
    ZONES_MODEL_SHRINK_REQUESTS: '0',
  });
  const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport;
  const updates = report.rules.filter((rule) => rule.id.startsWith('UPDATE-'));
  // The rules: their example tests passed, so they passed, and a partial run is exit 2.
  expect(updates.map((rule) => `${rule.id} ${rule.status}`)).toEqual(updates.map((rule) => `${rule.id} passed`));
  expect([report.summary.must.failed, run.code]).toEqual([0, 2]);
  // Their model-based tests did not verify them, and say so beside the status, not in it.
  const unreached = 'model-based test not verified: no model-based sequence reached a check of UPDATE-04 this run';
  const update04 = updates.find((rule) => rule.id === 'UPDATE-04')!;
  expect(update04.tests.map((t) => t.state).sort()).toEqual(['not-verified', 'passed']);
  expect(update04.notes).toEqual([expect.stringContaining(unreached)]);
  expect(run.stdout).toContain(`NOTE UPDATE-04: ${unreached}`);
  expect(readFileSync(join(dir, 'conformance.md'), 'utf8')).toContain(`- UPDATE-04: ${unreached}`);
  expect(report.cleanup.leftBehind).toEqual([]);
});
