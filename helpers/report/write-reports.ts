// Every file of a run, written in one place from its one certificate: conformance.json and .md, the
// certificate page, the job summary, the badge, JUnit and Allure's results, and tonight in the nights
// history. Each file is a function of the certificate (and of the nights before it); nothing here
// decides anything about the run. A run that could not run writes the same files, saying why; it has
// no night to keep and no Allure results to complete.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Secrets } from '../evidence/secrets.ts';
import { suitePackage } from '../project-root.ts';
import { completeAllureResults, maskAllureResults } from './allure-results.ts';
import { badgeSvg } from './badge.ts';
import type { ConformanceJson } from './certificate.ts';
import { PAGE_FILE, renderCertificatePage } from './certificate-page.ts';
import { renderMarkdown } from './conformance-report.ts';
import { type Night, recordNight } from './history.ts';
import { renderJobSummary } from './job-summary.ts';
import { renderJunit } from './junit.ts';

export interface WrittenReports {
  json: string;
  markdown: string;
  page: string;
  summary: string;
  junit: string;
  badge: string;
}

/**
 * A run's reports. `warn` hears what could not be written, masked: the certificate itself always is.
 * `baseline`: the --baseline night, which the page and the summary compare tonight with.
 */
export function writeReports(
  report: ConformanceJson,
  to: { reportsDir: string; secrets: Secrets; warn: (line: string) => void; baseline?: Night },
): WrittenReports {
  const { reportsDir, secrets, warn } = to;
  mkdirSync(reportsDir, { recursive: true });
  // No byte of a secret leaves the process in a report: each file is masked as written, and rendered
  // from a masked certificate, so that in HTML and XML the mask is escaped like any text.
  const write = (name: string, text: string) => {
    const path = join(reportsDir, name);
    writeFileSync(path, secrets.mask(text));
    return path;
  };
  const shown = secrets.maskAll(report);
  // Tonight joins the nights history once judged, and the page and the summary show it as the last night,
  // compared with the night before it or with the --baseline night.
  const history =
    report.verdict === 'could-not-run' ? undefined : { ...recordNight(report, to), baseline: to.baseline };
  if (history?.problem !== undefined)
    warn(
      secrets.mask(
        `the nights history ${history.path} could not be ${history.problem.during === 'reading' ? 'read' : 'written'}: ${history.problem.message}`,
      ),
    );
  const shownHistory = secrets.maskAll(history);
  const files = {
    json: write('conformance.json', `${JSON.stringify(report, null, 2)}\n`),
    markdown: write('conformance.md', renderMarkdown(shown)),
    page: write(PAGE_FILE, renderCertificatePage(shown, suitePackage().version, shownHistory)),
    summary: write('summary.md', renderJobSummary(shown, shownHistory)),
    junit: write('junit.xml', renderJunit(shown)),
    badge: write('badge.svg', badgeSvg(report.verdict)),
  };
  if (report.verdict !== 'could-not-run') {
    try {
      completeAllureResults(report, reportsDir);
    } catch (error) {
      // The certificate is written by now; the HTML report only loses its categories and environment.
      warn(`allure-results left without outcomes: ${secrets.mask(String(error))}`);
    }
    // Last, so that what the outcomes and environment added is masked as well.
    maskAllureResults(reportsDir, secrets);
  }
  return files;
}
