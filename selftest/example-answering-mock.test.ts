// A mock that answers from examples, as Prism does from an OpenAPI document: every zone it returns is
// named "string", and its refusals say {"errors":"string"}. AUTH-01 asks that a refusal carry no zone
// data; judged by the name the shop answered, the word "string" in the error text looked like a leak.
// The check must look for the unique name the suite sent, which no refusal of such a mock contains.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { settingsForStyle } from '../bin/reference-settings.ts';
import type { ConformanceReport } from '../helpers/report/certificate.ts';
import { type RunningReference, startReference } from '../reference/server.ts';
import { type ChildRun, runEntry } from './run-node.ts';
import { type Answer, type RewritingFront, startRewritingFront } from './support/rewriting-front.ts';

const TOKEN = 'shpat_selftest_example_mock_0123456789';

/** What the front changed: without both kinds of rewrite the test would prove nothing. */
const rewritten = { names: 0, refusals: 0 };

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

let reference: RunningReference;
let front: RewritingFront;
let run: ChildRun;
let report: ConformanceReport;

beforeAll(async () => {
  reference = await startReference({ token: TOKEN });
  front = await startRewritingFront(reference.url, asExamples);
  const reportsDir = mkdtempSync(join(tmpdir(), 'zc-example-mock-'));
  const env = { ...settingsForStyle(reference.style, front.url, TOKEN), ZONES_REPORTS_DIR: reportsDir };
  run = await runEntry('bin/conformance.ts', ['--rule', 'AUTH-01'], env);
  report = JSON.parse(readFileSync(join(reportsDir, 'conformance.json'), 'utf8')) as ConformanceReport;
});

afterAll(async () => {
  await front?.close();
  await reference?.close();
});

test('AUTH-01 passes on a mock whose refusal text is the same word as every zone name it answers', () => {
  const auth01 = report.rules.find((rule) => rule.id === 'AUTH-01')!;
  expect([auth01.status, auth01.reason], run.stdout + run.stderr).toEqual(['passed', undefined]);
  // The front did rewrite: the zones it answered carried the example name, and its refusals the same word.
  expect(auth01.tests.length).toBeGreaterThan(0);
  expect(rewritten.names, 'no zone name was rewritten: the test proves nothing').toBeGreaterThan(0);
  expect(rewritten.refusals, 'no refusal was rewritten: the test proves nothing').toBeGreaterThan(0);
});
