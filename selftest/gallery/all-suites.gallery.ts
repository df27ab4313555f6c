// Every suite file in one module, for the gallery: vitest starts a worker per file and project, and
// with dozens of targets the start-up of those workers, not the checks, would dominate the run.
// vite's glob finds the files by the pattern the launcher runs (suites/*.test.ts), so a new suite
// file is in the gallery without being listed anywhere. The reference gives tsc vite's import.meta.
/// <reference types="vite/types/importMeta.d.ts" />
import.meta.glob('../../suites/*.test.ts', { eager: true });
