// Every suite file in one module, for the gallery: each target's file (target-files.ts)
// loads the suites again after the last target's, and one module is one import to repeat.
// vite's glob finds the files by the pattern the launcher runs (suites/*.test.ts), so a new suite
// file is in the gallery without being listed anywhere. The reference gives tsc vite's import.meta.
/// <reference types="vite/types/importMeta.d.ts" />
import.meta.glob('../../suites/*.test.ts', { eager: true });
