// junit.xml for CI dashboards, written from the verdict rather than from vitest: a SHOULD or MAY
// warning is not a failure there either, a MUST rule not verified is a skip with its reason, and a
// suite defect is an error. The exit code and conformance.json stay the authority.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Secrets } from '../target/secrets.ts';
import type { ConformanceReport } from './conformance-report.ts';

export function xml(text: string): string {
  return (
    text
      .replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!)
      // Characters XML 1.0 cannot hold at all.
      // biome-ignore lint/suspicious/noControlCharactersInRegex: these control characters are exactly what must go.
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
  );
}

export function renderJunit(report: ConformanceReport): string {
  const cases: string[] = [];
  let failures = 0;
  let errors = 0;
  let skipped = 0;
  for (const rule of report.rules) {
    for (const test of rule.tests) {
      const open = `    <testcase classname="${xml(`${rule.level.toUpperCase()}.${rule.id}`)}" name="${xml(test.title)}">`;
      const reason = xml(test.reason ?? '');
      if (test.state === 'failed' && rule.level === 'must') {
        failures += 1;
        cases.push(
          `${open}\n      <failure message="${xml((test.reason ?? '').split('\n')[0]!)}">${reason}</failure>\n    </testcase>`,
        );
      } else if (test.state === 'failed') {
        cases.push(
          `${open}\n      <system-out>WARNING (${rule.level.toUpperCase()}, does not change the verdict): ${reason}</system-out>\n    </testcase>`,
        );
      } else if (test.state === 'suite-error') {
        errors += 1;
        cases.push(`${open}\n      <error message="suite defect">${reason}</error>\n    </testcase>`);
      } else if (test.state === 'not-verified') {
        skipped += 1;
        cases.push(
          `${open}\n      <skipped message="not verified: ${xml((test.reason ?? '').split('\n')[0]!)}"/>\n    </testcase>`,
        );
      } else {
        cases.push(`${open}</testcase>`);
      }
    }
  }
  const total = cases.length;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="zones-conformance" tests="${total}" failures="${failures}" errors="${errors}" skipped="${skipped}">`,
    `  <testsuite name="${xml(`${report.specification}: ${report.verdict}`)}" tests="${total}" failures="${failures}" errors="${errors}" skipped="${skipped}" timestamp="${report.startedAt}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

export function writeJunit(report: ConformanceReport, reportsDir: string, token: string): string {
  const path = join(reportsDir, 'junit.xml');
  const secrets = new Secrets({ token });
  // Masked before it is rendered, so the mask is escaped like any text; the written text once more after.
  writeFileSync(path, secrets.mask(renderJunit(secrets.maskAll(report))));
  return path;
}
