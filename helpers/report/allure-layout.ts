// Where the Allure files of a run live, and the categories the HTML report sorts results into. Read
// by the launcher, by `npm run report` and by allurerc.ts (in Allure's own process), so it loads
// nothing beyond node:path.
import { join } from 'node:path';

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

export const OUTCOMES = {
  mustFailure: 'MUST failure',
  shouldWarning: 'SHOULD warning',
  mayWarning: 'MAY warning',
  notVerified: 'not verified',
  suiteDefect: 'suite defect',
} as const;

export type Outcome = (typeof OUTCOMES)[keyof typeof OUTCOMES];

/** Allure's category rules: one per outcome, matched on the label alone, grouped by rule id. */
export const outcomeCategories = Object.values(OUTCOMES).map((outcome) => ({
  id: outcome.replace(/ /g, '-').toLowerCase(),
  name: outcome,
  matchers: { labels: { [OUTCOME_LABEL]: `^${outcome}$` } },
  groupBy: [{ label: 'rule' }],
  expand: outcome === OUTCOMES.mustFailure,
}));
