// The example nightly jobs (examples/github-actions, examples/gitlab-ci) as their users copy them: on a schedule
// and by hand; the token from the secret store, never written in a file; a valid profile; Node 24, and actions that
// run on the Node 24 runtime; and the night's work left to `zones-conformance ci`, whose logic
// selftest/ci-command.test.ts plays night after night. The GitHub job is action.yml as one step, tested below too.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { sideReportsDir } from '../helpers/drift/targets.ts';
import { SETTINGS } from '../helpers/settings.ts';
import { readShopProfile } from '../helpers/shop-profile.ts';
import { projectRoot } from './run-node.ts';

interface WorkflowStep {
  name?: string;
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  with?: Record<string, string | number>;
  env?: Record<string, string>;
}

const GITHUB_FILE = join(projectRoot, 'examples', 'github-actions', 'nightly-conformance.yml');
const GITLAB_FILE = join(projectRoot, 'examples', 'gitlab-ci', 'nightly-conformance.gitlab-ci.yml');
const githubText = readFileSync(GITHUB_FILE, 'utf8');
const gitlabText = readFileSync(GITLAB_FILE, 'utf8');
const github = parse(githubText);
const gitlab = parse(gitlabText);
const gitlabJob = gitlab['nightly-conformance'] as {
  image: string;
  rules: { if: string }[];
  variables: Record<string, string>;
  script: string[];
  after_script: string[];
  cache: { paths: string[]; when: string }[];
  artifacts: { when: string; paths: string[] };
  resource_group: string;
};
const githubJob = github.jobs.conformance as { steps: WorkflowStep[] };
const zonesStep = githubJob.steps.find((step) => step.id === 'zones')!;
/** A GitHub expression as a workflow writes it, here without a template placeholder in the test's own source. */
const expression = (inside: string) => ['$', `{{ ${inside} }}`].join('');

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

function expectNode24Majors(steps: readonly WorkflowStep[]): void {
  for (const uses of steps.flatMap((step) => (step.uses?.startsWith('actions/') ? [step.uses] : []))) {
    const [, name, major] = uses.match(/^(actions\/[\w/-]+)@v(\d+)$/) ?? [];
    expect(FIRST_NODE24_MAJOR, `${uses}: an action this test knows, at a major`).toHaveProperty([name!]);
    expect(Number(major), uses).toBeGreaterThanOrEqual(FIRST_NODE24_MAJOR[name!]!);
  }
}

describe('what is written in the files', () => {
  test('GitHub: on a schedule and by hand, in at most 60 lines, its one step of work the action', () => {
    expect(github.on.schedule[0].cron).toMatch(/^\S+ \S+ \S+ \S+ \S+$/);
    expect(github.on).toHaveProperty('workflow_dispatch');
    expect(githubText.split('\n').length).toBeLessThanOrEqual(60);
    expect(zonesStep.uses).toMatch(/\/zones-conformance@v\d/);
    const inputs = Object.keys(parse(readFileSync(join(projectRoot, 'action.yml'), 'utf8')).inputs);
    for (const input of Object.keys(zonesStep.with ?? {})) expect(inputs, input).toContain(input);
  });

  test('GitLab: from a pipeline schedule and by hand (Run pipeline), the night left to zones-conformance ci', () => {
    expect(gitlabJob.rules.map((rule) => rule.if)).toEqual([
      '$CI_PIPELINE_SOURCE == "schedule"',
      '$CI_PIPELINE_SOURCE == "web"',
    ]);
    expect(gitlabJob.script.join('\n')).toContain('npx zones-conformance ci --history nights');
    expect(gitlabJob.cache[0]).toMatchObject({ paths: ['nights/'], when: 'always' });
    expect(gitlabJob.artifacts).toMatchObject({ when: 'always', paths: ['reports/'] });
  });

  test('the token comes from the secret store and is written nowhere in either file', () => {
    expect(zonesStep.with?.['access-token']).toBe(expression('secrets.ZONES_ACCESS_TOKEN'));
    expect(zonesStep.with?.['base-url']).toBe(expression('vars.ZONES_BASE_URL'));
    // In GitLab the token is a masked CI/CD variable of the project, so the job must not set one.
    expect(Object.keys(gitlabJob.variables)).not.toContain('ZONES_ACCESS_TOKEN');
    expect(Object.keys(gitlabJob.variables)).not.toContain('ZONES_BASE_URL');
    for (const text of [githubText, gitlabText]) expect(text).not.toMatch(/ZONES_ACCESS_TOKEN[:=]\s*['"]?[\w-]{6,}/);
  });

  test('the profile each one names is in this repository, and a valid one', () => {
    for (const path of [String(zonesStep.with?.profile), gitlabJob.variables.ZONES_PROFILE!])
      expect(readShopProfile(join(projectRoot, path)).problems, path).toEqual([]);
  });

  test('GitHub: every action a major that runs on the Node 24 runtime; GitLab: the official Node 24 image', () => {
    expectNode24Majors(githubJob.steps);
    expect(gitlabJob.image).toMatch(/^node:24(-[a-z]+)*$/);
  });

  test('GitLab: a job that ends before ci does (cancelled, timed out, killed) is swept; one ci finished is not', () => {
    const play = (finished: boolean) => {
      const dir = mkdtempSync(join(tmpdir(), 'zc-gitlab-after-'));
      const npx = join(dir, 'npx');
      writeFileSync(npx, '#!/bin/sh\necho "npx $*"\n', { mode: 0o755 });
      if (finished) {
        spawnSync('mkdir', ['-p', join(dir, 'reports')]);
        writeFileSync(join(dir, 'reports', 'ci-exit-code'), '1\n');
      }
      return spawnSync('sh', ['-c', gitlabJob.after_script.join('\n')], {
        cwd: dir,
        env: { PATH: `${dir}:${process.env.PATH}` },
        encoding: 'utf8',
      }).stdout;
    };
    expect(play(false)).toBe('npx zones-conformance sweep --yes\n');
    expect(play(true)).toBe('');
  });

  test("this project's CI (.ci/run) certifies the embedded reference on Node 22 and 24 after npm test", () => {
    const ciRun = readFileSync(join(projectRoot, '.ci', 'run'), 'utf8');
    const afterTests = ciRun.slice(ciRun.indexOf('\nnpm test\n'));
    expect(afterTests).toMatch(/\nfor major in 22 24; do\n/);
    expect(afterTests).toContain('npx -y -p "node@$major" -c');
    // The version is checked on the node that then runs the launcher, in the same shell.
    expect(afterTests).toMatch(/"v\$NODE_MAJOR"\.\*\)[\s\S]*node bin\/zones-conformance\.mjs conformance/);
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
    image: string;
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
      ZONES_PROFILE: String(zonesStep.with?.profile),
    });
    expect(gitlabDriftText).not.toMatch(/ZONES_(MOCK_)?ACCESS_TOKEN:/);
  });

  test('both run npx zones-conformance drift where the package is installed: GitHub with actions on the Node 24 runtime, GitLab on the official Node 24 image', () => {
    expect(step('Compare the mock with the shop').run).toContain('npx zones-conformance drift ');
    expect(gitlabDrift.script.join('\n')).toContain('npx zones-conformance drift ');
    expectNode24Majors(job.steps);
    expect(gitlabDrift.image).toMatch(/^node:24(-[a-z]+)*$/);
  });

  test("after an interruption each side's ledger is swept where drift keeps it, the mock's with its own address and token", () => {
    for (const sweep of [step('Sweep both sides after an interruption').run!, gitlabDrift.after_script.join('\n')]) {
      expect(sweep).toContain(
        `ZONES_REPORTS_DIR=${sideReportsDir('reports', 'service')} npx zones-conformance sweep --yes`,
      );
      expect(sweep).toContain(
        `ZONES_BASE_URL="$ZONES_MOCK_BASE_URL" ZONES_ACCESS_TOKEN="$ZONES_MOCK_ACCESS_TOKEN" \\\n`,
      );
      expect(sweep).toContain(
        `ZONES_REPORTS_DIR=${sideReportsDir('reports', 'mock')} npx zones-conformance sweep --yes`,
      );
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
    expectNode24Majors(action.runs.steps);
  });
});
