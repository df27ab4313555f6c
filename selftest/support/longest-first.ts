// The order of the self-test files. vitest starts the files it has timed before longest first, and
// files it has not (every fresh clone, so every CI run) largest first. Several files take a minute
// mostly waiting, on a rate limit or a browser, and one started late would end the run alone while
// the other workers sit idle: these go first, whatever the cache says, and the rest follow vitest's order.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, longest first (their wall times in a fresh clone's `npm test`, 2026-11-27), the
 * two that wait on a rate limit for most of their time among them, next to the gallery, whose run keeps both
 * cores busy meanwhile: left to vitest's order they started last and ended a fresh clone's run alone.
 */
const LONGEST = [
  'gallery.test.ts',
  'packed-install.test.ts',
  'request-accounting.test.ts',
  'unruly-target.test.ts',
  'rate-limited-client.test.ts',
  'html-report.test.ts',
  'mock.test.ts',
  'strangers.test.ts',
  'certificate-page.test.ts',
];

function rank(spec: TestSpecification): number {
  const index = LONGEST.findIndex((name) => spec.moduleId.endsWith(`/selftest/${name}`));
  return index === -1 ? LONGEST.length : index;
}

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // Array.prototype.sort is stable: the rest keep vitest's order among themselves.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
