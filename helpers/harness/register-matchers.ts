// The vitest setup file of every suite run (helpers/runner/run-suites.ts): the zone matchers are
// registered here, once, so no suite or helper imports them for a side effect.
import { expect } from 'vitest';
import { zoneMatchers } from './matchers.ts';

expect.extend(zoneMatchers);
