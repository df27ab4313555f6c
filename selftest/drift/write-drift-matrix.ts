// `npm run drift-matrix`: run the drift gallery and write docs/drift-matrix.md.
import { writeFileSync } from 'node:fs';
import { renderDriftMatrix, runDriftGallery } from './drift-gallery.ts';

const run = await runDriftGallery();
writeFileSync(new URL('../../docs/drift-matrix.md', import.meta.url), renderDriftMatrix(run.results));
console.log(`docs/drift-matrix.md written (${run.results.length} mutants in ${run.seconds} s)`);
