// Every file of a run, written in one place, each a function of its one certificate (and of the nights before
// it). A run that could not run writes the same files, saying why, with no night to keep nor Allure results.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Secrets } from '../evidence/secrets.ts';
import { type ShownVerdict, VERDICTS } from '../judging/states.ts';
import { suitePackage } from '../project-root.ts';
import { completeAllureResults, maskAllureResults } from './allure-results.ts';
import type { ConformanceJson } from './certificate.ts';
import { PAGE_FILE, renderCertificatePage } from './certificate-page.ts';
import { renderMarkdown } from './conformance-report.ts';
import { type Night, recordNight } from './history.ts';
import { renderJobSummary } from './job-summary.ts';
import { renderJunit } from './junit.ts';

// badge.svg ("conformance | conformant"), for a README or a wiki to show from the last night's artifacts.
const LABEL = 'conformance';
/** About the advance of an 11 px sans-serif character; the badge only needs room, not precision. */
const CHAR_WIDTH = 7;
const PADDING = 10;

export function badgeSvg(verdict: ShownVerdict): string {
  const { words: text, colour } = VERDICTS[verdict];
  const left = LABEL.length * CHAR_WIDTH + PADDING;
  const right = text.length * CHAR_WIDTH + PADDING;
  const width = left + right;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" role="img" aria-label="${LABEL}: ${text}">`,
    `  <title>${LABEL}: ${text}</title>`,
    `  <rect width="${width}" height="20" rx="3" fill="#555"/>`,
    `  <rect x="${left}" width="${right}" height="20" rx="3" fill="${colour}"/>`,
    // Squares off the coloured part's left corners, where it meets the label.
    `  <rect x="${left}" width="4" height="20" fill="${colour}"/>`,
    `  <g fill="#fff" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11" text-anchor="middle">`,
    `    <text x="${left / 2}" y="14">${LABEL}</text>`,
    `    <text x="${left + right / 2}" y="14">${text}</text>`,
    '  </g>',
    '</svg>',
    '',
  ].join('\n');
}

export type WrittenReports = Record<'json' | 'markdown' | 'page' | 'summary' | 'junit' | 'badge', string>;

/** `warn` hears, masked, what could not be written but the certificate; `baseline`, the --baseline night. */
export function writeReports(
  report: ConformanceJson,
  to: { reportsDir: string; secrets: Secrets; warn: (line: string) => void; baseline?: Night },
): WrittenReports {
  const { reportsDir, secrets, warn } = to;
  mkdirSync(reportsDir, { recursive: true });
  // Each file is masked as written, and rendered from a masked certificate so that HTML and XML escape the mask.
  const write = (name: string, text: string) => {
    const path = join(reportsDir, name);
    writeFileSync(path, secrets.mask(text));
    return path;
  };
  const shown = secrets.maskAll(report);
  // Tonight joins the nights history once judged; the page and the summary show it as the last night.
  const history =
    report.verdict === 'could-not-run' ? undefined : { ...recordNight(report, to), baseline: to.baseline };
  const problem = history?.problem;
  const verb = problem?.during === 'reading' ? 'read' : 'written';
  if (problem) warn(secrets.mask(`the nights history ${history.path} could not be ${verb}: ${problem.message}`));
  const shownHistory = secrets.maskAll(history);
  const files = {
    json: write('conformance.json', `${JSON.stringify(report, null, 2)}\n`),
    markdown: write('conformance.md', renderMarkdown(shown)),
    page: write(PAGE_FILE, renderCertificatePage(shown, suitePackage().version, shownHistory)),
    summary: write('summary.md', renderJobSummary(shown, shownHistory)),
    junit: write('junit.xml', renderJunit(shown)),
    badge: write('badge.svg', badgeSvg(report.verdict)),
  };
  if (report.verdict === 'could-not-run') return files;
  try {
    completeAllureResults(report, reportsDir);
  } catch (error) {
    // The certificate is written by now; the HTML report only loses its categories and environment.
    warn(`allure-results left without outcomes: ${secrets.mask(String(error))}`);
  }
  // Last, so that what the outcomes and environment added is masked as well.
  maskAllureResults(reportsDir, secrets);
  return files;
}
