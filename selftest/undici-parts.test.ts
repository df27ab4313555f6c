// The client loads the parts of undici it needs, not its entry point (helpers/target/undici-parts.ts).
// They must be the very objects the entry point hands out, so that the client behaves as undici
// documents; and on the undici in the lockfile they must load as parts, or the saving is gone unnoticed.
import { createRequire } from 'node:module';
import type * as Undici from 'undici';
import { expect, test } from 'vitest';
import { undiciParts } from '../helpers/target/undici-parts.ts';

test("on the locked undici the client loads the parts, and each is the entry point's own", () => {
  const parts = undiciParts();
  expect(parts.loadedFrom, 'undici moved a file: update helpers/target/undici-parts.ts').toBe('parts');
  const undici = createRequire(import.meta.url)('undici') as typeof Undici;
  expect(parts.Agent).toBe(undici.Agent);
  expect(parts.Pool).toBe(undici.Pool);
  expect(parts.ProxyAgent).toBe(undici.ProxyAgent);
  expect(parts.request).toBe(undici.Dispatcher.prototype.request);
  // ProxyAgent opens its tunnels with connect() on a client: the prototype must have it either way.
  expect(undici.Dispatcher.prototype.connect).toBeTypeOf('function');
});
