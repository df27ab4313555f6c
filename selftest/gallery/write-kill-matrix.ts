// `npm run killmatrix`: run the gallery and write docs/kill-matrix.md.
import { writeFileSync } from 'node:fs';
import { runGallery } from './gallery.ts';
import { renderKillMatrix } from './kill-matrix.ts';

const run = await runGallery();
writeFileSync(new URL('../../docs/kill-matrix.md', import.meta.url), renderKillMatrix(run.results));
console.log(`docs/kill-matrix.md written (${run.results.length} targets in ${run.seconds} s)`);
