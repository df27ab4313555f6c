// The model-based suite end to end, against mutants, on fixed seeds so that every run tells the
// same story: each of its tests is shown failing (a test that cannot fail is a defect), a failure
// names its rule, the shortest sequence found and the seed, and the seed replays that sequence.
// Whether it catches the sequence mutants on the gallery's seed, and raises no false alarm on a new
// seed each run, the gallery says.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { configForReference } from '../bin/reference-settings.ts';
import { readTargetConfig } from '../helpers/config.ts';
import { isModelTestTitle } from '../helpers/harness/model/title.ts';
import type { ConformanceReport } from '../helpers/report/certificate.ts';
import { type RunningReference, startReference } from '../reference/server.ts';
import { plantBystander } from './gallery/bystander.ts';
import { certifyMany } from './gallery/certify-many.ts';

// A seed on which every mutant below is caught: not every seed's sequences read the whole list while
// a zone is published, which list-hides-non-draft needs. The sequence mutants are caught on any seed
// by their stories at least (the gallery runs them on a seed of its own).
const SEED = 20276961;

/** For each rule the model checks, a mutant that breaks it and that the model can only blame on it. */
const BREAKERS: [rule: string, fault: string][] = [
  ['CREATE-01', 'create-drops-coverage'],
  ['CREATE-02', 'create-as-published'],
  ['CREATE-03', 'create-honours-body-status'],
  ['LIST-01', 'list-hides-non-draft'],
  ['LIST-02', 'filter-cache-stale'],
  ['UPDATE-01', 'update-undoes-rename'],
  ['UPDATE-02', 'update-ignores-coverage'],
  ['UPDATE-03', 'update-ignores-status'],
  ['UPDATE-04', 'update-lands-on-next-zone'],
  ['DELETE-01', 'create-restores-deleted'],
  ['DELETE-02', 'delete-ignores-bookings'],
];
/** Requests for shrinking the failures of BREAKERS: they need only fail, with some sequence. */
const SMALL_SHRINK = 40;

/**
 * The mutants only a sequence shows (reference/faults.ts), each run twice more on SHRINK_SEED: there
 * the random search, not a story, finds each one first in a longer sequence than the one it reports
 * (found after 14, 32, 6 and 9 operations when the seed was chosen), so both the shrinking and the
 * replay are seen at work. On SEED the search found update-lands-on-next-zone in four operations
 * outright, and a story's failure is the same on every seed: neither could show either.
 */
const SEQUENCE_MUTANTS: [rule: string, fault: string][] = [
  ['LIST-02', 'filter-cache-stale'],
  ['UPDATE-01', 'update-undoes-rename'],
  ['DELETE-01', 'create-restores-deleted'],
  ['UPDATE-04', 'update-lands-on-next-zone'],
];
const SHRINK_SEED = 2;
/**
 * The sequence mutant run a second time, to show the seed replays a failure: the one whose search ran
 * longest before it found it (32 operations), so the most drawing and shrinking is seen replayed. What
 * a replay shows is the model's, not the mutant's: its drawing and shrinking take no randomness but the
 * seed's, and every mutant is a deterministic store. Replaying each of the four once cost a run apiece;
 * that one seed plays the same sequences on two shops is drift.test.ts's to show too.
 */
const REPLAYED = 'update-undoes-rename';
/** Requests for shrinking on SHRINK_SEED: enough to reach the three or four operations each defect needs. */
const SHRINK_REQUESTS = 150;
const shrinkTarget = (fault: string, again = false) => `${fault} on seed ${SHRINK_SEED}${again ? ' again' : ''}`;

/**
 * Failures reported with only the operations they need, on seeds where the report once kept others:
 * fast-check never drops a sequence's last operation, so on seed 12 a create that drops the coverage
 * was reported as create A; create B; update A, where the read after create A shows it alone; and a
 * story's failure was reported as played, on seed 2 with create C, create D and the update of A the
 * story is about, where two zones and the read-back of one show a store that keeps no status.
 */
const TRIMMED: [rule: string, fault: string, seed: number, steps: string[]][] = [
  ['CREATE-01', 'create-drops-coverage', 12, ['1. create A', '2. list']],
  ['CREATE-02', 'create-without-status', 2, ['1. create A', '2. create B', '3. list', '4. update A: name']],
];
const trimmedTarget = (fault: string) => `${fault}, trimmed`;

const references: RunningReference[] = [];
let reports: Map<string, ConformanceReport>;

beforeAll(async () => {
  const reportsDir = mkdtempSync(join(tmpdir(), 'zc-model-suite-'));
  const runs = [
    ...BREAKERS.map(([, fault]) => ({ name: fault, fault, seed: SEED, shrinkRequests: SMALL_SHRINK })),
    ...TRIMMED.map(([, fault, seed]) => ({ name: trimmedTarget(fault), fault, seed, shrinkRequests: SMALL_SHRINK })),
    ...SEQUENCE_MUTANTS.flatMap(([, fault]) =>
      (fault === REPLAYED ? [false, true] : [false]).map((again) => ({
        name: shrinkTarget(fault, again),
        fault,
        seed: SHRINK_SEED,
        shrinkRequests: SHRINK_REQUESTS,
      })),
    ),
  ];
  const targets = [];
  for (const { name, fault, seed, shrinkRequests } of runs) {
    const reference = await startReference({ fault });
    references.push(reference);
    // Somebody else's zone, as on any shop (and in the gallery): the fourth zone of update-lands-on-next-zone.
    plantBystander(reference);
    const base = readTargetConfig({ ZONES_REPORTS_DIR: reportsDir, ZONES_MODEL_SEED: String(seed) });
    const config = configForReference(base, reference);
    // Shrink budgets below the default (600; the gallery shrinks the sequence mutants at the default)
    // spare most of this file's requests: about 3,000 of 3,700 once went to shrinking.
    targets.push({ name, config: { ...config, model: { ...config.model, shrinkRequests } } });
  }
  // The targets share one worker, which takes them in turn: every worker more loads vitest, the suites and
  // fast-check again, and costs more than it saves in waiting (the shops answer in-process, at once).
  reports = await certifyMany(targets, { workers: 1, include: ['suites/model.test.ts'] });
});

afterAll(async () => {
  await Promise.all(references.map((reference) => reference.close()));
});

function modelTest(target: string, rule: string) {
  const found = reports
    .get(target)!
    .rules.find((r) => r.id === rule)!
    .tests.find((t) => isModelTestTitle(t.title));
  if (!found) throw new Error(`${target} has no model-based test of ${rule}`);
  return found;
}

/** The numbered steps of the shortest sequence in a failure message. */
function shortestSequence(reason: string): string[] {
  return reason
    .split('\n')
    .filter((line) => /^ {2}\d+\. /.test(line))
    .map((line) => line.trim());
}

describe.for(BREAKERS)('the model-based test of %s', ([rule, fault]) => {
  test(`fails against ${fault}, naming the shortest sequence and the seed that replays it`, () => {
    const { state, reason = '' } = modelTest(fault, rule);
    expect(state).toBe('failed');
    expect(reason).toContain(`ZONES_MODEL_SEED=${SEED}`);
    expect(reason).toContain(`npm run conformance -- --seed=${SEED}`);
    expect(shortestSequence(reason).length).toBeGreaterThan(0);
  });
});

/** How many operations the search had played when it first saw the failure, from the message. */
function foundAfter(reason: string): number | undefined {
  const found = /^the shortest sequence found \(shrunk from (\d+) operations\):$/m.exec(reason)?.[1];
  return found === undefined ? undefined : Number(found);
}

describe.for(SEQUENCE_MUTANTS)(
  `the model-based test of %s against its sequence mutant, on seed ${SHRINK_SEED}`,
  ([rule, fault]) => {
    const reasonOf = (again = false) => modelTest(shrinkTarget(fault, again), rule).reason ?? '';

    test(`the random search finds ${fault} under ${rule} and shrinks it to a handful of operations`, () => {
      const reason = reasonOf();
      // Found by a drawn sequence, not by the story played on every run.
      expect(reason).not.toContain('played on every run');
      const steps = shortestSequence(reason);
      expect(steps.length).toBeGreaterThanOrEqual(3);
      expect(steps.length).toBeLessThanOrEqual(5);
      expect(foundAfter(reason)).toBeGreaterThan(steps.length);
    });
  },
);

test(`the seed replays ${REPLAYED}: the same seed against the same shop finds and shrinks the same sequence`, () => {
  const [rule] = SEQUENCE_MUTANTS.find(([, fault]) => fault === REPLAYED)!;
  const first = modelTest(shrinkTarget(REPLAYED), rule).reason ?? '';
  const again = modelTest(shrinkTarget(REPLAYED, true), rule).reason ?? '';
  expect([foundAfter(again), shortestSequence(again)]).toEqual([foundAfter(first), shortestSequence(first)]);
});

describe.for(TRIMMED)('the model-based test of %s against %s, on seed %i', ([rule, fault, , steps]) => {
  test('reports the shortest sequence with no operation the failure does not need', () => {
    expect(shortestSequence(modelTest(trimmedTarget(fault), rule).reason ?? '')).toEqual(steps);
  });
});

test('a sequence mutant is put down to its own rule alone: no other model-based test of its run fails', () => {
  for (const [rule, fault] of SEQUENCE_MUTANTS) {
    const failed = reports
      .get(fault)!
      .rules.filter((r) => r.status === 'failed')
      .map((r) => r.id);
    expect([fault, failed]).toEqual([fault, [rule]]);
  }
});
