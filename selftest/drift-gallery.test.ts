// The drift gallery: each drift mutant, run as the mock beside the reference, is found by drift as
// exactly one difference under the aspect it names, and the committed table of them is current.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { driftMutants } from '../reference/drift-mutants.ts';
import { type DriftGalleryResult, renderDriftMatrix, runDriftGallery } from './drift/drift-gallery.ts';
import { projectRoot } from './run-node.ts';

let results: DriftGalleryResult[];

beforeAll(async () => {
  results = (await runDriftGallery()).results;
});

test("every drift mutant's run was compared with the service's step by step, not by its verdicts alone", () => {
  // Without the recorded exchanges only rules would be compared: a verdict mutant would still be found,
  // and an answer mutant would be found as no difference at all.
  const steps = results.map((result) => result.compared.steps);
  expect(
    steps.every((count) => count > 0),
    `steps compared per mutant: ${steps.join(', ')}`,
  ).toBe(true);
  // Each ran the same example tests as the service: none was missing on either side.
  expect(new Set(results.map((result) => result.compared.tests)).size).toBe(1);
});

test.for(driftMutants.map((mutant) => mutant.name))(
  'the drift mutant %s is found as one difference under its aspect',
  (name) => {
    const result = results.find((each) => each.name === name)!;
    expect(result.differences, JSON.stringify(result.differences, null, 2)).toHaveLength(1);
    expect(result.differences[0]!.aspect).toBe(result.aspect);
    // Its run cleaned up after itself like any run: drift asks nothing of a mock beyond a run's own rules.
    expect(result.left).toBe(0);
  },
);

test('docs/drift-matrix.md is current (npm run drift-matrix writes it)', () => {
  const committed = readFileSync(join(projectRoot, 'docs', 'drift-matrix.md'), 'utf8');
  expect(committed).toBe(renderDriftMatrix(results));
});
