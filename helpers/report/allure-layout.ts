// Where the Allure files of a run live, and the categories the HTML report sorts results into. Read
// by the launcher, by `npm run report` and by allurerc.ts (in Allure's own process), so it loads
// nothing beyond node:path and the table of states (which loads only the exit codes).
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
 * Allure's category rules: one per outcome, matched on the label alone (a warning, passed, has no status
 * or message to match), grouped by rule id, then by error message but for a warning, whose text is its
 * description: a "No message" group under every warned rule would say nothing.
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
 * Allure's one-file page, made to stand on its own. Its app, at the top, reads the data assigned at the
 * end as soon as it starts, else fetches files (which a page opened from disk may not): on a loaded
 * machine it showed "Failed to fetch". Declared first, the data is waited for. The page's loading of
 * Google's analytics goes too: a shop's report asks nothing of anyone.
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
