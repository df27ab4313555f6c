// What a run must never write down: the access token, and the forged wrong token that AUTH-05 and
// AUTH-06 send, which is the real one but for its last character and so gives it away. Every writer
// (the reports, the could-not-run files, a booking hook's message) masks both, not just the client.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, test, vi } from 'vitest';
import { bookingHooksForReference, settingsForStyle } from '../bin/reference-settings.ts';
import { readTargetConfig } from '../helpers/config.ts';
import { forgedToken, MASKED_EVERYWHERE_FROM, Secrets, shortTokenWarning } from '../helpers/evidence/secrets.ts';
import type { TestOutcome } from '../helpers/judging/verdict.ts';
import { runBookingHook } from '../helpers/ownership/booking-hooks.ts';
import { allureLocations } from '../helpers/report/allure-layout.ts';
import { maskAllureResults } from '../helpers/report/allure-results.ts';
import { buildReport } from '../helpers/report/conformance-report.ts';
import { printSummary } from '../helpers/report/console-output.ts';
import { buildCouldNotRun, writeCouldNotRun } from '../helpers/report/could-not-run.ts';
import { writeReports } from '../helpers/report/write-reports.ts';
import { rules } from '../helpers/rules.ts';
import { startReference } from '../reference/server.ts';
import { runEntry } from './run-node.ts';
import { filesUnder } from './support/files-under.ts';
import { type Front, listening, upstreamFailed } from './support/fronts.ts';
import { sampleOutcome, sampleRunFacts } from './support/sample-run.ts';

const TOKEN = 'shpat_secrets_0123456789abcdef';

/** Every file under a folder, by its path there, as text: for looking for what must never be written. */
const textsUnder = (dir: string): Record<string, string> =>
  Object.fromEntries(filesUnder(dir).map((path) => [relative(dir, path), readFileSync(path, 'utf8')]));
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
  const files = writeReports(report, { reportsDir: dir, secrets: new Secrets(config(dir)), warn: () => {} });
  for (const file of [files.json, files.markdown]) {
    const text = readFileSync(file, 'utf8');
    expect(text, file).not.toContain(TOKEN);
    expect(text, file).not.toContain(FORGED);
    expect(text, file).toContain('accepted <redacted>, the real one being <redacted>');
  }
});

test('junit.xml carries neither the token nor its forgery', () => {
  const { dir, report } = reportQuotingBoth();
  const { junit } = writeReports(report, { reportsDir: dir, secrets: new Secrets({ token: TOKEN }), warn: () => {} });
  const text = readFileSync(junit, 'utf8');
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

// A token too short to be told apart from ordinary text: what a mock without authentication is given.
test.for(['x', 'test', 'abc'])(
  'a placeholder token %s is masked where it stands as the credential, never inside a word',
  (token) => {
    const secrets = new Secrets({ token, authHeader: 'Authorization', authScheme: 'Bearer' });
    const forged = secrets.forged;
    const prose = `zones-conformance | rule | tests | abc-${token}s, ${forged}s and ${token} alone`;
    expect(secrets.mask(prose)).toBe(prose);
    expect(secrets.mask(`> Authorization: Bearer ${token}\n`)).toBe('> Authorization: Bearer <redacted>\n');
    expect(secrets.mask(`{"authorization":"Bearer ${forged}"}`)).toBe('{"authorization":"Bearer <redacted>"}');
    expect(secrets.mask(`bearer ${token}, then`)).toBe('bearer <redacted>, then');
    expect(secrets.mask(`ZONES_ACCESS_TOKEN=${token} sh book.sh`)).toBe('ZONES_ACCESS_TOKEN=<redacted> sh book.sh');
    // A longer value after the scheme is not the token.
    expect(secrets.mask(`Bearer ${token}s`)).toBe(`Bearer ${token}s`);
    // The credential header whole; another header's value is left as it is, even one that equals the
    // token: a rate-limit header of `4` read back as `<redacted>` would mislead the throttle.
    expect(secrets.maskHeaders({ authorization: `Bearer ${token}`, 'x-note': token })).toEqual({
      authorization: '<redacted>',
      'x-note': token,
    });
    // A cut body keeps its last letters, unless they are the credential's start.
    expect(secrets.maskHead(`{"name":"${prose}`)).toBe(`{"name":"${prose}`);
    expect(secrets.maskHead(`{"seen":"Authorization: Bearer ${token}`)).toBe(
      '{"seen":"Authorization: Bearer <redacted>',
    );
  },
);

// The runs' other styles, a credential header with no scheme: the echoing front below quotes the wrong
// token as `X-Api-Key: abd`, which is masked there and nowhere else in the text.
test.for([
  ['x', 'X-Shopify-Access-Token'],
  ['test', 'X-Shopify-Access-Token'],
  ['abc', 'X-Api-Key'],
])('a placeholder token %s quoted under %s, a header with no scheme, is masked there alone', ([token, header]) => {
  const secrets = new Secrets({ token: token!, authHeader: header, authScheme: '' });
  const refusal = (credential: string) =>
    JSON.stringify({ errors: 'invalid credential', seen: `${header}: ${credential}` });
  for (const credential of [token!, secrets.forged])
    expect(secrets.mask(`${refusal(credential)} zones-conformance test ${credential}s`)).toBe(
      `${refusal('<redacted>')} zones-conformance test ${credential}s`,
    );
});

test('from 8 characters a token is masked everywhere, inside words too; below, it is named a placeholder once', () => {
  expect(MASKED_EVERYWHERE_FROM).toBe(8);
  expect(new Secrets({ token: 'abcdefgh' }).mask('xabcdefghx')).toBe('x<redacted>x');
  expect(new Secrets({ token: 'abcdefg' }).mask('xabcdefgx')).toBe('xabcdefgx');
  expect(new Secrets({ token: 'abcdefg' }).mask('X-Shopify-Access-Token: abcdefg')).toBe(
    'X-Shopify-Access-Token: abcdefg',
  );
  expect(
    new Secrets({ token: 'abcdefg', authHeader: 'X-Shopify-Access-Token' }).mask('x-shopify-access-token: abcdefg'),
  ).toBe('x-shopify-access-token: <redacted>');
  expect(shortTokenWarning('abcdefg')).toMatch(
    /^ZONES_ACCESS_TOKEN is 7 character\(s\) long, which looks like a placeholder/,
  );
  // A body cut in the middle of a short credential keeps none of its start, and the rest of its text.
  const cut = new Secrets({ token: 'test', authHeader: 'Authorization', authScheme: 'Bearer' });
  expect(cut.maskHead('{"seen":"Authorization: Bearer te')).toBe('{"seen":"Authorization: Bearer ');
  expect(cut.maskHead('{"name":"a te')).toBe('{"name":"a te');
  expect(shortTokenWarning('abcdefg')).not.toContain('abcdefg');
  expect(shortTokenWarning('abcdefgh')).toBeUndefined();
  expect(shortTokenWarning('')).toBeUndefined();
});

/**
 * The reference behind a front that, as many shops do, quotes the credential it refused in the refusal's
 * body, under the credential header's name: `{"errors":"invalid credential","seen":"Authorization: Bearer a"}`.
 * So the wrong token of AUTH-05 and AUTH-06 reaches the evidence, and the masker has something to do.
 */
function startEchoingFront(upstream: string, authHeader: string): Promise<Front> {
  const notPassedOn = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'content-encoding']);
  const passed = (headers: Iterable<[string, string | string[] | undefined]>) =>
    Object.fromEntries(
      [...headers].filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string' && !notPassedOn.has(entry[0]),
      ),
    );
  async function handle(
    req: IncomingMessage,
  ): Promise<{ status: number; headers: Record<string, string>; body: string }> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const answer = await fetch(`${upstream}${req.url}`, {
      method: req.method,
      headers: passed(Object.entries(req.headers)),
      body: chunks.length === 0 ? undefined : Buffer.concat(chunks),
    });
    const body = await answer.text();
    if (answer.status !== 401 && answer.status !== 403)
      return { status: answer.status, headers: passed(answer.headers.entries()), body };
    const seen = req.headers[authHeader.toLowerCase()];
    const echo = { errors: 'invalid credential', seen: seen === undefined ? '' : `${authHeader}: ${String(seen)}` };
    return { status: answer.status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(echo) };
  }
  const server = createServer((req, res) => {
    handle(req).then(
      ({ status, headers, body }) => res.writeHead(status, headers).end(body),
      () => upstreamFailed(res),
    );
  });
  return listening(server, 'http');
}

/**
 * A run with `token` against the reference of `style` behind the echoing front: the AUTH and CREATE
 * families, where the wrong token is sent and quoted back, and no model-based run. Every report is
 * written as by a whole run, with the rules left out listed as not selected, at a third of the CPU.
 */
async function wholeRun(token: string, style: string) {
  const reference = await startReference({ token, style });
  const front = await startEchoingFront(reference.url, reference.style.authHeader);
  try {
    const dir = mkdtempSync(join(tmpdir(), 'zc-secrets-run-'));
    const run = await runEntry('bin/conformance.ts', ['--rule', 'AUTH,CREATE'], {
      ...settingsForStyle(reference.style, front.url, reference.token),
      ...bookingHooksForReference(reference.url),
      ZONES_REPORTS_DIR: dir,
      ZONES_MODEL_RUNS: '0',
    });
    return { run, console: `${run.stdout}\n${run.stderr}`, files: textsUnder(dir), forged: forgedToken(token) };
  } finally {
    await front.close();
    await reference.close();
  }
}

/** The mask as text shows it: as written, or escaped in XML and HTML. */
const MASK = /<redacted>|&lt;redacted&gt;/;
const GLUED = /[\p{L}\p{N}_]+(?:<redacted>|&lt;redacted&gt;)|(?:<redacted>|&lt;redacted&gt;)[\p{L}\p{N}_]+/u;

// A run per token kind, whose every output is checked at once: a run costs seconds of CPU. The writers
// mask with one Secrets whatever the token, so one placeholder run proves their wiring; what the masker
// does with each placeholder, and under each style's header, is checked on the masker above and below.
// They take the self-tests' one generous limit (vitest.selftest.config.ts), so that a slower machine passes too.
describe('runs through the launcher', () => {
  test('with the placeholder token x (bearer-bare style), the console and every report read normally', async () => {
    const { run, console: printed, files, forged } = await wholeRun('x', 'bearer-bare');
    // A partial run is incomplete (exit 2) whatever its rules did; every rule it ran passed.
    expect(run.code, printed).toBe(2);
    expect(printed).toMatch(/verdict: INCOMPLETE {2}MUST 9 passed, 0 failed/);
    // Said once, on stderr, without the token.
    expect(run.stderr.match(/looks like a placeholder/g)).toHaveLength(1);
    expect(run.stderr).toContain('zones-conformance: ZONES_ACCESS_TOKEN is 1 character(s) long');
    expect(printed).toContain('zones-conformance: certifying');
    expect(printed).toMatch(/^\s*rule\s+level\s+result\s+tests$/m);
    expect(printed).not.toMatch(MASK);
    const names = Object.keys(files);
    expect(names).toEqual(expect.arrayContaining(['conformance.md', 'conformance.json', 'junit.xml']));
    expect(names.filter((name) => name.startsWith('allure-results')).length).toBeGreaterThan(10);
    for (const name of ['conformance.md', 'conformance.json', 'junit.xml'])
      expect(files[name], name).toContain('zones-conformance');
    for (const [name, text] of Object.entries(files)) expect(text, name).not.toMatch(GLUED);
    // The refusals quoted the wrong credential: masked there, and only there.
    const attachments = Object.entries(files).filter(([name]) => name.endsWith('-attachment.txt'));
    const masks = attachments.flatMap(([, text]) => text.match(/.{0,30}<redacted>/g) ?? []);
    expect(masks.length, 'the echoed credential reached the attachments').toBeGreaterThan(0);
    for (const masked of masks) expect(masked).toMatch(/: (?:Bearer )?<redacted>$/);
    for (const [name, text] of attachments) {
      expect(text, name).not.toContain(`: ${forged}"`);
      expect(text, name).not.toContain(`: Bearer ${forged}"`);
    }
  });

  test('with a 32-character token, no report, console line or attachment holds it or its wrong twin', async () => {
    const token = 'shpat_0123456789abcdef0123456789';
    expect(token).toHaveLength(32);
    const { run, console: printed, files, forged } = await wholeRun(token, 'bearer-bare');
    expect(run.code, printed).toBe(2);
    expect(run.stderr).not.toContain('looks like a placeholder');
    for (const [name, text] of Object.entries({ console: printed, ...files })) {
      expect(text, name).not.toContain(token);
      expect(text, name).not.toContain(forged);
    }
    // The refusals did quote the wrong token, so the masker was put to work.
    const attachments = Object.entries(files).filter(([name]) => name.endsWith('-attachment.txt'));
    expect(attachments.some(([, text]) => text.includes('Authorization: Bearer <redacted>'))).toBe(true);
  });
});
