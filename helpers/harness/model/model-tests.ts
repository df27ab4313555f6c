// The model-based run as one test per rule (the verdict counts tests per rule). One run serves them all:
// the first test starts it with its own client and zones, so its requests are counted once, there.
import { inject } from 'vitest';
import { readsOfTheShop } from '../../evidence/list-reads.ts';
import { emptyTally, requestsIn } from '../../evidence/request-tally.ts';
import { currentRunId } from '../current-target.ts';
import { type ConformanceContext, notVerified } from '../rule-test.ts';
import { runModel } from './run-model.ts';

// Keyed by run and target: in the gallery one worker runs the suites of many targets.
const runs = new Map<string, ReturnType<typeof runModel>>();

/** Under drift the budget counts reads of the shop, not requests, or a busy service's sequences would end elsewhere than its mock's. */
function budgetCounter({ target, task }: ConformanceContext): (() => number) | undefined {
  if (inject('recordExchanges') === undefined) return undefined;
  const details = () => (task.meta.exchanges ?? []).flatMap((record) => record.detail ?? []);
  return () => readsOfTheShop(details(), target);
}

function outcomeFor(context: ConformanceContext): ReturnType<typeof runModel> {
  const { api, zones, target, task } = context;
  const key = `${currentRunId()} ${target.baseUrl}`;
  let run = runs.get(key);
  if (run === undefined) {
    const requestsSoFar = () => requestsIn(task.meta.tally ?? emptyTally());
    const real = { api, zones, signal: task.context.signal, requestsSoFar, spentSoFar: budgetCounter(context) };
    run = runModel(real, target.model);
    // A stopped run gives up on the test at once; the sequences then end their operation and clean up first.
    zones.awaitBeforeCleanUp(run);
    runs.set(key, run);
  }
  return run;
}

export async function checkModelRule(id: string, context: ConformanceContext): Promise<void> {
  const { session, failures, seed } = await outcomeFor(context);
  context.task.meta.sharedRequests = session.requests();
  if (session.defect !== undefined) throw session.defect;
  const failure = failures.get(id);
  if (failure !== undefined) throw new Error(failure);
  // A list that could not be read, a shop that stopped answering: not verified, as any test would be.
  if (session.stopped !== undefined) throw session.stopped;
  if (id === 'LIST-02' && session.filtersLost !== undefined) throw session.filtersLost;
  const ran = `${session.sequences} sequence(s), ${session.requests()} requests, seed ${seed}`;
  if (!session.checks.get(id))
    notVerified(
      context,
      `no model-based sequence reached a check of ${id} this run (${ran}); a larger ZONES_MODEL_RUNS, ZONES_MODEL_STEPS or ZONES_MODEL_MAX_REQUESTS would give the sequences more room to reach it`,
    );
}
