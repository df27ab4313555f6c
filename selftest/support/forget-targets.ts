// The setup file of every self-test file. The files share their workers (vitest.selftest.config.ts),
// and the client keeps a throttle per base URL for the life of the process. A server a later file
// starts can get the port of one an earlier file closed; it must start from a clean slate, not with
// the pace a rate-limited stub taught the earlier file's client, nor with an outage a down stub began.
import { afterAll } from 'vitest';
import { forgetTargets } from '../../helpers/pacing/outage.ts';

afterAll(() => {
  forgetTargets();
});
