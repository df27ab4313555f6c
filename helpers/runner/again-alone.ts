// Tests side by side (ZONES_CONCURRENCY above 1) share the shop with each other's zones. On a correct
// shop that changes nothing; on a shop with a defect it can: an update that lands on the wrong zone
// lands on another test's, and that test fails under its own rule for a defect it did not look for.
// So a test that failed beside others runs again alone, once the others are done, and only what it
// did alone is judged: a failure names its own rule and shows its own exchanges, as at 1. So does one
// that a test beside it kept from being verified, on a store that reuses ids.
import type { CollectedRun } from './collector.ts';
import type { TestOutcome } from './verdict.ts';

/**
 * Whether a test's outcome is one to run again alone: it ran while other tests of its file ran beside
 * it, and it failed, or could not be verified because a zone's id it had went to a zone a test beside
 * it made (a store that reuses ids). A test declared to run alone did, and never runs again: ROBUST-02's
 * nameless creates (running one again would leave a second zone nothing proves the run's), and the
 * model-based tests (suites/model.test.ts), whose one run of sequences would cost its whole budget again.
 */
export function runsAgainAlone(outcome: TestOutcome): boolean {
  if (outcome.besideOthers !== true) return false;
  return outcome.state === 'failed' || (outcome.state === 'not-verified' && outcome.takenBesideOthers === true);
}

/** By target, the titles of the tests to run again alone. */
export function toRunAgainAlone(run: CollectedRun): Map<string, Set<string>> {
  const again = new Map<string, Set<string>>();
  for (const [target, outcomes] of run.outcomes) {
    const titles = outcomes.filter(runsAgainAlone).map((outcome) => outcome.title);
    if (titles.length > 0) again.set(target, new Set(titles));
  }
  return again;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * vitest's name filter for exactly these tests. It matches a test's full name, its describe blocks'
 * names before its own, so a title is matched where it ends the name and starts it or a word.
 */
export function exactTitlesPattern(titles: Iterable<string>): RegExp {
  return new RegExp(`(?:^| )(?:${[...titles].map(escapeRegExp).join('|')})$`);
}
