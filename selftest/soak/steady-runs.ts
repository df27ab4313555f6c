// `npm run soak`: the claim that a certification has no races, tried the way users run it. Every
// correct house style of the reference is certified again and again through `npm run conformance`,
// each run from a fresh process, against one shop that keeps its zones (and, for fake-rest, hands a
// freed id to the next create). After each run the store itself is read, past the API: nothing of
// the run may be left, and somebody else's zone, planted first, must be exactly as it was. With
// --same-seed, two runs of each style with one ZONES_MODEL_SEED must print the same console lines in
// the same order, apart from times and run ids. Nothing here is a self-test: it takes minutes.
// Usage: npm run soak [-- --runs N] [--styles default,fake-rest] [--same-seed]
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { bookingHooksForReference, settingsForStyle } from '../../bin/reference-settings.ts';
import type { ConformanceReport } from '../../helpers/report/certificate.ts';
import { startReference } from '../../reference/server.ts';
import { houseStyles } from '../../reference/styles.ts';
import { npmCommand, projectRoot, runCommand } from '../run-node.ts';

const { values } = parseArgs({
  options: { runs: { type: 'string' }, styles: { type: 'string' }, 'same-seed': { type: 'boolean' } },
  strict: true,
});
const runs = Number(values.runs ?? '10');
const styles = values.styles?.split(',').map((name) => name.trim()) ?? Object.keys(houseStyles);
const unknown = styles.filter((name) => !Object.hasOwn(houseStyles, name));
if (!Number.isInteger(runs) || runs < 1 || unknown.length > 0) {
  console.error(`soak: --runs must be a whole number from 1, --styles names of ${Object.keys(houseStyles).join(', ')}`);
  process.exit(3);
}

/** A console line with what differs from run to run by design (times, run ids, the reports' folder) made the same. */
function comparable(line: string, reportsDir: string): string {
  return line
    .replaceAll(reportsDir, '<reports>')
    .replace(/\b\d{8}t\d{6}-[0-9a-f]{4}\b/g, '<run>')
    .replace(/\b\d+(\.\d+)? ?(ms|s)\b/g, '<time>');
}

interface Tally {
  conformant: number;
  left: number;
  bystanderTouched: number;
  differentLines: number;
  problems: string[];
}

let failed = false;
console.log(
  `soak: ${runs} run(s) of each of ${styles.length} style(s)${values['same-seed'] ? ', lines compared between runs of one seed' : ''}`,
);
for (const style of styles) {
  const reference = await startReference({ style });
  const bystanderId = reference.backdoor.plant({ name: 'somebody-elses', coverage: { countries: ['NL'] } });
  const bystanderBefore = JSON.stringify(reference.backdoor.stored(bystanderId));
  const tally: Tally = { conformant: 0, left: 0, bystanderTouched: 0, differentLines: 0, problems: [] };
  let firstLines: string[] | undefined;
  try {
    for (let run = 1; run <= runs; run++) {
      const reportsDir = mkdtempSync(join(tmpdir(), 'zc-soak-'));
      const env = {
        ...settingsForStyle(reference.style, reference.url, reference.token),
        ...bookingHooksForReference(),
        ZONES_REPORTS_DIR: reportsDir,
        ...(values['same-seed'] ? { ZONES_MODEL_SEED: '20261126' } : {}),
      };
      const npm = npmCommand();
      const ended = await runCommand(
        npm.command,
        [...npm.args, 'run', '--silent', 'conformance', ...(values['same-seed'] ? [] : ['--', '--quiet'])],
        { cwd: projectRoot, env, timeoutMs: 600_000 },
      );
      const report = JSON.parse(readFileSync(join(reportsDir, 'conformance.json'), 'utf8')) as ConformanceReport;
      if (ended.code === 0 && report.verdict === 'conformant') tally.conformant += 1;
      else tally.problems.push(`run ${run}: exit ${ended.code}, ${report.verdict}`);
      const leftOnShop = reference.backdoor.all().filter((zone) => zone.id !== bystanderId);
      tally.left += leftOnShop.length;
      if (leftOnShop.length > 0)
        tally.problems.push(`run ${run}: left ${leftOnShop.map((zone) => `${zone.id} ${zone.name}`).join(', ')}`);
      if (JSON.stringify(reference.backdoor.stored(bystanderId)) !== bystanderBefore) tally.bystanderTouched += 1;
      if (values['same-seed']) {
        const lines = ended.stdout.split('\n').map((line) => comparable(line, reportsDir));
        if (firstLines === undefined) firstLines = lines;
        else if (lines.join('\n') !== firstLines.join('\n')) {
          tally.differentLines += 1;
          const at = lines.findIndex((line, index) => line !== firstLines![index]);
          tally.problems.push(`run ${run}: line ${at + 1} differs: "${firstLines[at]}" then "${lines[at]}"`);
        }
      }
    }
  } finally {
    await reference.close();
  }
  const steady =
    tally.conformant === runs && tally.left === 0 && tally.bystanderTouched === 0 && tally.differentLines === 0;
  failed ||= !steady;
  console.log(
    `  ${style.padEnd(14)} conformant ${tally.conformant}/${runs}, zones left ${tally.left}, bystander changed ${tally.bystanderTouched}${values['same-seed'] ? `, runs printing other lines ${tally.differentLines}` : ''}`,
  );
  for (const problem of tally.problems) console.log(`    ${problem}`);
}
process.exit(failed ? 1 : 0);
