// Runs the gallery in a process of its own and writes the results as JSON: the self-test cannot
// start the suite's vitest run inside its own. Usage: tsx selftest/gallery/run-gallery.ts OUT.json [--no-mutants]
import { writeFileSync } from 'node:fs';
import { runGallery } from './gallery.ts';

const [out, ...flags] = process.argv.slice(2);
if (!out) {
  console.error('usage: run-gallery.ts OUT.json [--no-mutants]');
  process.exit(3);
}
const run = await runGallery({ mutants: !flags.includes('--no-mutants') });
writeFileSync(out, `${JSON.stringify(run, null, 2)}\n`);
