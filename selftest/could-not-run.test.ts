// What a run that cannot start writes (helpers/report/could-not-run.ts): where it goes when the settings
// are too bad to say, and that the token stays out of it even when the reason carries it.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { buildCouldNotRun, factsFromRawSettings, writeCouldNotRun } from '../helpers/report/could-not-run.ts';

const TOKEN = 'shpat_could_not_run_0123456789';

test('before the settings are valid, the raw ZONES_REPORTS_DIR is used, else the default', () => {
  expect(
    factsFromRawSettings({
      ZONES_REPORTS_DIR: ' out/ci ',
      ZONES_BASE_URL: 'https://shop.example/',
      ZONES_ACCESS_TOKEN: ` ${TOKEN} `,
    }),
  ).toEqual({ reportsDir: 'out/ci', token: TOKEN, baseUrl: 'https://shop.example' });
  expect(factsFromRawSettings({ ZONES_REPORTS_DIR: '  ' })).toEqual({
    reportsDir: 'reports',
    token: '',
    baseUrl: null,
  });
});

test('a user name and password in the raw base URL never reach the could-not-run reports', () => {
  for (const address of ['https://ops:s3cret-Pass@shop.example/', 'https://ops:s3cret-Pass@shop example/'])
    expect(factsFromRawSettings({ ZONES_BASE_URL: address }).baseUrl).toBe(
      address.replace('ops:s3cret-Pass@', '').replace(/\/$/, ''),
    );
});

test('no file carries the token, even when the reason and the base URL do', () => {
  const dir = mkdtempSync(join(tmpdir(), 'zc-could-not-run-'));
  const baseUrl = `https://shop.example/${TOKEN}`;
  const files = writeCouldNotRun(
    buildCouldNotRun(`cannot reach the target at ${baseUrl}: <refused> & "gone"`, new Date(0), baseUrl),
    { reportsDir: dir, token: TOKEN, baseUrl },
  );

  expect(readdirSync(dir).sort()).toEqual([
    'badge.svg',
    'conformance.html',
    'conformance.json',
    'conformance.md',
    'junit.xml',
    'summary.md',
  ]);
  for (const file of Object.values(files)) expect(readFileSync(file, 'utf8'), file).not.toContain(TOKEN);
  expect(JSON.parse(readFileSync(files.json, 'utf8'))).toMatchObject({
    verdict: 'could-not-run',
    reason: 'cannot reach the target at https://shop.example/<redacted>: <refused> & "gone"',
    target: { baseUrl: 'https://shop.example/<redacted>' },
  });
  expect(readFileSync(files.junit, 'utf8')).toContain('&lt;refused&gt; &amp; &quot;gone&quot;</error>');
  // The certificate page says the same, as text: the reason's markup characters escaped.
  const page = readFileSync(files.page, 'utf8');
  expect(page).toContain('<h1>COULD NOT RUN</h1>');
  expect(page).toContain(
    '<pre>cannot reach the target at https://shop.example/&lt;redacted&gt;: &lt;refused&gt; &amp; &quot;gone&quot;</pre>',
  );
});
