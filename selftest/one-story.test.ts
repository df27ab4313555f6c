// One run, one story in every format. The reference in the `other-codes` house style with a fault
// that ignores a new name, and no booking hook, gives a MUST failure (UPDATE-01), SHOULD warnings
// (PROFILE-02) and a rule not verified (DELETE-02). The console, conformance.json, conformance.md,
// junit.xml and the Allure results must each say the same of each: a failure, a warning that never
// looks like a failure, and not verified with its reason.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { settingsForStyle } from '../bin/reference-settings.ts';
import type { ConformanceReport } from '../helpers/report/conformance-report.ts';
import { type RunningReference, startReference } from '../reference/server.ts';
import { runEntry } from './run-node.ts';

const TOKEN = 'shpat_selftest_story_0123456789abcdef';
const NO_BOOKING =
  'no booking fixture: set ZONES_BOOKED_ZONE_ID to a zone with booking history, or ZONES_BOOKING_HOOK to a command that books the zone in $ZONE_ID';

/** What a format says of a rule, in words every format can be read into. */
type Said = 'MUST failure' | 'SHOULD warning' | `not verified: ${string}` | 'passed' | `unreadable: ${string}`;

const EXPECTED: Record<string, Said> = {
  'UPDATE-01': 'MUST failure',
  'PROFILE-02': 'SHOULD warning',
  'DELETE-02': `not verified: ${NO_BOOKING}`,
};

interface AllureResult {
  name: string;
  status: string;
  statusDetails?: { message?: string };
  labels: { name: string; value: string }[];
  steps?: AllureStep[];
}
interface AllureStep {
  name?: string;
  attachments?: { name: string; source: string }[];
  steps?: AllureStep[];
}

let reference: RunningReference;
let reportsDir: string;
let console: string;
let json: ConformanceReport;
let markdown: string;
let junit: string;
let allure: AllureResult[];

beforeAll(async () => {
  reference = await startReference({ token: TOKEN, style: 'other-codes', fault: 'update-ignores-name' });
  reportsDir = mkdtempSync(join(tmpdir(), 'zc-story-'));
  const run = await runEntry('bin/conformance.ts', [], {
    ...settingsForStyle(reference.style, reference.url, TOKEN),
    ZONES_REPORTS_DIR: reportsDir,
  });
  expect(run.code, run.stderr).toBe(1);
  console = run.stdout;
  json = JSON.parse(readFileSync(join(reportsDir, 'conformance.json'), 'utf8')) as ConformanceReport;
  markdown = readFileSync(join(reportsDir, 'conformance.md'), 'utf8');
  junit = readFileSync(join(reportsDir, 'junit.xml'), 'utf8');
  const results = join(reportsDir, 'allure-results');
  allure = readdirSync(results)
    .filter((name) => name.endsWith('-result.json'))
    .map((name) => JSON.parse(readFileSync(join(results, name), 'utf8')) as AllureResult);
});

afterAll(async () => {
  await reference?.close();
});

const escaped = (id: string) => id.replace(/-/g, '\\-');
const unescapeXml = (text: string) =>
  text.replace(
    /&(lt|gt|quot|apos|amp);/g,
    (_, name: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[name]!,
  );

/** The summary after the run: a label line per rule that did not pass, its reason on the next line. */
function fromConsole(id: string): Said {
  const lines = console.split('\n');
  const at = lines.findIndex((line) => new RegExp(`^(FAILED |WARNING|NOT VERIFIED) ${escaped(id)} `).test(line));
  if (at < 0) return 'passed';
  const label = lines[at]!.split(' ')[0];
  if (label === 'FAILED') return 'MUST failure';
  if (label === 'WARNING') return 'SHOULD warning';
  return `not verified: ${lines[at + 1]!.trim()}`;
}

function fromJson(id: string): Said {
  const rule = json.rules.find((r) => r.id === id)!;
  if (rule.status === 'failed') return 'MUST failure';
  if (rule.status === 'warning') return 'SHOULD warning';
  if (rule.status === 'not-verified') return `not verified: ${rule.reason}`;
  return rule.status === 'passed' ? 'passed' : `unreadable: ${rule.status}`;
}

/** The rule table's status cell, and for a rule not verified the reason in its section below. */
function fromMarkdown(id: string): Said {
  const row = markdown.split('\n').find((line) => line.startsWith(`| ${id} |`));
  const status = row?.split(' | ')[2];
  if (status === '**FAILED**') return 'MUST failure';
  if (status === 'WARNING (SHOULD)') return 'SHOULD warning';
  if (status === 'passed') return 'passed';
  if (status !== '*NOT VERIFIED*') return `unreadable: ${status}`;
  const section = markdown.split(`### ${id} NOT VERIFIED (MUST)\n`)[1]?.split('\n### ')[0] ?? '';
  return `not verified: ${section.match(/```\n(.*)\n```/)?.[1]}`;
}

/** The rule's testcases: a <failure> is a failure; a WARNING in the output of a passed one is a warning. */
function fromJunit(id: string): Said {
  const cases =
    junit.match(new RegExp(`<testcase classname="[A-Z]+\\.${escaped(id)}"[\\s\\S]*?(</testcase>)`, 'g')) ?? [];
  if (cases.some((c) => c.includes('<failure'))) return 'MUST failure';
  if (cases.some((c) => /<system-out>WARNING \(SHOULD/.test(c) && c.includes('value="SHOULD warning"')))
    return 'SHOULD warning';
  const skipped = cases.map((c) => c.match(/<skipped message="not verified: ([^"]*)"/)?.[1]).find(Boolean);
  if (skipped !== undefined) return `not verified: ${unescapeXml(skipped)}`;
  return cases.length > 0 ? 'passed' : 'unreadable: no testcase';
}

/** Allure's status, with the outcome label the categories sort by; they must agree. */
function fromAllure(id: string): Said {
  const mine = allure.filter((result) => result.name.startsWith(`${id} `));
  const outcome = (result: AllureResult) => result.labels.find((label) => label.name === 'outcome')?.value;
  const failed = mine.filter((result) => result.status === 'failed');
  if (failed.length > 0)
    return failed.every((result) => outcome(result) === 'MUST failure') ? 'MUST failure' : 'unreadable: failed';
  if (mine.some((result) => result.status === 'passed' && outcome(result) === 'SHOULD warning'))
    return 'SHOULD warning';
  const skipped = mine.find((result) => result.status === 'skipped' && outcome(result) === 'not verified');
  if (skipped) return `not verified: ${skipped.statusDetails?.message}`;
  return mine.length > 0 ? 'passed' : 'unreadable: no result';
}

test.for(Object.keys(EXPECTED))('%s: the console, json, md, junit and Allure say the same', (id) => {
  const said = {
    console: fromConsole(id),
    json: fromJson(id),
    markdown: fromMarkdown(id),
    junit: fromJunit(id),
    allure: fromAllure(id),
  };
  const expected = EXPECTED[id]!;
  expect(said).toEqual({ console: expected, json: expected, markdown: expected, junit: expected, allure: expected });
});

test('a SHOULD warning never looks like a failure: no FAILED, FAIL, <failure> or failed status anywhere', () => {
  expect(console).toMatch(/^ {2}warn {2}PROFILE-02 success codes follow the profile: create answers 201$/m);
  expect(console).not.toMatch(/(FAIL|FAILED)\s+PROFILE-02/);
  expect(markdown).toContain('### PROFILE-02 WARNING (SHOULD)');
  expect(markdown).not.toMatch(/PROFILE-02[^\n]*FAILED/);
  expect(json.summary.should.warnings).toBeGreaterThan(0);
  expect(junit).not.toMatch(/classname="SHOULD\.[^"]*"[^>]*>\s*(<properties>[\s\S]*?<\/properties>\s*)?<failure/);
  expect(allure.filter((r) => r.name.startsWith('PROFILE-') && r.status === 'failed')).toEqual([]);
});

test('conformance.md shows every exchange of the failed test in order, the PUT that echoed the old name among them, each with its curl', () => {
  const section = markdown.split('### UPDATE-01 FAILED (MUST)\n')[1]!.split('\n### ')[0]!;
  const exchanges = [...section.matchAll(/^\d+\. `(\w+) \S+ \[valid\] -> (\d+)`$/gm)].map((m) => `${m[1]} ${m[2]}`);
  // The create, the update the reference refused with the status in it, the one it answered 200
  // without taking the name, and the list read that showed the old name.
  expect(exchanges).toEqual(['POST 200', 'PUT 422', 'PUT 200', 'GET 200']);
  const curls = [...section.matchAll(/^ {3}(curl .*)$/gm)].map((m) => m[1]!);
  expect(curls.map((curl) => curl.split(' ')[4])).toEqual(['POST', 'PUT', 'PUT', 'GET']);
  for (const curl of curls) expect(curl).toContain(`'X-Auth-Token: '"$ZONES_ACCESS_TOKEN"`);
  // The reference's answer to the PUT that succeeded still carries the old name: the evidence of the fault.
  const put200 = section.split('3. `PUT')[1]!.split('4. `GET')[0]!;
  const name = section.match(/expected zone \S+ to show name "([^"]+)"/)![1]!;
  expect(put200).toContain(`"name":"${name}"`);
});

test('Allure holds the same curl commands as conformance.md, in the same order', () => {
  const section = markdown.split('### UPDATE-01 FAILED (MUST)\n')[1]!.split('\n### ')[0]!;
  const fromMd = [...section.matchAll(/^ {3}(curl .*)$/gm)].map((m) => m[1]!);
  const update = allure.find((r) => r.name === 'UPDATE-01 an update changes the name')!;
  // allure-vitest keeps each attachment as a step of its own.
  const attachments = (steps: AllureStep[] = []): { name: string; source: string }[] =>
    steps.flatMap((step) => [...(step.attachments ?? []), ...attachments(step.steps)]);
  const replay = attachments(update.steps).find((a) => a.name === 'replay with curl');
  expect(replay, 'the replay attachment').toBeDefined();
  const script = readFileSync(join(reportsDir, 'allure-results', replay!.source), 'utf8');
  expect(script.split('\n').filter((line) => line.startsWith('curl '))).toEqual(fromMd);
});

test('no file of the run, nor the console, holds the token', () => {
  const files = ['conformance.json', 'conformance.md', 'junit.xml'].map((name) => join(reportsDir, name));
  const results = join(reportsDir, 'allure-results');
  files.push(...readdirSync(results).map((name) => join(results, name)));
  for (const file of files) expect(readFileSync(file, 'utf8'), file).not.toContain(TOKEN);
  expect(console).not.toContain(TOKEN);
});
