// `import { startMock } from 'zones-conformance/mock'` from a script of a team's own, outside this source tree:
// the package's export resolves to the built module and its declarations, and the mock it starts serves a create.
import { existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { projectRoot, runCommand } from './run-node.ts';

test('startMock() from a script outside the project serves a create, in the house style of the profile it was given', async () => {
  expect(existsSync(join(projectRoot, 'dist', 'bin', 'mock-api.d.ts')), 'npm run build wrote the declarations').toBe(
    true,
  );
  const team = mkdtempSync(join(tmpdir(), 'zc-team-'));
  mkdirSync(join(team, 'node_modules'));
  symlinkSync(projectRoot, join(team, 'node_modules', 'zones-conformance'), 'dir');
  writeFileSync(
    join(team, 'try-mock.mjs'),
    `import { startMock } from 'zones-conformance/mock';
const mock = await startMock({ profile: { auth_header: 'X-Api-Key', envelope: 'bare', id_field: 'uid' } });
const created = await fetch(mock.url + '/admin/api/2026-07/zones.json', {
  method: 'POST',
  headers: { 'X-Api-Key': mock.token, 'content-type': 'application/json' },
  body: JSON.stringify({ name: 'from a team script', coverage: {} }),
});
console.log(JSON.stringify({ status: created.status, zone: await created.json(), settings: Object.keys(mock.settings) }));
await mock.close();
`,
  );
  const run = await runCommand(process.execPath, ['try-mock.mjs'], { cwd: team });
  expect(run.code, run.stderr).toBe(0);
  const { status, zone, settings } = JSON.parse(run.stdout);
  expect(status).toBe(201);
  expect(zone).toMatchObject({ uid: expect.any(Number), name: 'from a team script', status: 'draft' });
  expect(settings).toEqual(expect.arrayContaining(['ZONES_BASE_URL', 'ZONES_ACCESS_TOKEN', 'ZONES_PROFILE']));
});
