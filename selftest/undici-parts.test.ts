// The client loads the parts of undici it needs, not its entry point (helpers/target/undici-parts.ts).
// They must be the very objects the entry point hands out, wired as the entry point wires them, so
// that the client behaves as undici documents; and on the undici in the lockfile they must load as
// parts, or the saving is gone unnoticed.
import { createRequire } from 'node:module';
import type * as Undici from 'undici';
import { expect, test } from 'vitest';
import { undiciParts } from '../helpers/target/undici-parts.ts';
import { projectRoot, runCommand } from './run-node.ts';

test('in a fresh process the parts load without the entry point, and every dispatcher gets request() and connect()', async () => {
  // A process of its own: in a self-test worker another file may have loaded the entry point already,
  // which wires the same methods and would hide a part left unwired.
  const script = `
    import { createRequire } from 'node:module';
    const { undiciParts } = await import('./helpers/target/undici-parts.ts');
    const parts = undiciParts();
    const require = createRequire(import.meta.url);
    const dispatcher = require('undici/lib/dispatcher/dispatcher.js');
    console.log(JSON.stringify({
      loadedFrom: parts.loadedFrom,
      entryPointLoaded: require.resolve('undici') in require.cache,
      request: dispatcher.prototype.request === parts.request,
      connect: typeof dispatcher.prototype.connect,
    }));`;
  const run = await runCommand(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: projectRoot,
  });
  expect(run.code, run.stderr).toBe(0);
  expect(JSON.parse(run.stdout), 'undici moved a file: update helpers/target/undici-parts.ts').toEqual({
    loadedFrom: 'parts',
    entryPointLoaded: false,
    request: true,
    // ProxyAgent opens its CONNECT tunnels with connect() on a client of its own.
    connect: 'function',
  });
});

test("each part is the entry point's own", () => {
  const parts = undiciParts();
  const undici = createRequire(import.meta.url)('undici') as typeof Undici;
  expect(parts.Agent).toBe(undici.Agent);
  expect(parts.Pool).toBe(undici.Pool);
  expect(parts.ProxyAgent).toBe(undici.ProxyAgent);
  expect(parts.request).toBe(undici.Dispatcher.prototype.request);
});
