// Where the Allure files of a run live, and the categories the HTML report sorts results into. Read
// by the launcher, by `npm run report` and by allurerc.ts (in Allure's own process), so it loads
// nothing beyond node:path and the table of states (which loads only the exit codes).
import { join } from 'node:path';
import { OUTCOMES } from '../judging/states.ts';

/**
 * Where a run's Allure files live: the results allure-vitest writes (completed by allure-results.ts once
 * the verdict is known), the HTML report (one self-contained index.html), and the trends, a line per
 * report built: the one Allure file to keep between nightly runs.
 */
export function allureLocations(reportsDir: string): Record<'results' | 'report' | 'history', string> {
  const at = (name: string) => join(reportsDir, name);
  return { results: at('allure-results'), report: at('allure-report'), history: at('allure-history.jsonl') };
}

/** The label each result carries with its outcome as the verdict judged it; none on a pass. */
export const OUTCOME_LABEL = 'outcome';

/**
 * Allure's category rules: one per outcome, matched on the label alone (never on a status or message,
 * which a warning, passed and without an error, does not have), grouped by rule id. Within a rule,
 * results are grouped by their error message, except a warning's: its text is its description, and a
 * "No message" group under every warned rule would say nothing.
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
 * Allure's one-file page, made to stand on its own. Its data is assigned at the end of the page, but
 * its app, at the top, reads it as soon as it starts, and falls back to fetching files (which a page
 * opened from disk may not) when the data is not there yet: on a loaded machine a page now and then
 * showed only "Failed to fetch". Declaring the data first makes the app wait for it. The page also
 * loaded Google's analytics from the internet on every opening; a shop's report asks nothing of anyone.
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
