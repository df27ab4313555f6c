// Every suite file in one module, for the gallery: vitest starts a worker per file and project, and
// with dozens of targets the start-up of those workers, not the checks, would dominate the run.
import '../../suites/auth.test.ts';
import '../../suites/create.test.ts';
import '../../suites/list.test.ts';
import '../../suites/update.test.ts';
import '../../suites/delete.test.ts';
import '../../suites/path.test.ts';
import '../../suites/profile.test.ts';
