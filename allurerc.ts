// Allure Report 3's configuration, for `npm run report` (bin/report.ts), which sets ZONES_REPORTS_DIR
// as the settings and .env resolve it; a bare `npx allure generate` falls back to reports/.
import type { AllureConfig } from 'allure';
import { allureLocations, outcomeCategories } from './helpers/report/allure-layout.ts';

const where = allureLocations(process.env.ZONES_REPORTS_DIR || 'reports');
/** Allure reads resultsDir as a glob: a folder name with glob characters in it is meant literally. */
const literally = (path: string) => path.replace(/[?*()[\]{}]/g, '[$&]');

export default {
  name: 'zones-conformance',
  resultsDir: literally(where.results),
  output: where.report,
  historyPath: where.history,
  // About 50 KB a night: a hundred nights of trends stay small enough for a CI cache.
  historyLimit: 100,
  categories: outcomeCategories,
  // One index.html with the data inside: it opens from a downloaded CI artifact, without a server.
  plugins: { awesome: { options: { singleFile: true, reportName: 'zones-conformance' } } },
} satisfies AllureConfig;
