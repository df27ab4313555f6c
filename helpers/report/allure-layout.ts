// Where the Allure files of a run live, and the categories the HTML report sorts results into. Read
// by the launcher, by `npm run report` and by allurerc.ts (in Allure's own process), so it loads
// nothing beyond node:path and the table of states (which loads only the exit codes).
import { join } from 'node:path';
import { OUTCOMES } from '../judging/states.ts';

export interface AllureLocations {
  /** What allure-vitest writes during a run, completed by allure-results.ts once the verdict is known. */
  results: string;
  /** The HTML report, one self-contained index.html. */
  report: string;
  /** One line per report built: the trends. The one Allure file to keep between nightly runs. */
  history: string;
}

export function allureLocations(reportsDir: string): AllureLocations {
  return {
    results: join(reportsDir, 'allure-results'),
    report: join(reportsDir, 'allure-report'),
    history: join(reportsDir, 'allure-history.jsonl'),
  };
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
