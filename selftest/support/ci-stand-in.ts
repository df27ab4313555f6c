// `zones-conformance ci` as it is, with a stand-in for the commands it starts: a copy of the project's launcher side
// in a folder of its own (the build when current, else the TypeScript through tsx), whose bin/zones-conformance.mjs
// plays conformance, sweep and report as a night calls for and writes down how each was called. The ci command
// finds its launcher beside its own modules (helpers/project-root.ts), so the copy runs the ci logic unchanged,
// a night in a fraction of a second where a whole certification and an Allure report take several.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildIsCurrent } from '../../bin/build-freshness.mjs';
import { type ChildRun, projectRoot, runCommand } from '../run-node.ts';

/**
 * What the stand-in's conformance does tonight: its exit code, and the verdict it certifies (none: it wrote no
 * certificate); or the signal that kills it outright, as an out-of-memory killer would.
 */
export type PlayedNight = { code: number; verdict?: string } | { killedBy: NodeJS.Signals };

/** One call of a command by ci, as the stand-in saw it. */
export interface StandInCall {
  args: string[];
  /** conformance: the certificate it was given with --baseline, as read when it was called. */
  baseline?: string;
}

// Plain JavaScript, run by node as the launcher would be: conformance writes tonight's files as a run does (the
// certificate, the summary, a night more in each history), report an HTML report, and sweep only answers.
const STAND_IN = `import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
const [command, ...args] = process.argv.slice(2);
const reports = process.env.ZONES_REPORTS_DIR || 'reports';
const at = args.indexOf('--baseline');
const baseline = at >= 0 && existsSync(args[at + 1]) ? readFileSync(args[at + 1], 'utf8') : undefined;
appendFileSync(process.env.STAND_IN_CALLS, JSON.stringify({ args: [command, ...args], baseline }) + '\\n');
mkdirSync(reports, { recursive: true });
const night = JSON.parse(process.env.STAND_IN_NIGHT);
if (command === 'conformance' && night.verdict) {
  writeFileSync(join(reports, 'conformance.json'), JSON.stringify({ verdict: night.verdict, night: process.env.STAND_IN_LABEL }));
  writeFileSync(join(reports, 'summary.md'), '# Conformance: ' + night.verdict.toUpperCase() + '\\n');
  for (const history of ['conformance-history.jsonl', 'allure-history.jsonl'])
    appendFileSync(join(reports, history), JSON.stringify({ night: process.env.STAND_IN_LABEL }) + '\\n');
}
if (command === 'report') {
  mkdirSync(join(reports, 'allure-report'), { recursive: true });
  writeFileSync(join(reports, 'allure-report', 'index.html'), '<html></html>');
}
if (command === 'conformance' && night.killedBy) process.kill(process.pid, night.killedBy);
process.exitCode = command === 'conformance' ? night.code : 0;
`;

export interface StandInCi {
  /** One night of `ci --history DIR` in a fresh folder, its conformance played as given. */
  night(
    played: PlayedNight,
    options?: string[],
  ): Promise<{ run: ChildRun; calls: StandInCall[]; outputs: Record<string, string>; summary: string; job: string }>;
  /** The folder that travels from night to night. */
  history: string;
}

/** A copy of the ci command with the stand-in launcher, and a history folder of its own. */
export function standInCi(): StandInCi {
  const root = mkdtempSync(join(tmpdir(), 'zc-ci-stand-in-'));
  const built = buildIsCurrent(projectRoot);
  for (const folder of built ? ['dist'] : ['bin', 'helpers'])
    cpSync(join(projectRoot, folder), join(root, folder), { recursive: true });
  for (const file of ['package.json', 'tsconfig.json']) cpSync(join(projectRoot, file), join(root, file));
  symlinkSync(join(projectRoot, 'node_modules'), join(root, 'node_modules'), 'dir');
  mkdirSync(join(root, 'bin'), { recursive: true });
  writeFileSync(join(root, 'bin', 'zones-conformance.mjs'), STAND_IN);
  // tsx by its address: a night's folder, where ci runs, has no node_modules to find it by name.
  const tsx = import.meta.resolve('tsx');
  const entry = built ? [join(root, 'dist', 'bin', 'ci.js')] : ['--import', tsx, join(root, 'bin', 'ci.ts')];
  const history = join(root, 'nights');
  let nights = 0;

  async function night(played: PlayedNight, options: string[] = []) {
    nights += 1;
    const job = mkdtempSync(join(tmpdir(), 'zc-ci-played-'));
    const [summary, output, calls] = [join(job, 'summary'), join(job, 'output'), join(job, 'calls')];
    for (const path of [summary, output, calls]) writeFileSync(path, '');
    const run = await runCommand(process.execPath, [...entry, '--history', history, ...options], {
      cwd: job,
      env: {
        GITHUB_STEP_SUMMARY: summary,
        GITHUB_OUTPUT: output,
        STAND_IN_NIGHT: JSON.stringify(played),
        STAND_IN_CALLS: calls,
        STAND_IN_LABEL: `night ${nights}`,
      },
    });
    const lines = readFileSync(output, 'utf8').trim().split('\n').filter(Boolean);
    return {
      run,
      job,
      calls: readFileSync(calls, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as StandInCall),
      outputs: Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
      ),
      summary: readFileSync(summary, 'utf8'),
    };
  }
  return { night, history };
}
