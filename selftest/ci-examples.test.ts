// The example nightly jobs (examples/github-actions, examples/gitlab-ci) parse, and do what the README
// promises when played night after night with their shell run for real: a schedule and a manual
// trigger; Node 24, and actions that run on the Node 24 runtime; the token from the secret store,
// never written in the file; the baseline from the night before, and the nights' and the report's
// histories restored and kept; the report built and uploaded when the run fails too; the certificate
// as the job summary; a sweep after an interrupted run; and a job that fails exactly when the exit
// code says so.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { sideReportsDir } from '../helpers/drift/targets.ts';
import { SETTINGS } from '../helpers/settings.ts';
import { readShopProfile } from '../helpers/shop-profile.ts';
import { projectRoot } from './run-node.ts';
import { CiHome, type Night, type NightResult } from './support/ci-nights.ts';
import { conditionHolds, runGithubNight, type WorkflowStep } from './support/github-night.ts';
import { type GitlabJob, runGitlabNight } from './support/gitlab-night.ts';

const GITHUB_FILE = join(projectRoot, 'examples', 'github-actions', 'nightly-conformance.yml');
const GITLAB_FILE = join(projectRoot, 'examples', 'gitlab-ci', 'nightly-conformance.gitlab-ci.yml');
const githubText = readFileSync(GITHUB_FILE, 'utf8');
const gitlabText = readFileSync(GITLAB_FILE, 'utf8');
const github = parse(githubText);
const gitlab = parse(gitlabText);
const gitlabJob = gitlab['nightly-conformance'] as GitlabJob & {
  image: string;
  rules: { if: string }[];
  variables: Record<string, string>;
};
const githubJob = github.jobs.conformance as { env: Record<string, string>; steps: WorkflowStep[] };
const SHOP = { ZONES_BASE_URL: 'https://staging.example' };

/**
 * The first major of each action whose action.yml says `runs.using: node24` (read in each repository's
 * tags: checkout v4 node20, v5 to v7 node24; setup-node v4 node20, v5 to v7 node24; cache v4 node20,
 * v5 node24; upload-artifact v5 still node20, v6 and v7 node24). Older majors run on the Node 20
 * runtime, which GitHub has deprecated.
 */
const FIRST_NODE24_MAJOR: Record<string, number> = {
  'actions/checkout': 5,
  'actions/setup-node': 5,
  'actions/cache/restore': 5,
  'actions/cache/save': 5,
  'actions/upload-artifact': 6,
};

const WITH_BASELINE = 'run conformance -- --baseline previous/conformance.json --fail-on new';
const WITHOUT_BASELINE = 'run conformance --';

/** How many nights a history file holds, one line each. */
const nightsIn = (history: string | undefined) => (history ?? '').split('\n').filter(Boolean).length;

type Play = (home: CiHome, night: Night) => NightResult;
const CI: Record<string, Play> = {
  'GitHub Actions': (home, night) => runGithubNight(github, home, night, SHOP),
  'GitLab CI': (home, night) => runGitlabNight(gitlabJob, home, night, SHOP),
};
const PASSED: Record<string, string[]> = { 'GitHub Actions': ['success'], 'GitLab CI': ['success'] };
const FAILED: Record<string, string[]> = { 'GitHub Actions': ['failure'], 'GitLab CI': ['failed'] };

describe('what is written in the files', () => {
  test('GitHub: on a schedule and by hand', () => {
    expect(github.on.schedule[0].cron).toMatch(/^\S+ \S+ \S+ \S+ \S+$/);
    expect(github.on).toHaveProperty('workflow_dispatch');
  });

  test('GitLab: from a pipeline schedule and by hand (Run pipeline)', () => {
    expect(gitlabJob.rules.map((rule) => rule.if)).toEqual([
      '$CI_PIPELINE_SOURCE == "schedule"',
      '$CI_PIPELINE_SOURCE == "web"',
    ]);
  });

  test('the token comes from the secret store and is written nowhere in either file', () => {
    expect(githubJob.env.ZONES_ACCESS_TOKEN).toMatch(/^\$\{\{ secrets\.ZONES_ACCESS_TOKEN \}\}$/);
    expect(githubJob.env.ZONES_BASE_URL).toMatch(/^\$\{\{ vars\.ZONES_BASE_URL \}\}$/);
    // In GitLab the token is a masked CI/CD variable of the project, so the job must not set one.
    expect(Object.keys(gitlabJob.variables)).not.toContain('ZONES_ACCESS_TOKEN');
    expect(Object.keys(gitlabJob.variables)).not.toContain('ZONES_BASE_URL');
    for (const text of [githubText, gitlabText]) expect(text).not.toMatch(/ZONES_ACCESS_TOKEN[:=]\s*['"]?[\w-]{6,}/);
  });

  test('the profile each one names is in this repository, and a valid one', () => {
    for (const path of [githubJob.env.ZONES_PROFILE!, gitlabJob.variables.ZONES_PROFILE!]) {
      expect(readShopProfile(join(projectRoot, path)).problems, path).toEqual([]);
    }
  });

  test('GitHub: Node 24, and every action a major that runs on the Node 24 runtime', () => {
    const setupNode = githubJob.steps.find((step) => step.uses?.startsWith('actions/setup-node@'));
    expect(setupNode?.with?.['node-version']).toBe(24);
    const actions = githubJob.steps.flatMap((step) => (step.uses ? [step.uses] : []));
    expect(actions.length).toBeGreaterThan(0);
    for (const uses of actions) {
      const [, action, major] = uses.match(/^(actions\/[\w/-]+)@v(\d+)$/) ?? [];
      expect(FIRST_NODE24_MAJOR, `${uses}: an action this test knows, at a major`).toHaveProperty([action!]);
      expect(Number(major), uses).toBeGreaterThanOrEqual(FIRST_NODE24_MAJOR[action!]!);
    }
  });

  test('GitLab: the official Node 24 image', () => {
    expect(gitlabJob.image).toMatch(/^node:24(-[a-z]+)*$/);
  });

  test("this project's CI (.ci/run) certifies the embedded reference on Node 22 and 24 after npm test", () => {
    const ciRun = readFileSync(join(projectRoot, '.ci', 'run'), 'utf8');
    const afterTests = ciRun.slice(ciRun.indexOf('\nnpm test\n'));
    expect(afterTests).toMatch(/\nfor major in 22 24; do\n/);
    expect(afterTests).toContain('npx -y -p "node@$major" -c');
    // The version is checked on the node that then runs the launcher, in the same shell.
    expect(afterTests).toMatch(/"v\$NODE_MAJOR"\.\*\)[\s\S]*node bin\/zones-conformance\.mjs conformance/);
  });

  test('no expression inside a shell script, where a value would become code', () => {
    for (const step of githubJob.steps) if (step.run) expect(step.run, step.name).not.toMatch(/\$\{\{/);
  });

  test('the condition model reads what it is given, and refuses what it does not know', () => {
    const job = {
      steps: { conformance: { outcome: 'success', outputs: { 'exit-code': '3' } } },
      failed: true,
      cancelled: false,
    };
    expect(conditionHolds("always() && steps.conformance.outputs.exit-code != '3'", job)).toBe(false);
    expect(conditionHolds("steps.conformance.outputs.exit-code == '3'", job)).toBe(false);
    expect(conditionHolds(undefined, { ...job, failed: false })).toBe(true);
    expect(() => conditionHolds("contains(github.ref, 'main')", job)).toThrow(/cannot read/);
  });
});

describe.each(Object.keys(CI))('%s, night after night', (ci) => {
  const play = CI[ci]!;
  const home = new CiHome(mkdtempSync(join(tmpdir(), 'zc-ci-')));
  const nights: Record<string, NightResult> = {};

  beforeAll(() => {
    nights.first = play(home, { exit: 0 });
    nights.regression = play(home, { exit: 1 });
    nights.cannotRun = play(home, { exit: 3 });
    nights.incomplete = play(home, { exit: 2 });
    nights.terminated = play(home, { exit: 143 });
    nights.cancelled = play(home, { cancelled: true });
    nights.afterCancel = play(home, { exit: 0 });
  });

  test('the first night has no baseline; the run is conformant and the job passes', () => {
    const night = nights.first!;
    expect(night.npmCalls).toContain(WITHOUT_BASELINE);
    expect(night.npmCalls.some((call) => call.includes('--baseline'))).toBe(false);
    expect(night.npmCalls).not.toContain('token: not the secret');
    expect(PASSED[ci]).toContain(night.conclusion);
    expect(night.cached['previous/conformance.json']).toContain('night-1');
  });

  test('the next night compares with it, restores the history, and fails on exit 1 with every report uploaded', () => {
    const night = nights.regression!;
    expect(night.npmCalls).toContain(WITH_BASELINE);
    expect(night.npmCalls).toContain('report found 1 night(s) of history');
    expect(night.artifacts).toEqual(
      expect.arrayContaining([
        'reports/conformance.json',
        'reports/conformance.md',
        'reports/allure-report/index.html',
      ]),
    );
    expect(night.summary).toContain('# Conformance certificate: night-2');
    expect(FAILED[ci]).toContain(night.conclusion);
    expect(night.cached['previous/conformance.json'], "a failing night is tomorrow's baseline too").toContain(
      'night-2',
    );
  });

  test('a run that cannot start fails the job, builds no report, and leaves the baseline as it was', () => {
    const night = nights.cannotRun!;
    expect(FAILED[ci]).toContain(night.conclusion);
    expect(night.npmCalls.some((call) => call.startsWith('run report'))).toBe(false);
    expect(night.artifacts).toContain('reports/conformance.json');
    expect(night.cached['previous/conformance.json']).toContain('night-2');
    expect(night.cached['previous/allure-history.jsonl']?.trim().split('\n')).toHaveLength(2);
  });

  test('an incomplete run (exit 2) passes with a warning', () => {
    const night = nights.incomplete!;
    expect(night.npmCalls).toContain(WITH_BASELINE);
    if (ci === 'GitHub Actions') {
      expect(night.conclusion).toBe('success');
      expect(night.log).toMatch(/::warning::incomplete/);
    } else {
      expect(night.conclusion).toBe('warning');
    }
  });

  test('a run stopped by a signal is swept, and the job fails', () => {
    const night = nights.terminated!;
    expect(night.npmCalls).toContain('run sweep -- --yes');
    expect(FAILED[ci]).toContain(night.conclusion);
  });

  test('a cancelled job is swept, and builds no report', () => {
    const night = nights.cancelled!;
    expect(night.npmCalls).toContain('run sweep -- --yes');
    expect(night.npmCalls.some((call) => call.startsWith('run report'))).toBe(false);
    expect(night.artifacts, 'what there is is uploaded all the same').toContain('reports/allure-history.jsonl');
    expect(night.conclusion).toMatch(/^cancel+ed$/);
  });

  test('no sweep after a run that finished by itself', () => {
    for (const name of ['first', 'regression', 'cannotRun', 'incomplete', 'afterCancel'])
      expect(nights[name]!.npmCalls, name).not.toContain('run sweep -- --yes');
  });

  test("the nights' history is restored before each run and kept after it, whatever the exit code", () => {
    const order = ['first', 'regression', 'cannotRun', 'incomplete', 'terminated', 'cancelled', 'afterCancel'];
    // Only the nights that judged the shop (exit 0, 1, 2) add to it; the others must not lose it.
    expect(order.map((name) => nightsIn(nights[name]!.cached['previous/conformance-history.jsonl']))).toEqual([
      1, 2, 2, 3, 3, 3, 4,
    ]);
    // Each run found, in reports/, what the nights before it had kept.
    const found = (name: string) =>
      nights[name]!.npmCalls.filter((call) => call.startsWith('conformance found')).map((call) => call.split(' ')[2]);
    expect(order.filter((name) => name !== 'cancelled').map(found)).toEqual([['0'], ['1'], ['2'], ['2'], ['3'], ['3']]);
    expect(nights.incomplete!.artifacts).toContain('reports/conformance-history.jsonl');
  });

  test('after a stopped or cancelled night, the baseline is still the last night that had a verdict', () => {
    expect(nights.terminated!.cached['previous/conformance.json']).toContain('night-4');
    expect(nights.cancelled!.cached['previous/conformance.json']).toContain('night-4');
    expect(nights.afterCancel!.npmCalls).toContain(WITH_BASELINE);
    expect(nights.afterCancel!.cached['previous/conformance.json']).toContain('night-7');
  });
});

describe('the job summary (GitHub) and the log (GitLab) show summary.md, never the whole certificate', () => {
  test.for(Object.keys(CI))('%s', (ci) => {
    // A certificate past GitHub's 1 MiB, and the summary the launcher cut from it (job-summary.ts).
    const reports = mkdtempSync(join(tmpdir(), 'zc-ci-reports-'));
    writeFileSync(join(reports, 'conformance.md'), `# Conformance certificate: LONG\n\n${'detail\n'.repeat(300_000)}`);
    writeFileSync(join(reports, 'summary.md'), '# Conformance certificate: LONG\n\n**Zones left behind: 1.**\n');
    const night = CI[ci]!(new CiHome(mkdtempSync(join(tmpdir(), 'zc-ci-summary-'))), { exit: 1, reports });
    expect(night.summary).toContain('# Conformance certificate: LONG\n\n**Zones left behind: 1.**\n');
    expect(night.summary).not.toContain('detail');
    expect(night.artifacts).toEqual(expect.arrayContaining(['reports/conformance.md', 'reports/summary.md']));
  });
});

describe('GitHub Actions: the exit code decides, exactly', () => {
  test.for([
    [0, 'success'],
    [1, 'failure'],
    [2, 'success'],
    [3, 'failure'],
    [130, 'failure'],
    [143, 'failure'],
  ] as const)('exit %i: %s', ([exit, conclusion]) => {
    const home = new CiHome(mkdtempSync(join(tmpdir(), 'zc-ci-exit-')));
    expect(runGithubNight(github, home, { exit }, SHOP).conclusion).toBe(conclusion);
  });

  test('FAIL_ON_INCOMPLETE=true turns exit 2 into a failed job', () => {
    const home = new CiHome(mkdtempSync(join(tmpdir(), 'zc-ci-exit-')));
    expect(runGithubNight(github, home, { exit: 2, env: { FAIL_ON_INCOMPLETE: 'true' } }, SHOP).conclusion).toBe(
      'failure',
    );
  });
});

describe('the optional weekly drift job beside the nightly one', () => {
  const githubDrift = parse(readFileSync(join(projectRoot, 'examples', 'github-actions', 'weekly-drift.yml'), 'utf8'));
  const gitlabDriftText = readFileSync(
    join(projectRoot, 'examples', 'gitlab-ci', 'weekly-drift.gitlab-ci.yml'),
    'utf8',
  );
  const gitlabDrift = parse(gitlabDriftText)['weekly-drift'] as {
    rules: { if: string }[];
    script: string[];
    after_script: string[];
    artifacts: { when: string; paths: string[] };
    resource_group: string;
  };
  /** A GitHub expression reading the secret `name`, as the workflow writes it. */
  const secretOf = (name: string) => ['$', `{{ secrets.${name} }}`].join('');
  const job = githubDrift.jobs.drift as { env: Record<string, string>; steps: WorkflowStep[] };
  const step = (name: string) => job.steps.find((each) => each.name === name)!;

  test('GitHub: once a week and by hand, never beside the nightly run; GitLab: its own schedule', () => {
    const [cron] = githubDrift.on.schedule.map((entry: { cron: string }) => entry.cron.split(' '));
    expect(cron[4]).not.toBe('*');
    expect(githubDrift.on).toHaveProperty('workflow_dispatch');
    expect(githubDrift.concurrency.group).toBe(github.concurrency.group);
    expect(gitlabDrift.resource_group).toBe(gitlab['nightly-conformance'].resource_group);
    expect(gitlabDrift.rules.map((rule) => rule.if)).toEqual([
      '$CI_PIPELINE_SOURCE == "schedule" && $ZONES_JOB == "drift"',
      '$CI_PIPELINE_SOURCE == "web" && $ZONES_JOB == "drift"',
    ]);
  });

  test('both tokens come from the secret store; the mock is compared with the same profile as the nightly job', () => {
    expect(job.env).toMatchObject({
      ZONES_ACCESS_TOKEN: secretOf('ZONES_ACCESS_TOKEN'),
      ZONES_MOCK_ACCESS_TOKEN: secretOf('ZONES_MOCK_ACCESS_TOKEN'),
      ZONES_PROFILE: githubJob.env.ZONES_PROFILE,
    });
    expect(gitlabDriftText).not.toMatch(/ZONES_(MOCK_)?ACCESS_TOKEN:/);
    expect(step('Compare the mock with the shop').run).toContain('npm run drift --');
    expect(gitlabDrift.script.join('\n')).toContain('npm run drift --');
  });

  test("after an interruption each side's ledger is swept where drift keeps it, the mock's with its own address and token", () => {
    for (const sweep of [step('Sweep both sides after an interruption').run!, gitlabDrift.after_script.join('\n')]) {
      expect(sweep).toContain(`ZONES_REPORTS_DIR=${sideReportsDir('reports', 'service')} npm run sweep -- --yes`);
      expect(sweep).toContain(
        `ZONES_BASE_URL="$ZONES_MOCK_BASE_URL" ZONES_ACCESS_TOKEN="$ZONES_MOCK_ACCESS_TOKEN" \\\n`,
      );
      expect(sweep).toContain(`ZONES_REPORTS_DIR=${sideReportsDir('reports', 'mock')} npm run sweep -- --yes`);
    }
    expect(step('Upload the drift reports')).toMatchObject({ if: 'always()', with: { path: 'reports/' } });
    expect(gitlabDrift.artifacts).toMatchObject({ when: 'always', paths: ['reports/'] });
  });

  test.for([
    ['0', 0],
    ['1', 1],
    ['3', 3],
    ['143', 1],
    ['', 1],
  ] as const)('GitHub: drift exit %s ends the job with exit %i', ([exit, expected]) => {
    const result = spawnSync('bash', ['-c', step('Pass or fail by the exit code').run!], {
      env: { PATH: process.env.PATH, EXIT_CODE: exit },
      encoding: 'utf8',
    });
    expect(result.status).toBe(expected);
  });
});

describe('action.yml, the GitHub Action at the root', () => {
  const action = parse(readFileSync(join(projectRoot, 'action.yml'), 'utf8')) as {
    inputs: Record<string, { required: boolean }>;
    outputs: Record<string, { value: string }>;
    runs: { using: string; steps: (WorkflowStep & { 'working-directory'?: string })[] };
  };
  const ci = action.runs.steps.find((step) => step.id === 'ci')!;

  test('is a composite action with the documented inputs and outputs, the outputs read from the ci command', () => {
    expect(action.runs.using).toBe('composite');
    expect(Object.keys(action.inputs)).toEqual([
      'base-url',
      'access-token',
      'profile',
      'booking-hook',
      'booking-cleanup-hook',
      'fail-on-incomplete',
      'history-key',
    ]);
    expect(Object.entries(action.outputs).map(([name, { value }]) => [name, value])).toEqual(
      ['verdict', 'exit-code', 'report'].map((name) => [name, ['$', `{{ steps.ci.outputs.${name} }}`].join('')]),
    );
  });

  test("its inputs reach the command under the settings' names, and no expression is inside the script", () => {
    const settingOf: Record<string, string> = {
      'base-url': 'ZONES_BASE_URL',
      'access-token': 'ZONES_ACCESS_TOKEN',
      profile: 'ZONES_PROFILE',
      'booking-hook': 'ZONES_BOOKING_HOOK',
      'booking-cleanup-hook': 'ZONES_BOOKING_CLEANUP_HOOK',
    };
    for (const [input, setting] of Object.entries(settingOf)) {
      expect(SETTINGS.map((each) => each.name)).toContain(setting);
      expect(ci.env?.[setting], input).toBe(['$', `{{ inputs.${input} }}`].join(''));
    }
    expect(ci.run).not.toMatch(/\$\{\{/);
  });

  test('its script calls zones-conformance ci with the nights folder, and --fail-on-incomplete only when asked', () => {
    const dir = mkdtempSync(join(tmpdir(), 'zc-action-'));
    const launcher = join(dir, 'print-arguments.mjs');
    writeFileSync(launcher, 'console.log(JSON.stringify(process.argv.slice(2)));\n');
    const play = (failOnIncomplete: string) =>
      JSON.parse(
        spawnSync('bash', ['-eo', 'pipefail', '-c', ci.run!], {
          env: {
            PATH: process.env.PATH,
            LAUNCHER: launcher,
            NIGHTS: join(dir, 'nights'),
            FAIL_ON_INCOMPLETE: failOnIncomplete,
          },
          encoding: 'utf8',
        }).stdout,
      );
    expect(play('false')).toEqual(['ci', '--history', join(dir, 'nights')]);
    expect(play('true')).toEqual(['ci', '--history', join(dir, 'nights'), '--fail-on-incomplete']);
  });

  test('sets up Node 24 and installs its own pinned version; every action is a major on the Node 24 runtime', () => {
    const setupNode = action.runs.steps.find((step) => step.uses?.startsWith('actions/setup-node@'));
    expect(setupNode?.with?.['node-version']).toBe(24);
    const install = action.runs.steps.find((step) => step.run?.startsWith('npm ci'));
    expect(install?.['working-directory']).toBe(['$', '{{ github.action_path }}'].join(''));
    for (const uses of action.runs.steps.flatMap((step) => (step.uses ? [step.uses] : []))) {
      const [, name, major] = uses.match(/^(actions\/[\w/-]+)@v(\d+)$/) ?? [];
      expect(FIRST_NODE24_MAJOR, uses).toHaveProperty([name!]);
      expect(Number(major), uses).toBeGreaterThanOrEqual(FIRST_NODE24_MAJOR[name!]!);
    }
  });
});
