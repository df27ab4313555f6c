// Where a run's Allure files live, and the HTML report's categories. allurerc.ts reads it in Allure's own
// process, so it loads nothing beyond node:path and the table of states.
import { join } from 'node:path';
import { OUTCOMES } from '../judging/states.ts';

/** The results allure-vitest writes, the one-file HTML report, and the trends: the Allure file to keep between nights. */
export function allureLocations(reportsDir: string): Record<'results' | 'report' | 'history', string> {
  const at = (name: string) => join(reportsDir, name);
  return { results: at('allure-results'), report: at('allure-report'), history: at('allure-history.jsonl') };
}

/** The label each result carries with its outcome as the verdict judged it; none on a pass. */
export const OUTCOME_LABEL = 'outcome';

/**
 * Allure's categories: one per outcome, matched on the label (a warning, passed, has no status or message),
 * grouped by rule, then by message but for a warning, whose text is its description, not a "No message".
 */
export const outcomeCategories = OUTCOMES.map((outcome) => ({
  id: outcome.replace(/ /g, '-').toLowerCase(),
  name: outcome,
  matchers: { labels: { [OUTCOME_LABEL]: `^${outcome}$` } },
  groupBy: [{ label: 'rule' }],
  groupByMessage: outcome !== 'SHOULD warning' && outcome !== 'MAY warning',
  expand: outcome === 'MUST failure',
}));

/**
 * Allure's one-file page on its own: its app fetched files when the data, assigned at the end, came late
 * ("Failed to fetch" from disk); declared first, it is waited for. Google's analytics go: a report asks nothing.
 */
export function selfContainedPage(html: string): string {
  const waitForData = '<script>window.allureReportDataReady = false; window.allureReportData = {};</script>';
  const withData = html.includes('allureReportDataReady = true')
    ? html.replace('<head>', `<head>${waitForData}`)
    : html;
  return withData.replace(
    /<script async src="https:\/\/www\.googletagmanager\.com\/[^"]*"><\/script>\s*<script>[^<]*gtag\('config'[^<]*<\/script>/,
    '',
  );
}
