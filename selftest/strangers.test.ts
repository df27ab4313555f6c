// Shops nobody here wrote, and the slips people make wiring a nightly job, tried as a new user would:
// through the CLI, against targets whose settings are wrong. Each expected outcome was decided from
// the specification first: a slip in the settings is exit 3 naming the setting, never a verdict on
// the shop and never a green run on the embedded reference; a shop that breaks a rule is told which,
// with a hint where the settings may be at fault. No run may leave a zone of its own on the target.
// The preflight's refusals are asked of the preflight in this process (support/net-in-process.ts): the
// reason it gives is the line a run prints before exit 3, whose way out through the CLI cli.test.ts shows.
// A refusal followed by a sweep, and a host that never answers, whose waiting line the launcher prints,
// still run the CLI.
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { bookingHooksForReference, settingsForStyle } from '../bin/reference-settings.ts';
import { readTargetConfig } from '../helpers/config.ts';
import type { ConformanceReport } from '../helpers/report/certificate.ts';
import { type RunningReference, startReference } from '../reference/server.ts';
import { certifyMany } from './gallery/certify-many.ts';
import { runEntry, startEntry } from './run-node.ts';
import { listening, upstreamFailed } from './support/fronts.ts';
import { preflightRefusal } from './support/net-in-process.ts';
import { type Answer, startRewritingFront } from './support/rewriting-front.ts';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function shop(options: Parameters<typeof startReference>[0] = {}): Promise<RunningReference> {
  const reference = await startReference(options);
  closers.push(() => reference.close());
  return reference;
}

const reportsDir = () => mkdtempSync(join(tmpdir(), 'zc-strangers-'));
const conformance = (env: Record<string, string>, args: string[] = []) => runEntry('bin/conformance.ts', args, env);
const sweep = (env: Record<string, string>, args: string[] = []) => runEntry('bin/sweep.ts', args, env);

/** What the shop holds now, read with the shop's own settings, past any setting under test. */
async function zonesOn(reference: RunningReference): Promise<{ name: string }[]> {
  const { authHeader, authScheme } = reference.style;
  const answer = await fetch(`${reference.url}/admin/api/2026-07/zones.json`, {
    headers: { [authHeader]: authScheme ? `${authScheme} ${reference.token}` : reference.token },
  });
  const body = (await answer.json()) as { zones?: { name: string }[] } | { name: string }[];
  return Array.isArray(body) ? body : (body.zones ?? []);
}

async function expectNothingOfOursLeft(reference: RunningReference): Promise<void> {
  expect((await zonesOn(reference)).filter((zone) => zone.name.startsWith('zc-')).map((zone) => zone.name)).toEqual([]);
}

function reportIn(dir: string): ConformanceReport {
  return JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport;
}

function ruleOf(report: ConformanceReport, id: string) {
  return report.rules.find((rule) => rule.id === id)!;
}

describe('a nightly job wired wrong never certifies the embedded reference', () => {
  test.for([
    [{ ZONES_BASE_URL: '' }, /ZONES_BASE_URL is set but empty/],
    [
      { ZONE_BASE_URL: 'http://127.0.0.1:9' },
      /ZONE_BASE_URL is not a setting of this suite; did you mean ZONES_BASE_URL\?/,
    ],
    [{ zones_base_url: 'http://127.0.0.1:9' }, /did you mean ZONES_BASE_URL\?/],
    [{ ZONES_ACCESS_TOKEN: 'shpat_x' }, /ZONES_ACCESS_TOKEN is set but ZONES_BASE_URL is not/],
  ] as [Record<string, string>, RegExp][])('%o stops with exit 3 and one line', async ([env, message]) => {
    const run = await conformance({ ...env, ZONES_REPORTS_DIR: reportsDir() });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(message);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stdout).not.toMatch(/embedded reference|verdict/);
  });
});

describe('the preflight proves the settings before any test', () => {
  test('a wrong ZONES_ID_FIELD on a new, empty shop: the preflight refuses it, naming it and the fields there are, and leaves nothing behind', async () => {
    const reference = await shop();
    const refusal = await preflightRefusal({
      ...settingsForStyle(reference.style, reference.url, reference.token),
      ZONES_ID_FIELD: 'zone_id',
    });
    expect(refusal).toMatch(/no usable "zone_id" \(ZONES_ID_FIELD\); its fields are id, name, coverage, status/);
    expect(refusal).toMatch(/was deleted \(its id was in "id": set ZONES_ID_FIELD=id\?\)/);
    expect(await zonesOn(reference)).toEqual([]);
  });

  test('when the zone cannot be proved ours by any id, it is named, and npm run sweep finds it once the setting is fixed', async () => {
    const reference = await shop();
    // Somebody else's zone appears right after the preflight's create, showing the new zone's id as a
    // value of its own: a DELETE by that value could then hit it, so the suite must not try one.
    const front = await frontFor(
      reference,
      (created) => void reference.backdoor.plant({ name: created, coverage: {} }),
    );
    const dir = reportsDir();
    const settings = settingsForStyle(reference.style, front, reference.token);
    const run = await conformance({ ...settings, ZONES_ID_FIELD: 'zone_id', ZONES_REPORTS_DIR: dir });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(
      /The zone the preflight made, (zc-\S+), is still on the shop .*fix ZONES_ID_FIELD, then run npm run sweep -- --yes/,
    );
    const left = /made, (zc-\S+), is still/.exec(run.stderr)![1]!;
    const leftZone = (await zonesOn(reference)).find((zone) => zone.name === left) as
      | { name: string; id: number }
      | undefined;
    expect(leftZone).toBeDefined();

    const plan = await sweep({ ...settings, ZONES_REPORTS_DIR: dir });
    expect(plan.stdout).toContain(`would delete ${leftZone!.id} ${left}`);
    expect((await sweep({ ...settings, ZONES_REPORTS_DIR: dir }, ['--yes'])).code).toBe(0);
    expect((await zonesOn(reference)).map((zone) => zone.name)).toEqual([String(leftZone!.id)]);
  });

  test('the API root pasted as the base URL: the preflight refuses it, naming ZONES_BASE_URL and its path', async () => {
    const reference = await shop();
    const settings = settingsForStyle(reference.style, `${reference.url}/admin/api/2026-07`, reference.token);
    expect(await preflightRefusal(settings)).toMatch(
      /answered 404.*ZONES_BASE_URL has the path "\/admin\/api\/2026-07".*try http:\/\/127\.0\.0\.1:\d+\)/,
    );
  });

  test('a shop whose schema refuses the default coverage samples: the preflight stops, naming ZONES_COVERAGE_SAMPLES, and leaves nothing behind', async () => {
    const reference = await shop({ style: 'schema-checked' });
    const { ZONES_COVERAGE_SAMPLES: _samples, ...settings } = settingsForStyle(
      reference.style,
      reference.url,
      reference.token,
    );
    expect(await preflightRefusal(settings)).toMatch(
      /refuses the create body .*answered 422.*regions.*ZONES_COVERAGE_SAMPLES.*ZONES_EXTRA_FIELDS/,
    );
    await expectNothingOfOursLeft(reference);
  });

  test.for([
    ['an empty body', '', /answered 200 with an empty body, so no list came back; check ZONES_BASE_URL/],
    [
      'a list under another key',
      '{"data":[],"meta":{}}',
      /the body has no "zones" array; the body's members are data, meta/,
    ],
  ])('a list answer with %s: the preflight stops, saying what came back', async ([, body, message]) => {
    const stub: Server = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(body),
    );
    const front = await listening(stub, 'http');
    closers.push(front.close);
    const refusal = await preflightRefusal({ ZONES_BASE_URL: front.url, ZONES_ACCESS_TOKEN: 'shpat_stub_0123456789' });
    expect(refusal).toMatch(message as RegExp);
  });

  test('a host that takes connections and never answers: a line while it waits, then exit 3 naming the time limit', async () => {
    const asked: string[] = [];
    const silent: Server = createServer((req) => void asked.push(`${req.method} ${req.url}`));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    closers.push(
      () =>
        new Promise((resolve) => {
          silent.closeAllConnections();
          silent.close(() => resolve());
        }),
    );
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const run = await conformance({
      ZONES_BASE_URL: url,
      ZONES_ACCESS_TOKEN: 'shpat_silent_0123456789',
      ZONES_TIMEOUT_MS: '6000',
      ZONES_REPORTS_DIR: reportsDir(),
    });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/waiting for an answer to GET .*zones\.json \(5 s so far/);
    expect(run.stderr).toMatch(
      /cannot run: the target does not answer: GET .* got no answer within 6000 ms \(ZONES_TIMEOUT_MS\)/,
    );
    // Asked once, not once and three retries. Counted, not timed: a slow machine takes longer to start.
    expect(asked).toHaveLength(1);
  });
});

// The four shops below certified in one vitest run, as the gallery certifies its targets, on the settings
// read as a run reads them: the evidence is each certificate's content; what the launcher prints and
// exits for a partial run is the test below's, and the settings' refusals are the child runs above.
// One --rule for all four: the rules judged below, the union of what each shop's test needs, so a
// failure of LIST-02 decides the exit code where it fails, and AUTH-05 is judged where no rule fails.
const unaffected = ['AUTH-05', 'CREATE-01', 'CREATE-02', 'UPDATE-01', 'UPDATE-04', 'DELETE-02'];
const RULES = ['AUTH', 'LIST-02', 'UPDATE-03', 'DELETE-01', ...unaffected].join(',');
const references = new Map<string, RunningReference>();
/** What the example mock's front changed: without both kinds of rewrite its test would prove nothing. */
const rewritten = { names: 0, refusals: 0 };
let reports: Map<string, ConformanceReport>;

beforeAll(async () => {
  const ignored = await startReference();
  const broken = await startReference();
  const filtered = await startReference();
  references.set('ignored filter', ignored);
  references.set('broken list', broken);
  references.set('refused filter', filtered);
  const examples = await startReference();
  references.set('example mock', examples);
  const exampleFront = await startRewritingFront(examples.url, asExamples);
  closers.push(() => exampleFront.close());
  const dir = reportsDir();
  const hooks = (reference: RunningReference) => bookingHooksForReference(reference.url);
  const settings = {
    // A filter parameter the shop ignores.
    'ignored filter': {
      ...settingsForStyle(ignored.style, ignored.url, ignored.token),
      ...hooks(ignored),
      ZONES_STATUS_PARAM: 'state',
      // LIST-02's example test gives the hint; the model-based sequences of the other rules would only cost time.
      ZONES_MODEL_RUNS: '0',
    },
    // Of the rules run, only the AUTH family sends calls without a credential, after which the front
    // breaks a list read (PROFILE's tests send some too, and are SHOULD). A full run meets the broken
    // reads in AUTH-05 and PROFILE-03 alone.
    'broken list': {
      ...settingsForStyle(broken.style, await listBrokenAfterUnauthenticated(broken), broken.token),
      ...hooks(broken),
      // Without the model-based suite: only the rules' example tests are read here.
      ZONES_MODEL_RUNS: '0',
    },
    'refused filter': {
      ...settingsForStyle(filtered.style, await refusingFilter(filtered, filtered.style.statusParam), filtered.token),
      ...hooks(filtered),
    },
    // A mock answering from examples.
    'example mock': {
      ...settingsForStyle(examples.style, exampleFront.url, examples.token),
      // Without the model-based suite: only AUTH-01's example test is read here.
      ZONES_MODEL_RUNS: '0',
    },
  };
  const targets = Object.entries(settings).map(([name, env]) => ({
    name,
    config: readTargetConfig({ ...env, ZONES_REPORTS_DIR: dir }),
  }));
  // One worker takes the four in turn: a second would load vitest and the suites again for one shop.
  reports = await certifyMany(targets, {
    workers: 1,
    include: ['selftest/gallery/all-suites.gallery.ts'],
    rule: RULES,
  });
  // The fronts served the run alone; the shops stay to be read.
  for (const close of closers.splice(0)) await close();
});

afterAll(async () => {
  await Promise.all([...references.values()].map((reference) => reference.close()));
});

describe('where the target and the settings disagree, the failure says which setting may be at fault', () => {
  test('a filter parameter the shop ignores fails LIST-02 with a hint at ZONES_STATUS_PARAM', async () => {
    const report = reports.get('ignored filter')!;
    expect(report.exitCode).toBe(1);
    expect(ruleOf(report, 'LIST-02')).toMatchObject({
      status: 'failed',
      reason: expect.stringContaining('ZONES_STATUS_PARAM (now "state")'),
    });
    expect(report.cleanup.leftBehind).toEqual([]);
    await expectNothingOfOursLeft(references.get('ignored filter')!);
  });

  test('a list read-back that fails is not blamed on AUTH-05: not verified, with the reason, and no other rule fails', async () => {
    const report = reports.get('broken list')!;
    expect(ruleOf(report, 'AUTH-05')).toMatchObject({
      status: 'not-verified',
      reason: expect.stringContaining('the zone list answered 404, so this check cannot be made'),
    });
    expect(
      report.rules.filter((rule) => rule.level === 'must' && rule.status === 'failed').map((rule) => rule.id),
    ).toEqual([]);
    expect(report.exitCode).toBe(2);
    await expectNothingOfOursLeft(references.get('broken list')!);
  });

  test('a filter that answers 404 fails the rules about the filter only; DELETE-01 is not verified, with the reason', async () => {
    const report = reports.get('refused filter')!;
    expect(report.exitCode).toBe(1);
    expect(ruleOf(report, 'LIST-02')).toMatchObject({
      status: 'failed',
      reason: expect.stringContaining('ZONES_STATUS_PARAM'),
    });
    expect(ruleOf(report, 'UPDATE-03').status).toBe('failed');
    expect(ruleOf(report, 'DELETE-01')).toMatchObject({
      status: 'not-verified',
      reason: expect.stringMatching(/the list filtered by draft \(status=draft\) answered 404.*ZONES_STATUS_PARAM/),
    });
    for (const id of unaffected) expect([id, ruleOf(report, id).status]).toEqual([id, 'passed']);
    await expectNothingOfOursLeft(references.get('refused filter')!);
  });
});

// A mock that answers from examples, as Prism does from an OpenAPI document: every zone it returns is
// named "string", and its refusals say {"errors":"string"}. AUTH-01 asks that a refusal carry no zone
// data; judged by the name the shop answered, the word "string" in the error text looked like a leak.
// The check must look for the unique name the suite sent, which no refusal of such a mock contains.
test('AUTH-01 passes on a mock whose refusal text is the same word as every zone name it answers', () => {
  const auth01 = ruleOf(reports.get('example mock')!, 'AUTH-01');
  expect([auth01.status, auth01.reason], JSON.stringify(auth01.tests)).toEqual(['passed', undefined]);
  // The front did rewrite: the zones it answered carried the example name, and its refusals the same word.
  expect(rewritten.names, 'no zone name was rewritten: the test proves nothing').toBeGreaterThan(0);
  expect(rewritten.refusals, 'no refusal was rewritten: the test proves nothing').toBeGreaterThan(0);
  // And AUTH-01's own test met both: other rules of this run send refusals and zones through the front too.
  const lines = auth01.tests.flatMap((test) => test.exchanges);
  expect(
    lines.filter((line) => / -> 40[13]$/.test(line)),
    'AUTH-01 met no refusal',
  ).not.toEqual([]);
  expect(
    lines.filter((line) => / -> 20[01]$/.test(line)),
    'AUTH-01 met no zone',
  ).not.toEqual([]);
});

/** Every "name" in a JSON answer becomes "string", and every refusal's body {"errors":"string"}. */
function asExamples(answer: Answer): Answer {
  if (answer.status === 401 || answer.status === 403) {
    rewritten.refusals += 1;
    return { ...answer, body: '{"errors":"string"}' };
  }
  if (!String(answer.headers['content-type'] ?? '').includes('json')) return answer;
  const body = answer.body.replace(/"name":"[^"]*"/g, () => {
    rewritten.names += 1;
    return '"name":"string"';
  });
  return { ...answer, body };
}

test('a reader of the output that goes away (| head, a Ctrl-C that took | tee down) does not stop the clean-up or the reports', async () => {
  const reference = await shop();
  const dir = reportsDir();
  // The AUTH family: fifteen tests, each a line printed after the reader is gone, and zones to
  // clean up. A partial run is at best incomplete (exit 2), so every rule it selected must pass.
  const started = startEntry('bin/conformance.ts', ['--rule', 'AUTH'], {
    ...settingsForStyle(reference.style, reference.url, reference.token),
    ...bookingHooksForReference(),
    ZONES_REPORTS_DIR: dir,
  });
  // Gone after the first line, as `| head -1` would be.
  started.child.stdout!.once('data', () => started.child.stdout!.destroy());
  const ended = await started.done;
  expect(ended.stderr).not.toMatch(/EPIPE|at .*\.ts:\d+/);
  expect(ended.code).toBe(2);
  const report = reportIn(dir);
  expect(report).toMatchObject({ verdict: 'incomplete', suiteErrors: [], cleanup: { leftBehind: [] } });
  const selected = report.selection?.rules ?? [];
  expect(selected).toContain('AUTH-01');
  expect(selected.map((id) => [id, ruleOf(report, id).status])).toEqual(selected.map((id) => [id, 'passed']));
  await expectNothingOfOursLeft(reference);
});

/**
 * A front for the reference whose list breaks for one read after each call without a credential:
 * the next list read that carries one answers 404. Refusals themselves are left as they are.
 */
function listBrokenAfterUnauthenticated(upstream: RunningReference): Promise<string> {
  const header = upstream.style.authHeader.toLowerCase();
  let broken = false;
  return frontFor(upstream, undefined, (url, req) => {
    if (req.headers[header] === undefined) {
      broken = true;
      return false;
    }
    // Only a list read takes the break: creates go to the same path.
    const refuse = broken && req.method === 'GET' && url.pathname.endsWith('/zones.json');
    if (refuse) broken = false;
    return refuse;
  });
}

/** A front for the reference that answers 404 to every list read carrying the filter parameter. */
function refusingFilter(upstream: RunningReference, param: string): Promise<string> {
  return frontFor(upstream, undefined, (url) => url.searchParams.has(param));
}

/**
 * A front for the reference: passes everything on, but answers 404 itself to the GETs `refuse` picks,
 * and tells `afterCreate` the id of each zone a POST made, once that answer has been passed back.
 */
async function frontFor(
  upstream: RunningReference,
  afterCreate?: (id: string) => void,
  refuse?: (url: URL, req: IncomingMessage) => boolean,
): Promise<string> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://front');
    if (refuse?.(url, req) && req.method === 'GET') {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"errors":"Not Found"}');
      return;
    }
    const onward = request(`${upstream.url}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        res.writeHead(answer.statusCode ?? 502, answer.headers).end(Buffer.concat(chunks));
        if (req.method === 'POST' && answer.statusCode === 201)
          afterCreate?.(String((JSON.parse(Buffer.concat(chunks).toString()) as { zone: { id: number } }).zone.id));
      });
    });
    onward.on('error', () => upstreamFailed(res));
    req.pipe(onward);
  });
  const front = await listening(server, 'http');
  closers.push(front.close);
  return front.url;
}
