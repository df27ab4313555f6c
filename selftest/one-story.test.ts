// One run, one story in every format. The reference in the `other-codes` house style with a fault
// that ignores a new name, and no booking hook, gives a MUST failure (UPDATE-01), SHOULD warnings
// (PROFILE-02) and a rule not verified (DELETE-02). The console, conformance.json, conformance.md,
// junit.xml and the Allure results must each say the same of each: a failure, a warning that never
// looks like a failure, and not verified with its reason. A second run, of every rule, behind a front
// that answers 500 to an unknown status, gives a MAY warning (ROBUST-05): it must read as the SHOULD
// warning does, with its own level, and leave the correct shop conformant with exit 0. (That run was
// robustness-probes.test.ts's, and one of ROBUST-05 alone was this file's: one run now tells both.)
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { bookingHooksForReference, settingsForStyle } from '../bin/reference-settings.ts';
import type { ConformanceReport } from '../helpers/report/certificate.ts';
import { ruleById, rules } from '../helpers/rules.ts';
import { type RunningReference, startReference } from '../reference/server.ts';
import { type ChildRun, runEntry } from './run-node.ts';
import { type LaxFront, startLaxFront } from './support/lax-front.ts';

const TOKEN = 'shpat_selftest_story_0123456789abcdef';
const NO_BOOKING =
  'no booking fixture: set ZONES_BOOKED_ZONE_ID to a zone with booking history, or ZONES_BOOKING_HOOK to a command that books the zone in $ZONE_ID';

/** What a format says of a rule, in words every format can be read into. */
type Said =
  | 'MUST failure'
  | 'SHOULD warning'
  | 'MAY warning'
  | `not verified: ${string}`
  | 'passed'
  | `unreadable: ${string}`;

/** What the first run must say of each rule, in every format. */
const EXPECTED: Record<string, Said> = {
  'UPDATE-01': 'MUST failure',
  'PROFILE-02': 'SHOULD warning',
  'DELETE-02': `not verified: ${NO_BOOKING}`,
};

interface AllureResult {
  name: string;
  status: string;
  statusDetails?: { message?: string };
  description?: string;
  labels: { name: string; value: string }[];
  steps?: AllureStep[];
}
interface AllureStep {
  name?: string;
  attachments?: { name: string; source: string }[];
  steps?: AllureStep[];
}

/** What one run told: its console output and every report it wrote. */
interface Story {
  dir: string;
  console: string;
  json: ConformanceReport;
  markdown: string;
  junit: string;
  allure: AllureResult[];
}

function storyOf(dir: string, console: string): Story {
  const results = join(dir, 'allure-results');
  return {
    dir,
    console,
    json: JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport,
    markdown: readFileSync(join(dir, 'conformance.md'), 'utf8'),
    junit: readFileSync(join(dir, 'junit.xml'), 'utf8'),
    allure: readdirSync(results)
      .filter((name) => name.endsWith('-result.json'))
      .map((name) => JSON.parse(readFileSync(join(results, name), 'utf8')) as AllureResult),
  };
}

let reference: RunningReference;
let story: Story;
let probeReference: RunningReference;
let probeFront: LaxFront;
let probeRun: ChildRun;
let probeStory: Story;

beforeAll(async () => {
  reference = await startReference({ token: TOKEN, style: 'other-codes', fault: 'update-ignores-name' });
  const reportsDir = mkdtempSync(join(tmpdir(), 'zc-story-'));
  // The rules the story tells of, PROFILE-02 with the rest of its family; a failed MUST rule makes the
  // run non-conformant whatever was left out. The model-based suite runs as in a full run, its failing
  // UPDATE-01 test told in every format too; CREATE-01, the first of its tests, starts its run and
  // holds its exchanges, as in a full run, so UPDATE-01's section lists the example test's alone.
  const run = await runEntry('bin/conformance.ts', ['--rule', 'CREATE-01,UPDATE-01,PROFILE,DELETE-02'], {
    ...settingsForStyle(reference.style, reference.url, TOKEN),
    ZONES_REPORTS_DIR: reportsDir,
  });
  expect(run.code, run.stderr).toBe(1);
  story = storyOf(reportsDir, run.stdout);

  // A whole run, so that the verdict rests on every MUST rule; their example tests are enough for that,
  // and the model-based suite, which never sends an unknown filter value, is left out.
  probeReference = await startReference({ token: TOKEN });
  probeFront = await startLaxFront(probeReference.url, new Set(['unknown-filter-fails']));
  const probeDir = mkdtempSync(join(tmpdir(), 'zc-story-may-'));
  probeRun = await runEntry('bin/conformance.ts', [], {
    ...settingsForStyle(probeReference.style, probeFront.url, TOKEN),
    ...bookingHooksForReference(probeReference.url),
    ZONES_REPORTS_DIR: probeDir,
    ZONES_MODEL_RUNS: '0',
  });
  probeStory = storyOf(probeDir, probeRun.stdout);
});

afterAll(async () => {
  await probeFront?.close();
  await probeReference?.close();
  await reference?.close();
});

const escaped = (id: string) => id.replace(/-/g, '\\-');
const unescapeXml = (text: string) =>
  text.replace(
    /&(lt|gt|quot|apos|amp);/g,
    (_, name: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[name]!,
  );
const warningOf = (level: string): Said | undefined =>
  level === 'SHOULD' ? 'SHOULD warning' : level === 'MAY' ? 'MAY warning' : undefined;

/**
 * The summary after the run: a label line per rule that did not pass, its reason on the next line.
 * The console names a warning's rule, not its level: the level is the rule's, and the count of
 * warnings by level in the verdict line must agree.
 */
function fromConsole({ console }: Story, id: string): Said {
  const lines = console.split('\n');
  const at = lines.findIndex((line) => new RegExp(`^(FAILED |WARNING|NOT VERIFIED) ${escaped(id)} `).test(line));
  if (at < 0) return 'passed';
  const label = lines[at]!.split(' ')[0];
  if (label === 'FAILED') return 'MUST failure';
  if (label === 'WARNING') {
    const level = ruleById(id).level.toUpperCase();
    const counted = console.match(new RegExp(`^verdict: .*; ${level} (\\d+) warning\\(s\\)`, 'm'))?.[1];
    return Number(counted) > 0 ? warningOf(level)! : `unreadable: ${level} warnings counted ${counted}`;
  }
  return `not verified: ${lines[at + 1]!.trim()}`;
}

function fromJson({ json }: Story, id: string): Said {
  const rule = json.rules.find((r) => r.id === id)!;
  if (rule.status === 'failed') return 'MUST failure';
  if (rule.status === 'warning') {
    const level = rule.level.toUpperCase();
    const counted = rule.level === 'must' ? 0 : json.summary[rule.level].warnings;
    return counted > 0 ? (warningOf(level) ?? `unreadable: a ${level} warning`) : 'unreadable: no warning counted';
  }
  if (rule.status === 'not-verified') return `not verified: ${rule.reason}`;
  return rule.status === 'passed' ? 'passed' : `unreadable: ${rule.status}`;
}

/** The rule table's status cell, and for a rule not verified the reason in its section below. */
function fromMarkdown({ markdown }: Story, id: string): Said {
  const row = markdown.split('\n').find((line) => line.startsWith(`| ${id} |`));
  const status = row?.split(' | ')[2];
  if (status === '**FAILED**') return 'MUST failure';
  const warned = status?.match(/^WARNING \((SHOULD|MAY)\)$/)?.[1];
  if (warned !== undefined) return warningOf(warned)!;
  if (status === 'passed') return 'passed';
  if (status !== '*NOT VERIFIED*') return `unreadable: ${status}`;
  const section = markdown.split(`### ${id} NOT VERIFIED (MUST)\n`)[1]?.split('\n### ')[0] ?? '';
  return `not verified: ${section.match(/```\n(.*)\n```/)?.[1]}`;
}

/** The rule's testcases: a <failure> is a failure; a WARNING in the output of a passed one is a warning. */
function fromJunit({ junit }: Story, id: string): Said {
  const cases =
    junit.match(new RegExp(`<testcase classname="[A-Z]+\\.${escaped(id)}"[\\s\\S]*?(</testcase>)`, 'g')) ?? [];
  if (cases.some((c) => c.includes('<failure'))) return 'MUST failure';
  for (const level of ['SHOULD', 'MAY'])
    if (cases.some((c) => c.includes(`<system-out>WARNING (${level},`) && c.includes(`value="${level} warning"`)))
      return warningOf(level)!;
  const skipped = cases.map((c) => c.match(/<skipped message="not verified: ([^"]*)"/)?.[1]).find(Boolean);
  if (skipped !== undefined) return `not verified: ${unescapeXml(skipped)}`;
  return cases.length > 0 ? 'passed' : 'unreadable: no testcase';
}

/** Allure's status, with the outcome label the categories sort by; they must agree. */
function fromAllure({ allure }: Story, id: string): Said {
  const mine = allure.filter((result) => result.name.startsWith(`${id} `));
  const outcome = (result: AllureResult) => result.labels.find((label) => label.name === 'outcome')?.value;
  const failed = mine.filter((result) => result.status === 'failed');
  if (failed.length > 0)
    return failed.every((result) => outcome(result) === 'MUST failure') ? 'MUST failure' : 'unreadable: failed';
  for (const warning of ['SHOULD warning', 'MAY warning'] as const)
    if (mine.some((result) => result.status === 'passed' && outcome(result) === warning)) return warning;
  const skipped = mine.find((result) => result.status === 'skipped' && outcome(result) === 'not verified');
  if (skipped) return `not verified: ${skipped.statusDetails?.message}`;
  return mine.length > 0 ? 'passed' : 'unreadable: no result';
}

function saidEverywhere(of: Story, id: string): Record<string, Said> {
  return {
    console: fromConsole(of, id),
    json: fromJson(of, id),
    markdown: fromMarkdown(of, id),
    junit: fromJunit(of, id),
    allure: fromAllure(of, id),
  };
}
const everywhere = (said: Said) => ({ console: said, json: said, markdown: said, junit: said, allure: said });

test.for(Object.keys(EXPECTED))('%s: the console, json, md, junit and Allure say the same', (id) => {
  expect(saidEverywhere(story, id)).toEqual(everywhere(EXPECTED[id]!));
});

test('ROBUST-05 missed: the console, json, md, junit and Allure all say MAY warning', () => {
  expect(saidEverywhere(probeStory, 'ROBUST-05')).toEqual(everywhere('MAY warning'));
});

test('a SHOULD warning never looks like a failure: no FAILED, FAIL, <failure> or failed status anywhere', () => {
  const { console, markdown, json, junit, allure } = story;
  expect(console).toMatch(/^ {2}warn {2}PROFILE-02 success codes follow the profile: create answers 201$/m);
  expect(console).not.toMatch(/(FAIL|FAILED)\s+PROFILE-02/);
  expect(markdown).toContain('### PROFILE-02 WARNING (SHOULD)');
  expect(markdown).not.toMatch(/PROFILE-02[^\n]*FAILED/);
  expect(json.summary.should.warnings).toBeGreaterThan(0);
  expect(junit).not.toMatch(/classname="SHOULD\.[^"]*"[^>]*>\s*(<properties>[\s\S]*?<\/properties>\s*)?<failure/);
  expect(allure.filter((r) => r.name.startsWith('PROFILE-') && r.status === 'failed')).toEqual([]);
});

const probes = rules.filter((rule) => rule.level === 'may').map((rule) => rule.id);
const statusOf = (report: ConformanceReport, id: string) => report.rules.find((rule) => rule.id === id)?.status;

test('a correct shop but for a 500 to an unknown filter value is conformant with exit 0: ROBUST-05 is a warning, and the reference passes every other probe', () => {
  const { json: report } = probeStory;
  expect([probeRun.code, report.verdict], probeRun.stderr).toEqual([0, 'conformant']);
  expect(report.summary.must).toEqual({ passed: 18, failed: 0, notVerified: 0 });
  expect(report.summary.may).toEqual({ passed: probes.length - 1, warnings: 1, notVerified: 0 });
  expect(probes.map((id) => [id, statusOf(report, id)])).toEqual(
    probes.map((id) => [id, id === 'ROBUST-05' ? 'warning' : 'passed']),
  );
  expect(report.cleanup.leftBehind).toEqual([]);
});

test('a MAY warning reads as the SHOULD one does, its level aside, and never looks like a failure', () => {
  const { console, markdown, json, junit, allure } = probeStory;
  const title = `ROBUST-05 ${ruleById('ROBUST-05').title}`;
  expect(console.split('\n')).toContain(`  warn  ${title}`);
  expect(console).toMatch(/^WARNING ROBUST-05 /m);
  expect(console).toMatch(/^verdict: CONFORMANT .*; SHOULD 0 warning\(s\); MAY 1 warning\(s\)$/m);
  expect(console).not.toMatch(/FAIL/);
  // The other probes passed (the test above counts them).
  const others = probes.length - 1;
  expect(json.rules.find((r) => r.id === 'ROBUST-05')?.tests).toEqual([
    expect.objectContaining({ title, state: 'warning', reason: expect.stringMatching(/got 500/) }),
  ]);
  // As for a SHOULD warning: the heading, then the test with the warning's words and its exchange to replay.
  expect(markdown).toMatch(/^# Conformance certificate: CONFORMANT/);
  expect(markdown).toContain('| ROBUST-05 | MAY | WARNING (MAY) |');
  expect(markdown).toContain(`| MAY rules (robustness) | ${others} passed, 1 warnings, 0 not verified |`);
  expect(markdown).toContain(
    `### ROBUST-05 WARNING (MAY)\n\n${ruleById('ROBUST-05').title}\n\n- ${title}: WARNING (MAY, does not change the verdict)\n`,
  );
  const section = markdown.split('### ROBUST-05 WARNING (MAY)\n')[1]!.split('\n## ')[0]!;
  expect(section).toMatch(/^1\. `GET \S*status=zc-no-such-status-\w+\S* \[valid\] -> 500`$/m);
  expect(section).toMatch(/^ {3}curl -sS -i -X GET '[^']*status=zc-no-such-status-\w+/m);
  expect(markdown).not.toMatch(/ROBUST-05[^\n]*FAILED/);
  expect(junit).toMatch(/<testsuites [^>]*failures="0"/);
  expect(junit).toContain(`<property name="MAY rules" value="${others} passed, 1 warnings, 0 not verified"/>`);
  expect(junit).toMatch(
    /classname="MAY\.ROBUST-05"[^>]*>\s*<properties>\s*<property name="outcome" value="MAY warning"\/>\s*<\/properties>\s*<system-out>WARNING \(MAY, does not change the verdict\)/,
  );
  expect(junit).toMatch(
    /<system-out>WARNING \(MAY, does not change the verdict\): expected a refusal[\s\S]*\$ curl -sS -i -X GET /,
  );
  // In Allure a warning is passed, with its words as the description and no error message to box.
  const result = allure.find((r) => r.name === title);
  expect(result).toMatchObject({
    status: 'passed',
    description: expect.stringMatching(/^WARNING \(MAY, does not change the verdict\):\n\n```text\nexpected a refusal/),
  });
  expect(result?.statusDetails?.message).toBeUndefined();
  // And no other test of the whole run has an outcome of its own: the probes that passed are plain passes.
  const outcomes = allure.map((r) => ({
    status: r.status,
    rule: r.labels.find((label) => label.name === 'rule')?.value,
    outcome: r.labels.find((label) => label.name === 'outcome')?.value,
    severity: r.labels.find((label) => label.name === 'severity')?.value,
  }));
  expect(outcomes.length).toBeGreaterThan(40);
  expect(outcomes.filter((r) => r.outcome !== undefined)).toEqual([
    { status: 'passed', rule: 'ROBUST-05', outcome: 'MAY warning', severity: 'minor' },
  ]);
});

test('conformance.md shows every exchange of the failed test in order, the PUT that echoed the old name among them, each with its curl', () => {
  const section = story.markdown.split('### UPDATE-01 FAILED (MUST)\n')[1]!.split('\n### ')[0]!;
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
  const section = story.markdown.split('### UPDATE-01 FAILED (MUST)\n')[1]!.split('\n### ')[0]!;
  const fromMd = [...section.matchAll(/^ {3}(curl .*)$/gm)].map((m) => m[1]!);
  const update = story.allure.find((r) => r.name === 'UPDATE-01 an update changes the name')!;
  // allure-vitest keeps each attachment as a step of its own.
  const attachments = (steps: AllureStep[] = []): { name: string; source: string }[] =>
    steps.flatMap((step) => [...(step.attachments ?? []), ...attachments(step.steps)]);
  const replay = attachments(update.steps).find((a) => a.name === 'replay with curl');
  expect(replay, 'the replay attachment').toBeDefined();
  const script = readFileSync(join(story.dir, 'allure-results', replay!.source), 'utf8');
  expect(script.split('\n').filter((line) => line.startsWith('curl '))).toEqual(fromMd);
});

test('no file of either run, nor the console, holds the token', () => {
  for (const { dir, console } of [story, probeStory]) {
    const files = ['conformance.json', 'conformance.md', 'junit.xml'].map((name) => join(dir, name));
    const results = join(dir, 'allure-results');
    files.push(...readdirSync(results).map((name) => join(results, name)));
    for (const file of files) expect(readFileSync(file, 'utf8'), file).not.toContain(TOKEN);
    expect(console).not.toContain(TOKEN);
  }
});
