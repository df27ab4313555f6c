// Every file of a run, written in one place from its one certificate: conformance.json and .md, the
// certificate page, the job summary, the badge, JUnit and Allure's results, and tonight in the nights
// history. Each file is a function of the certificate (and of the nights before it); nothing here
// decides anything about the run. A run that could not run writes the same files, saying why
// (could-not-run.ts).
import type { TargetConfig } from '../config.ts';
import type { Secrets } from '../evidence/secrets.ts';
import { completeAllureResults, maskAllureResults } from './allure-results.ts';
import { writeBadge } from './badge.ts';
import type { ConformanceReport } from './certificate.ts';
import { writeCertificatePage } from './certificate-page.ts';
import { writeReport } from './conformance-report.ts';
import { type Night, recordNight } from './history.ts';
import { writeJobSummary } from './job-summary.ts';
import { writeJunit } from './junit.ts';

export interface WrittenReports {
  json: string;
  markdown: string;
  page: string;
}

/** A whole run's reports. `warn` hears what could not be written, masked: the certificate itself always is. */
export function writeReports(
  report: ConformanceReport,
  config: TargetConfig,
  secrets: Secrets,
  warn: (line: string) => void,
  baseline?: Night,
): WrittenReports {
  const files = writeReport(report, config);
  // Tonight joins the nights history once judged, and the page and the summary show it as the last night,
  // compared with the night before it or with the --baseline night.
  const history = { ...recordNight(report, { reportsDir: config.reportsDir, secrets }), baseline };
  if (history.problem !== undefined)
    warn(
      secrets.mask(
        `the nights history ${history.path} could not be ${history.problem.during === 'reading' ? 'read' : 'written'}: ${history.problem.message}`,
      ),
    );
  const page = writeCertificatePage(report, config, history);
  writeJobSummary(report, config, history);
  writeBadge(config.reportsDir, report.verdict);
  writeJunit(report, config.reportsDir, config.token);
  try {
    completeAllureResults(report, config.reportsDir);
  } catch (error) {
    // The certificate is written by now; the HTML report only loses its categories and environment.
    warn(`allure-results left without outcomes: ${secrets.mask(String(error))}`);
  }
  // Last, so that what the outcomes and environment added is masked as well.
  maskAllureResults(config.reportsDir, secrets);
  return { ...files, page };
}
