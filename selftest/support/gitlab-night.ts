// One night of the example GitLab CI job, modelled as far as it uses GitLab: the cache pulled before
// and pushed after (when: always), the script as one bash session, after_script in a shell of its
// own with CI_JOB_STATUS, artifacts when: always, and allow_failure by exit code.
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  type CiHome,
  copyInto,
  filesUnder,
  type Night,
  type NightResult,
  npmCallsOf,
  runShell,
  SECRET_TOKEN,
} from './ci-nights.ts';

export interface GitlabJob {
  variables?: Record<string, string>;
  cache?: { key: string; paths: string[]; when?: string }[];
  script: string[];
  after_script?: string[];
  artifacts?: { when?: string; paths: string[] };
  allow_failure?: { exit_codes: number[] };
}

export function runGitlabNight(
  job: GitlabJob,
  home: CiHome,
  night: Night,
  settings: Record<string, string>,
): NightResult {
  const workspace = home.workspace();
  for (const cache of job.cache ?? []) copyInto(join(home.cacheStore, cache.key), workspace.dir);
  const env = home.shellEnv(workspace, night, {
    ...job.variables,
    ...settings,
    ZONES_ACCESS_TOKEN: SECRET_TOKEN,
    CI_PIPELINE_SOURCE: 'schedule',
    ...night.env,
  });

  let status: 'success' | 'failed' | 'canceled' | 'warning';
  let log = '';
  if (night.cancelled) {
    // The script is stopped while the suite runs: the lines before it ran, the rest never do.
    const upToTheRun = job.script.slice(
      0,
      job.script.findIndex((line) => line.includes('npm run conformance')),
    );
    log += runShell(upToTheRun.join('\n'), workspace.dir, env).stdout;
    runShell('echo "run conformance (cancelled)" >> "$NPM_LOG"', workspace.dir, env);
    status = 'canceled';
  } else {
    const run = runShell(job.script.join('\n'), workspace.dir, env);
    log += run.stdout + run.stderr;
    status = run.status === 0 ? 'success' : job.allow_failure?.exit_codes.includes(run.status) ? 'warning' : 'failed';
  }
  if (job.after_script) {
    const after = runShell(job.after_script.join('\n'), workspace.dir, {
      ...env,
      CI_JOB_STATUS: status === 'warning' ? 'failed' : status,
    });
    log += after.stdout + after.stderr;
  }

  let cached: Record<string, string> = {};
  for (const cache of job.cache ?? []) {
    if (status !== 'success' && cache.when !== 'always') continue;
    const entry = join(home.cacheStore, cache.key);
    rmSync(entry, { recursive: true, force: true });
    for (const path of cache.paths) copyInto(join(workspace.dir, path), join(entry, path));
    cached = { ...cached, ...filesUnder(entry) };
  }
  const artifacts =
    job.artifacts && (status === 'success' || job.artifacts.when === 'always')
      ? job.artifacts.paths.flatMap((path) =>
          existsSync(join(workspace.dir, path))
            ? Object.keys(filesUnder(join(workspace.dir, path))).map((file) => join(path, file))
            : [],
        )
      : [];
  return { conclusion: status, npmCalls: npmCallsOf(workspace.npmLog), summary: log, log, artifacts, cached };
}
