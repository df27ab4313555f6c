// How a conformance test is declared: its title comes from the catalogue (so it always leads with a
// known rule id), and it gets the target, a recording client and a fixture of its own zones.
import * as allure from 'allure-js-commons';
import { test as baseTest, inject, type TestContext } from 'vitest';
import { ZonesClient } from '../client/zones-client.ts';
import type { TargetConfig } from '../config.ts';
import { BodyFiles } from '../evidence/bounded-body.ts';
import { type ExchangeRecord, recordExchange } from '../evidence/evidence.ts';
import { operatorVariable } from '../evidence/replay.ts';
import { emptyTally } from '../evidence/request-tally.ts';
import { Secrets } from '../evidence/secrets.ts';
import { ledgerAt } from '../ownership/ledger.ts';
import { isRunZone } from '../ownership/run-names.ts';
import './task-meta.ts';
import { PreconditionError } from '../client/records.ts';
import { type RuleLevel, ruleById } from '../rules.ts';
import { currentLedgerPath, currentRunId, currentTarget } from './current-target.ts';
import { OwnZones } from './own-zones.ts';

interface ConformanceFixtures {
  target: TargetConfig;
  api: ZonesClient;
  zones: OwnZones;
}

// `expect` is the test's own, so that a soft assertion is always the test's that made it.
export type ConformanceContext = Pick<TestContext, 'task' | 'skip' | 'expect'> & ConformanceFixtures;

// Set while the zones fixture tears down, so clean-up requests are not counted as the check's own.
const cleaningUp = new WeakSet<object>();

const test = baseTest.extend<ConformanceFixtures>({
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from this destructuring, and this one has none.
  target: async ({}, use) => {
    await use(currentTarget());
  },
  api: async ({ target, task }, use) => {
    task.meta.tally = emptyTally();
    task.meta.cleanupTally = emptyTally();
    const { tally, cleanupTally } = task.meta;
    // Bodies too long to show go whole into the reports folder, masked like the reports themselves.
    const bodies = new BodyFiles(target.reportsDir, new Secrets(target));
    const ownZone = inject('recordExchanges') === undefined ? undefined : isRunZone(currentRunId());
    const recording = { targetVariables: inject('targetVariables'), ownZone };
    const api = new ZonesClient(target, {
      ledger: ledgerAt(currentLedgerPath()),
      tallyFor: () => (cleaningUp.has(task) ? cleanupTally : tally),
      onLag: (waitedMs) => {
        task.meta.lagMs = [...(task.meta.lagMs ?? []), waitedMs];
      },
      onExchange: (exchange) => {
        if (cleaningUp.has(task)) return;
        task.meta.exchanges = [...(task.meta.exchanges ?? []), recordExchange(exchange, target, bodies, recording)];
      },
    });
    await use(api);
    // After the test's own clean-up (the zones fixture tears down first): an outage that outlasted the
    // budget by now stops the run, rather than letting every test after it wait the budget again.
    const outage = api.transport.spentOutage();
    if (outage !== undefined) task.meta.outage = outage;
  },
  zones: async ({ api, task }, use) => {
    const zones = new OwnZones(api, currentRunId());
    await use(zones);
    cleaningUp.add(task);
    task.meta.cleanup = await zones.cleanUp();
  },
});

/** A check that could not be made: not verified, with the reason and what would let it be made; never a pass. */
export function notVerified(context: Pick<TestContext, 'task' | 'skip'>, reason: string): never {
  context.task.meta.notVerified = reason;
  context.skip(`not verified: ${reason}`);
  throw new Error('unreachable: skip() throws');
}

type Check = (context: ConformanceContext) => Promise<void>;

const SEVERITY: Record<RuleLevel, string> = { must: 'critical', should: 'normal', may: 'minor' };

/** The test's requests as commands to paste into a shell, each under a comment saying what it got. */
function replayScript(records: readonly ExchangeRecord[]): string {
  const commands = records.map((record, index) => `# ${index + 1}. ${record.line}\n${record.curl}`);
  return `# Set ${operatorVariable('ACCESS_TOKEN', inject('targetVariables'))} first; the commands read the credential from it.\n\n${commands.join('\n\n')}\n`;
}

/** What the settings made this test check with (a booked zone, say): beside the result, never in the title. */
export async function checkedWith(context: Pick<ConformanceContext, 'task'>, what: string): Promise<void> {
  context.task.meta.checkedWith = [...(context.task.meta.checkedWith ?? []), what];
  // Excluded from Allure's history id too: a test's identity stays the same whatever the settings.
  await allure.parameter('checked with', what, { excluded: true });
}

/** The title leads with the rule id and its catalogue title; a case's label follows. */
function declareTest(id: string, label: string | undefined, check: Check): void {
  const rule = ruleById(id);
  const title = `${id} ${rule.title}${label === undefined ? '' : `: ${label}`}`;
  // vitest reads the destructuring to decide which fixtures to set up, so it is spelled out.
  test(title, async ({ task, skip, expect, target, api, zones }) => {
    // Labels for the Allure report, the precondition outcome, and the exchanges as an attachment.
    await allure.label('rule', id);
    await allure.feature(id.split('-')[0]!);
    await allure.severity(SEVERITY[rule.level]);
    await allure.tag(rule.level.toUpperCase());
    try {
      await check({ task, skip, expect, target, api, zones });
    } catch (error) {
      if (error instanceof PreconditionError) notVerified({ task, skip }, error.message);
      throw error;
    } finally {
      // The same records, and so the same curl commands, as conformance.md shows.
      const records = task.meta.exchanges ?? [];
      if (records.length > 0) {
        await allure.attachment('exchanges', records.map((record) => record.shown).join('\n\n'), 'text/plain');
        await allure.attachment('replay with curl', replayScript(records), 'text/plain');
      }
    }
  });
}

export function ruleTest(id: string, check: Check): void {
  declareTest(id, undefined, check);
}

/** One rule over a table of cases: one check for every case's data, or a check per case, never one that branches. */
export function ruleCases<C extends { label: string }>(
  id: string,
  cases: readonly C[],
  check: (item: C, context: ConformanceContext) => Promise<void>,
): void;
export function ruleCases(id: string, cases: readonly { label: string; check: Check }[]): void;
export function ruleCases(
  id: string,
  cases: readonly { label: string; check?: Check }[],
  check?: (item: { label: string }, context: ConformanceContext) => Promise<void>,
): void {
  // A plain loop rather than test.for: its $label interpolation quotes and shortens the label.
  for (const item of cases) {
    const run: Check | undefined = check ? (context) => check(item, context) : item.check;
    if (run === undefined) throw new Error(`${id}: the case "${item.label}" has no check`);
    declareTest(id, item.label, run);
  }
}
