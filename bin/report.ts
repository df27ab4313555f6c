// `npm run report`: the HTML report of the last run, built by Allure Report 3 (no Java), as HELP says;
// the certificate page opens for a person at a desktop (open-in-browser.ts).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEnvironment } from '../helpers/config.ts';
import { EXIT } from '../helpers/exit-codes.ts';
import { inProject } from '../helpers/project-root.ts';
import { allureLocations, selfContainedPage } from '../helpers/report/allure-layout.ts';
import { PAGE_FILE } from '../helpers/report/certificate-page.ts';
import { factsFromRawSettings } from '../helpers/report/could-not-run.ts';
import { leaveCannotRun, readCommandLine } from './command-options.ts';
import { desktopOpener } from './open-in-browser.ts';

const allureConfig = inProject('allurerc.ts');
// The package's own CLI, wherever npm put the package (its exports do not reach cli.js by name).
const allureCli = join(dirname(fileURLToPath(import.meta.resolve('allure'))), '..', 'cli.js');

function cannotRun(message: string): never {
  return leaveCannotRun(`zones-conformance: cannot build the report: ${message}`);
}

function hasResults(dir: string): boolean {
  return existsSync(dir) && readdirSync(dir).some((name) => name.endsWith('-result.json'));
}

function historyLength(file: string): number {
  if (!existsSync(file)) return 0;
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '').length;
}

/** A path as the user would type it: relative under the current folder, else absolute. */
function shown(path: string): string {
  const near = relative(process.cwd(), path);
  return near === '' || near.startsWith('..') ? path : near;
}

const HELP = `Usage: npm run report [-- --help]

Builds the Allure HTML report of the last run from ZONES_REPORTS_DIR/allure-results into
ZONES_REPORTS_DIR/allure-report/index.html, adds the run to ZONES_REPORTS_DIR/allure-history.jsonl once,
and names the run's certificate page, ZONES_REPORTS_DIR/conformance.html, as the page to open first
(opening it when run at a desktop, never in CI). Exit codes: 0 built, 3 could not build.`;

if (!readCommandLine({}, HELP, cannotRun)) process.exit(EXIT.ok);

const reportsDir = resolve(factsFromRawSettings(loadEnvironment()).reportsDir);
const where = allureLocations(reportsDir);
if (!hasResults(where.results)) cannotRun(`no test results in ${shown(where.results)}: run npm run conformance first`);

// Allure adds every report it builds to the history: a mark among the run's results (cleared by the
// next run) says it is in already, so a second build (a retried CI step) does not count it twice.
const inHistoryMark = join(where.results, '.in-history');
const historyBefore = existsSync(inHistoryMark) && existsSync(where.history) ? readFileSync(where.history) : undefined;

// Last night's HTML must not pass for tonight's if Allure stops half-way.
rmSync(where.report, { recursive: true, force: true });
const allure = spawnSync(process.execPath, [allureCli, 'generate', '--config', allureConfig], {
  stdio: 'inherit',
  env: { ...process.env, ZONES_REPORTS_DIR: reportsDir },
});
if (allure.error) cannotRun(`Allure did not start: ${allure.error.message}`);
if (allure.status !== 0) cannotRun(`Allure stopped with ${allure.signal ?? `exit code ${allure.status}`}`);
const page = join(where.report, 'index.html');
if (!existsSync(page)) cannotRun(`Allure wrote no ${shown(page)}`);
writeFileSync(page, selfContainedPage(readFileSync(page, 'utf8')));
if (historyBefore !== undefined) writeFileSync(where.history, historyBefore);
else writeFileSync(inHistoryMark, 'this run is in allure-history.jsonl\n');

const certificatePage = join(reportsDir, PAGE_FILE);
const pageExists = existsSync(certificatePage);
if (pageExists) console.log(`zones-conformance: certificate: ${shown(certificatePage)} (open this first)`);
console.log(`zones-conformance: HTML report: ${shown(page)} (Allure, for drill-down)`);
console.log(
  `history: ${shown(where.history)} (${historyLength(where.history)} report(s)); keep this file between runs for trends`,
);

const opener = pageExists ? desktopOpener(certificatePage) : undefined;
if (opener) {
  // Left to run on its own: the browser outlives this command, and a desktop without it only loses the convenience.
  const browser = spawn(opener.command, opener.args, {
    detached: true,
    stdio: 'ignore',
    windowsVerbatimArguments: opener.verbatim === true,
  });
  browser.on('error', (error) =>
    console.error(`zones-conformance: could not open the page (${error.message}); open it yourself`),
  );
  browser.unref();
}
