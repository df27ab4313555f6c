// One night of the example GitHub Actions workflow, modelled as far as it uses GitHub: `if:`
// conditions over the steps' outcomes and outputs, ${{ }} values, the cache, the artifact upload, the
// job summary and the annotations. Each `run:` is run by bash as GitHub runs `shell: bash`.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
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

export interface WorkflowStep {
  name?: string;
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  with?: Record<string, string | number>;
  env?: Record<string, string>;
  'continue-on-error'?: boolean;
}

interface StepState {
  outcome: string;
  outputs: Record<string, string>;
}

interface JobState {
  steps: Record<string, StepState>;
  failed: boolean;
  cancelled: boolean;
}

const STATUS_FUNCTION = /\b(always|cancelled|success|failure)\(\)/;

/** A step's `if:` as GitHub reads it, for the expressions the example uses; anything else throws. */
export function conditionHolds(expression: string | undefined, job: JobState): boolean {
  const text = (expression ?? 'success()').replace(/^\$\{\{(.*)\}\}$/s, '$1');
  const whole = STATUS_FUNCTION.test(text) ? text : `success() && (${text})`;
  const parts = whole.match(
    /\s+|always\(\)|cancelled\(\)|success\(\)|failure\(\)|steps\.[\w-]+\.(?:outcome|outputs\.[\w-]+)|'[^']*'|==|!=|&&|\|\||[()!]/g,
  );
  if (parts?.join('') !== whole) throw new Error(`the model cannot read the condition: ${expression}`);
  const js = parts
    .map((part) => {
      if (part === 'always()') return 'true';
      if (part === 'cancelled()') return 'job.cancelled';
      if (part === 'success()') return '(!job.failed && !job.cancelled)';
      if (part === 'failure()') return 'job.failed';
      if (part === '==') return '===';
      if (part === '!=') return '!==';
      const step = part.match(/^steps\.([\w-]+)\.(outcome|outputs\.([\w-]+))$/);
      if (step) return JSON.stringify(valueOfStep(job, step[1]!, step[2]!, step[3]));
      return part;
    })
    .join('');
  return Boolean(new Function('job', `return ${js};`)(job));
}

function valueOfStep(job: JobState, id: string, what: string, output?: string): string {
  const step = job.steps[id];
  if (!step) return '';
  return what === 'outcome' ? step.outcome : (step.outputs[output!] ?? '');
}

/** ${{ }} in env and with: values, for the contexts the example uses. */
function substitute(text: string, job: JobState, night: number, secrets: Record<string, string>): string {
  return text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_all, path: string) => {
    const [scope, name, ...rest] = path.split('.');
    if (scope === 'secrets' || scope === 'vars') return secrets[name!] ?? '';
    if (scope === 'github' && name === 'run_id') return String(1000 + night);
    if (scope === 'github' && name === 'run_attempt') return '1';
    if (scope === 'steps') return valueOfStep(job, name!, rest[0]!, rest[1]);
    throw new Error(`the model has no value for \${{ ${path} }}`);
  });
}

const substituteAll = (
  values: Record<string, string | number> | undefined,
  job: JobState,
  night: number,
  secrets: Record<string, string>,
): Record<string, string> =>
  Object.fromEntries(
    Object.entries(values ?? {}).map(([key, value]) => [key, substitute(String(value), job, night, secrets)]),
  );

/** The newest cache entry with this key or, failing that, whose key starts with one of the restore keys. */
function cacheEntry(home: CiHome, key: string, restoreKeys: string): string | undefined {
  const newestFirst = [...home.savedCacheKeys].reverse();
  const prefixes = restoreKeys.split('\n').filter(Boolean);
  const found =
    newestFirst.find((saved) => saved === key) ??
    newestFirst.find((saved) => prefixes.some((prefix) => saved.startsWith(prefix)));
  return found && join(home.cacheStore, found);
}

export function runGithubNight(
  workflow: {
    env?: Record<string, string>;
    jobs: Record<string, { env?: Record<string, string>; steps: WorkflowStep[] }>;
  },
  home: CiHome,
  night: Night,
  secrets: Record<string, string>,
): NightResult {
  const workspace = home.workspace();
  const job: JobState = { steps: {}, failed: false, cancelled: false };
  const [theJob] = Object.values(workflow.jobs);
  const summaryFile = join(home.root, `summary-${workspace.night}.md`);
  writeFileSync(summaryFile, '');
  const artifacts: string[] = [];
  let cached: Record<string, string> = {};
  let log = '';
  const allSecrets = { ...secrets, ZONES_ACCESS_TOKEN: SECRET_TOKEN };

  for (const step of theJob!.steps) {
    const state: StepState = { outcome: 'skipped', outputs: {} };
    if (step.id) job.steps[step.id] = state;
    if (!conditionHolds(step.if, job)) continue;
    if (step.id === 'conformance' && night.cancelled) {
      state.outcome = 'cancelled';
      job.cancelled = true;
      continue;
    }
    const inputs = substituteAll(step.with, job, workspace.night, allSecrets);
    if (step.uses) {
      const action = step.uses.replace(/@.*$/, '');
      const path = join(workspace.dir, inputs.path ?? '');
      if (action === 'actions/cache/restore') {
        const entry = cacheEntry(home, inputs.key!, inputs['restore-keys'] ?? '');
        if (entry) copyInto(entry, path);
      } else if (action === 'actions/cache/save') {
        const entry = join(home.cacheStore, inputs.key!);
        // A cache entry cannot be overwritten: GitHub warns and keeps the first.
        if (!existsSync(entry)) {
          copyInto(path, entry);
          home.savedCacheKeys.push(inputs.key!);
        }
        cached = Object.fromEntries(
          Object.entries(filesUnder(entry)).map(([file, content]) => [join(inputs.path!, file), content]),
        );
      } else if (action === 'actions/upload-artifact') {
        artifacts.push(...Object.keys(filesUnder(path)).map((file) => join(inputs.path!, file)));
      } else if (action !== 'actions/checkout' && action !== 'actions/setup-node') {
        throw new Error(`the model does not know the action ${step.uses}`);
      }
      state.outcome = 'success';
      continue;
    }
    const outputFile = join(home.root, `output-${workspace.night}-${step.id ?? 'step'}`);
    writeFileSync(outputFile, '');
    const env = home.shellEnv(workspace, night, {
      ...substituteAll(workflow.env, job, workspace.night, allSecrets),
      ...substituteAll(theJob!.env, job, workspace.night, allSecrets),
      ...substituteAll(step.env, job, workspace.night, allSecrets),
      ...night.env,
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile,
    });
    const run = runShell(step.run!, workspace.dir, env);
    log += run.stdout + run.stderr;
    state.outcome = run.status === 0 ? 'success' : 'failure';
    for (const line of readFileSync(outputFile, 'utf8').split('\n')) {
      const [key, ...value] = line.split('=');
      if (key) state.outputs[key] = value.join('=');
    }
    if (run.status !== 0 && !step['continue-on-error']) job.failed = true;
  }
  return {
    conclusion: job.cancelled ? 'cancelled' : job.failed ? 'failure' : 'success',
    npmCalls: npmCallsOf(workspace.npmLog),
    summary: readFileSync(summaryFile, 'utf8'),
    log,
    artifacts,
    cached,
  };
}
