// What a run must never write down: the access token, and the forged wrong token that AUTH-05 and
// AUTH-06 send, which is the real one but for its last character and so gives it away. Every writer
// (the reports, the could-not-run files, a booking hook's message) masks both, not just the client.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, vi } from 'vitest';
import { readTargetConfig } from '../helpers/config.ts';
import { forgedToken, Secrets } from '../helpers/evidence/secrets.ts';
import { runBookingHook } from '../helpers/ownership/booking-hooks.ts';
import { allureLocations } from '../helpers/report/allure-layout.ts';
import { maskAllureResults } from '../helpers/report/allure-results.ts';
import { buildReport, writeReport } from '../helpers/report/conformance-report.ts';
import { printSummary } from '../helpers/report/console-output.ts';
import { buildCouldNotRun, writeCouldNotRun } from '../helpers/report/could-not-run.ts';
import { writeJunit } from '../helpers/report/junit.ts';
import { rules } from '../helpers/rules.ts';
import type { TestOutcome } from '../helpers/runner/verdict.ts';
import { sampleOutcome, sampleRunFacts } from './support/sample-run.ts';

const TOKEN = 'shpat_secrets_0123456789abcdef';
const FORGED = forgedToken(TOKEN);
const reportsDir = () => mkdtempSync(join(tmpdir(), 'zc-secrets-'));
const config = (dir: string) =>
  readTargetConfig({ ZONES_BASE_URL: 'https://shop.example', ZONES_ACCESS_TOKEN: TOKEN, ZONES_REPORTS_DIR: dir });

/** A failure whose reason quotes both credentials, as a target that echoes a header back would make it. */
function reportQuotingBoth() {
  const outcomes = rules.map(
    (rule): TestOutcome =>
      sampleOutcome(`${rule.id} a check`, rule.id === 'AUTH-06' ? 'failed' : 'passed', {
        reason: rule.id === 'AUTH-06' ? `accepted ${FORGED}, the real one being ${TOKEN}` : undefined,
        exchanges: [`GET https://shop.example/echo/${FORGED} -> 200`],
        // The whole exchange and its curl command, as a failure carries them into every report.
        evidence:
          rule.id === 'AUTH-06'
            ? [
                {
                  line: `GET https://shop.example/echo/${FORGED} -> 200`,
                  shown: `> GET https://shop.example/echo/${FORGED}\n< 200\n  {"seen":"${TOKEN}"}`,
                  curl: `curl -sS -i -X GET 'https://shop.example/echo/${FORGED}'`,
                },
              ]
            : undefined,
      }),
  );
  const dir = reportsDir();
  return {
    dir,
    report: buildReport(sampleRunFacts(config(dir), outcomes)),
  };
}

test('the forgery is the token but for its last character: masking the token alone leaves it readable', () => {
  expect(FORGED).not.toBe(TOKEN);
  expect(FORGED.slice(0, -1)).toBe(TOKEN.slice(0, -1));
});

test('the masker hides the token, its forgery and the credential header, even cut short', () => {
  const secrets = new Secrets({ token: TOKEN, authHeader: 'X-Api-Key' });
  expect(secrets.forged).toBe(FORGED);
  expect(secrets.mask(`a ${TOKEN} b ${FORGED} c`)).toBe('a <redacted> b <redacted> c');
  expect(secrets.maskHeaders({ 'x-api-key': 'Bearer anything', echo: `Bearer ${FORGED}` })).toEqual({
    'x-api-key': '<redacted>',
    echo: 'Bearer <redacted>',
  });
  // A body cut off in the middle of the forgery keeps no beginning of it either.
  expect(secrets.maskHead(`{"seen":"${FORGED.slice(0, 12)}`)).toBe('{"seen":"');
  expect(new Secrets({ token: '' }).mask('nothing to hide')).toBe('nothing to hide');
});

test('conformance.json and conformance.md carry neither the token nor its forgery', () => {
  const { dir, report } = reportQuotingBoth();
  const files = writeReport(report, config(dir));
  for (const file of [files.json, files.markdown]) {
    const text = readFileSync(file, 'utf8');
    expect(text, file).not.toContain(TOKEN);
    expect(text, file).not.toContain(FORGED);
    expect(text, file).toContain('accepted <redacted>, the real one being <redacted>');
  }
});

test('junit.xml carries neither the token nor its forgery', () => {
  const { dir, report } = reportQuotingBoth();
  const text = readFileSync(writeJunit(report, dir, TOKEN), 'utf8');
  expect(text).not.toContain(TOKEN);
  expect(text).not.toContain(FORGED);
  // Masked before the XML is written, so the mask is escaped and the file stays well-formed.
  expect(text).toContain('accepted &lt;redacted&gt;');
  expect(text).not.toContain('<redacted>');
});

test('the could-not-run files carry neither the token nor its forgery', () => {
  const dir = reportsDir();
  const files = writeCouldNotRun(
    buildCouldNotRun(`the target answered with ${FORGED} and ${TOKEN}`, new Date(0), 'https://shop.example'),
    { reportsDir: dir, token: TOKEN, baseUrl: 'https://shop.example' },
  );
  for (const file of Object.values(files)) {
    const text = readFileSync(file, 'utf8');
    expect(text, file).not.toContain(TOKEN);
    expect(text, file).not.toContain(FORGED);
  }
  expect(readFileSync(files.junit, 'utf8')).toContain('answered with &lt;redacted&gt; and &lt;redacted&gt;');
});

test("a booking hook's message carries neither the token nor its forgery", async () => {
  const hook = `echo "given $ZONES_ACCESS_TOKEN, tried ${FORGED}" >&2; exit 1`;
  const failed = runBookingHook(config(reportsDir()), hook, { text: '7' }, 'ZONES_BOOKING_HOOK');
  await expect(failed).rejects.toThrow('given <redacted>, tried <redacted>');
});

test('the Allure results, which quote answers as the target sent them, are masked once the run is over', () => {
  const dir = reportsDir();
  mkdirSync(allureLocations(dir).results);
  const quoting = join(allureLocations(dir).results, 'a-result.json');
  const plain = join(allureLocations(dir).results, 'b-attachment.txt');
  writeFileSync(quoting, JSON.stringify({ name: `expect({"body":{"name":"${FORGED}"}})`, token: TOKEN }));
  writeFileSync(plain, 'GET /zones.json -> 200');
  maskAllureResults(dir, new Secrets({ token: TOKEN }));
  const text = readFileSync(quoting, 'utf8');
  expect(text).not.toContain(TOKEN);
  expect(text).not.toContain(FORGED);
  expect(readFileSync(plain, 'utf8')).toBe('GET /zones.json -> 200');
});

test("the console's summary carries neither the token nor its forgery", () => {
  const { report } = reportQuotingBoth();
  const printed: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void printed.push(line));
  try {
    printSummary(report, { json: 'conformance.json', markdown: 'conformance.md' }, new Secrets({ token: TOKEN }));
  } finally {
    log.mockRestore();
  }
  const text = printed.join('\n');
  expect(text).toContain('AUTH-06');
  expect(text).not.toContain(TOKEN);
  expect(text).not.toContain(FORGED);
});
