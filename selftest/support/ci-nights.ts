// The example CI jobs played night by night on this machine: their shell runs for real, in a
// workspace of its own, with a stand-in npm that records each call and plays the suite's part with
// the exit code a night asks for. What the CI service does around the shell (conditions, the cache,
// artifacts, cancelling) is modelled here as far as the examples use it, and no further: a condition
// or an action this model does not know fails the test, rather than being guessed at.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * What the stand-in npm does: `run conformance` writes reports (those of NIGHT_REPORTS, a real run's,
 * when the night brings them), adds the night to the nights' history when it judged the shop (exit 0,
 * 1 or 2), as the launcher does, and exits with NIGHT_EXIT. Each run says how many nights it found.
 */
const FAKE_NPM = `#!/bin/sh
echo "$*" >> "$NPM_LOG"
case "$1 $2" in
  "run conformance")
    [ "$ZONES_ACCESS_TOKEN" = "$EXPECTED_TOKEN" ] || echo "token: not the secret" >> "$NPM_LOG"
    mkdir -p reports
    nights=0; [ -f reports/conformance-history.jsonl ] && nights=$(wc -l < reports/conformance-history.jsonl | tr -d ' ')
    echo "conformance found $nights night(s) in conformance-history.jsonl" >> "$NPM_LOG"
    case "$NIGHT_EXIT" in 0|1|2) echo "{\\"night\\":\\"$NIGHT\\"}" >> reports/conformance-history.jsonl ;; esac
    if [ "$NIGHT_EXIT" = 3 ]; then verdict=could-not-run; else verdict="night-$NIGHT"; fi
    printf '{"verdict":"%s","exitCode":%s}\\n' "$verdict" "$NIGHT_EXIT" > reports/conformance.json
    printf '# Conformance certificate: %s\\n' "$verdict" > reports/conformance.md
    cp reports/conformance.md reports/summary.md
    # A night may bring the reports of a real run, which replace the stand-ins.
    if [ -n "$NIGHT_REPORTS" ]; then cp -R "$NIGHT_REPORTS"/. reports/; fi
    exit "$NIGHT_EXIT" ;;
  "run report")
    lines=0; [ -f reports/allure-history.jsonl ] && lines=$(wc -l < reports/allure-history.jsonl | tr -d ' ')
    echo "report found $lines night(s) of history" >> "$NPM_LOG"
    mkdir -p reports/allure-report && echo '<html></html>' > reports/allure-report/index.html
    echo "{\\"night\\":\\"$NIGHT\\"}" >> reports/allure-history.jsonl ;;
esac
exit 0
`;

export interface Night {
  /** What `npm run conformance` exits with; undefined when the run is cancelled while it runs. */
  exit?: number;
  /** The job is cancelled (by hand or by its time limit) while the suite runs. */
  cancelled?: boolean;
  /** Extra settings of the job, e.g. FAIL_ON_INCOMPLETE. */
  env?: Record<string, string>;
  /** A folder of reports a real run wrote, which `npm run conformance` leaves in reports/. */
  reports?: string;
}

export interface NightResult {
  conclusion: string;
  npmCalls: string[];
  /** The job summary (GitHub) or the log (GitLab). */
  summary: string;
  log: string;
  artifacts: string[];
  /** The files the next night's cache restores, with their content. */
  cached: Record<string, string>;
}

export const SECRET_TOKEN = 'shpat_from_the_secret_store_42';

/** A repository checkout that lives across nights, as the CI service's cache does. */
export class CiHome {
  readonly cacheStore: string;
  /** The keys of the cache entries saved so far, oldest first. */
  readonly savedCacheKeys: string[] = [];
  private nights = 0;

  constructor(readonly root: string) {
    this.cacheStore = join(root, 'cache');
    mkdirSync(this.cacheStore, { recursive: true });
    mkdirSync(join(root, 'bin'), { recursive: true });
    writeFileSync(join(root, 'bin', 'npm'), FAKE_NPM);
    chmodSync(join(root, 'bin', 'npm'), 0o755);
  }

  /** A fresh workspace for one night, as a CI job starts from a clean checkout. */
  workspace(): { dir: string; npmLog: string; night: number } {
    const night = ++this.nights;
    const dir = join(this.root, `night-${night}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    return { dir, npmLog: join(this.root, `npm-${night}.log`), night };
  }

  shellEnv(
    workspace: { npmLog: string; night: number },
    night: Night,
    own: Record<string, string>,
  ): Record<string, string> {
    return {
      PATH: `${join(this.root, 'bin')}:${process.env.PATH}`,
      HOME: this.root,
      NPM_LOG: workspace.npmLog,
      NIGHT: String(workspace.night),
      NIGHT_EXIT: String(night.exit ?? 0),
      NIGHT_REPORTS: night.reports ?? '',
      EXPECTED_TOKEN: SECRET_TOKEN,
      ...own,
    };
  }
}

export function runShell(
  script: string,
  cwd: string,
  env: Record<string, string>,
): { status: number; stdout: string; stderr: string } {
  const run = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {
    cwd,
    env,
    encoding: 'utf8',
  });
  if (run.error) throw run.error;
  return { status: run.status ?? 1, stdout: run.stdout, stderr: run.stderr };
}

export function filesUnder(dir: string): Record<string, string> {
  if (!existsSync(dir)) return {};
  const files: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files[relative(dir, path)] = readFileSync(path, 'utf8');
  }
  return files;
}

export function copyInto(from: string, to: string): void {
  if (existsSync(from)) cpSync(from, to, { recursive: true });
}

export const npmCallsOf = (log: string): string[] =>
  existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').filter(Boolean) : [];
