// A run that cannot start still leaves its verdict in ZONES_REPORTS_DIR: conformance.json,
// conformance.md, conformance.html and junit.xml saying could-not-run and why. A CI server that keeps its workspace
// would otherwise publish the previous run's reports as this one's.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TargetConfig } from '../config.ts';
import { Secrets } from '../evidence/secrets.ts';
import { EXIT } from '../exit-codes.ts';
import { suitePackage } from '../project-root.ts';
import { SPEC_VERSION } from '../rules.ts';
import { settingDefault } from '../settings.ts';
import { writeBadge } from './badge.ts';
import type { CouldNotRunReport } from './certificate.ts';
import { PAGE_FILE, renderCouldNotRunPage } from './certificate-page.ts';
import { xml } from './junit.ts';
import { setAsideReports } from './previous-reports.ts';

/** Where to write, what to keep out of the files, and what the target is, as far as the launcher got. */
export interface LauncherFacts {
  reportsDir: string;
  token: string;
  baseUrl: string | null;
}

/** Before the settings are validated (or when they never will be): their raw values, else the defaults. */
export function factsFromRawSettings(env: Record<string, string | undefined>): LauncherFacts {
  const raw = (name: string) => env[name]?.trim() ?? '';
  return {
    reportsDir: raw('ZONES_REPORTS_DIR') || settingDefault('ZONES_REPORTS_DIR'),
    token: raw('ZONES_ACCESS_TOKEN'),
    baseUrl: withoutUserInfo(raw('ZONES_BASE_URL')).replace(/\/+$/, '') || null,
  };
}

/**
 * An address as a report may show it before the settings are checked: a user name and password in it
 * (which the settings refuse) are dropped, whether or not the rest parses as a URL.
 */
export function withoutUserInfo(address: string): string {
  return address.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1');
}

export function factsFromConfig(config: TargetConfig): LauncherFacts {
  return { reportsDir: config.reportsDir, token: config.token, baseUrl: config.baseUrl || null };
}

export function buildCouldNotRun(
  reason: string,
  startedAt: Date,
  baseUrl: string | null,
  finishedAt = new Date(),
): CouldNotRunReport {
  return {
    suite: 'zones-conformance',
    specification: `Zone Management Service, API version ${SPEC_VERSION}`,
    verdict: 'could-not-run',
    exitCode: EXIT.cannotRun,
    reason,
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    target: { baseUrl },
  };
}

function renderCouldNotRunMarkdown(report: CouldNotRunReport): string {
  return [
    '# Conformance certificate: COULD NOT RUN',
    '',
    `${report.specification}, checked by zones-conformance. No rule was checked: the run could not start.`,
    '',
    '| | |',
    '|---|---|',
    `| Target | ${report.target.baseUrl ?? '(not known)'} |`,
    `| Verdict | **${report.verdict}** (exit code ${report.exitCode}) |`,
    `| Run | ${report.startedAt} to ${report.finishedAt} |`,
    '',
    '## Why',
    '',
    '```',
    report.reason,
    '```',
    '',
  ].join('\n');
}

/** One errored test case, so a dashboard shows red rather than an empty, green suite. */
function renderCouldNotRunJunit(report: CouldNotRunReport): string {
  const time = ((Date.parse(report.finishedAt) - Date.parse(report.startedAt)) / 1000).toFixed(3);
  const counts = `tests="1" failures="0" errors="1" skipped="0" time="${time}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="zones-conformance" ${counts}>`,
    // Named as a run that did start names it, with the verdict among the properties, as there.
    `  <testsuite name="${xml(report.specification)}" ${counts} timestamp="${report.startedAt}">`,
    '    <properties>',
    `      <property name="verdict" value="${xml(report.verdict)}"/>`,
    `      <property name="exit code" value="${report.exitCode}"/>`,
    '    </properties>',
    `    <testcase classname="zones-conformance" name="the run starts" time="${time}">`,
    `      <error message="${xml(`could not run: ${report.reason.split('\n')[0]!}`)}">${xml(report.reason)}</error>`,
    '    </testcase>',
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

export function writeCouldNotRun(
  report: CouldNotRunReport,
  facts: LauncherFacts,
): { json: string; markdown: string; summary: string; junit: string; page: string } {
  setAsideReports(facts.reportsDir);
  mkdirSync(facts.reportsDir, { recursive: true });
  const files = {
    json: join(facts.reportsDir, 'conformance.json'),
    markdown: join(facts.reportsDir, 'conformance.md'),
    summary: join(facts.reportsDir, 'summary.md'),
    junit: join(facts.reportsDir, 'junit.xml'),
    page: join(facts.reportsDir, PAGE_FILE),
  };
  const secrets = new Secrets(facts);
  writeFileSync(files.json, secrets.mask(`${JSON.stringify(report, null, 2)}\n`));
  const markdown = secrets.mask(renderCouldNotRunMarkdown(report));
  writeFileSync(files.markdown, markdown);
  // The job summary of a run that could not start is its whole certificate: a reason, a few lines.
  writeFileSync(files.summary, markdown);
  // Masked before it is rendered, so that the mask is escaped like any text and the XML stays well-formed.
  writeFileSync(files.junit, secrets.mask(renderCouldNotRunJunit(secrets.maskAll(report))));
  writeFileSync(files.page, secrets.mask(renderCouldNotRunPage(secrets.maskAll(report), suitePackage().version)));
  writeBadge(facts.reportsDir, 'could-not-run');
  return files;
}
