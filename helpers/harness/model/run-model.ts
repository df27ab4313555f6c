// The model-based run: fast-check draws sequences of operations, each from no zone of its own; the first
// the shop answers against the model is shrunk, and every failure loses the operations it does not need.
import fc from 'fast-check';
import { PreconditionError } from '../../client/records.ts';
import { TransportError } from '../../client/shop-transport.ts';
import { type ModelBudget, newModelSeed, seedReplayCommand } from '../../config.ts';
import { commandArbitrary, type ZoneCommand } from './commands.ts';
import { cleanUpSequence, listZones, type Sequence } from './operations.ts';
import { Disagreement, ModelSession, type RealWorld } from './session.ts';
import { modelRules, stories, topUpFor } from './top-up.ts';
import { emptyModel } from './zone-model.ts';

/** The operations that ran up to each failure: what trimming leaves out one at a time. */
const ranUpTo = new WeakMap<Disagreement, readonly ZoneCommand[]>();

/** Plays one sequence: the shop's disagreement, if any. No answer stops the run where `mayStop`; else, a defect. */
async function play(
  session: ModelSession,
  commands: Iterable<ZoneCommand>,
  mayStop = true,
): Promise<Disagreement | undefined> {
  const sequence: Sequence = { session, model: emptyModel(), refused: [] };
  session.sequences += 1;
  const ran: ZoneCommand[] = [];
  try {
    // As fast-check's asyncModelRun plays them, keeping the operations that ran for a failure to name.
    for (const command of commands) {
      if (!command.check(sequence)) continue;
      ran.push(command);
      await command.run(sequence, session);
    }
    // Whatever a sequence's last writes did is looked at once more before its zones go.
    if (sequence.model.steps.length > 0 && session.real.signal?.aborted !== true) await listZones(sequence, undefined);
  } catch (error) {
    if (error instanceof Disagreement) {
      ranUpTo.set(error, ran);
      return error;
    }
    if (!(error instanceof PreconditionError || error instanceof TransportError)) session.defect = error;
    else if (mayStop) session.stopped = error;
  } finally {
    await cleanUpSequence(sequence);
  }
  return undefined;
}

/** The fast-check property: true when the sequence agreed with the model or could not say either way. */
function sequenceProperty(session: ModelSession) {
  const config = session.real.api.config;
  const commands = fc.commands([commandArbitrary(config)], { maxCommands: session.budget.steps, size: 'max' });
  return fc.asyncProperty(commands, async (drawn) => {
    if (session.stopped !== undefined || session.defect !== undefined) return;
    // Before any failure no answer stops the run; while shrinking, the shorter sequence just proves nothing.
    const found = await play(session, drawn, session.primary === undefined);
    if (found === undefined) return;
    session.record(found);
    // Shrinking follows the first rule broken; another rule a shorter sequence breaks is kept aside.
    if (found.rule === session.primary) throw found;
  });
}

/** The failure as a report shows it: the rule's evidence on the first line, the sequence and the seed below. */
function failureMessage({ what, steps, evidence }: Disagreement, seed: number, found?: Disagreement): string {
  const shrunk =
    found !== undefined && found.steps.length > steps.length ? ` (shrunk from ${found.steps.length} operations)` : '';
  return [
    `${what}, after ${steps.length} operation(s): ${steps.join('; ')} (ZONES_MODEL_SEED=${seed} replays it)`,
    '',
    `the shortest sequence found${shrunk}:`,
    steps.map((step, n) => `  ${n + 1}. ${step}`).join('\n'),
    '',
    `replay: ZONES_MODEL_SEED=${seed} npm run conformance, or ${seedReplayCommand(seed)}`,
    '',
    evidence,
  ].join('\n');
}

/** Room for one top-up sequence: a few operations, each with a read, on a list of a few pages. */
const TOP_UP_REQUESTS = 30;

/**
 * Each operation left out in turn, and kept out while the rest still break the same rule: fast-check never
 * drops a sequence's last one (here the read after it may have failed), nor shrinks a story's failure.
 */
async function withoutUnneeded(session: ModelSession, found: Disagreement): Promise<Disagreement> {
  let kept = found;
  for (let at = 0; at < (ranUpTo.get(kept)?.length ?? 0) && session.mayStart(); ) {
    const ran = ranUpTo.get(kept)!;
    const shorter = await play(session, [...ran.slice(0, at), ...ran.slice(at + 1)]);
    // Left out, an operation can make one before it unneeded too: each is tried again.
    [kept, at] = shorter?.rule === found.rule ? [shorter, 0] : [kept, at + 1];
  }
  return kept;
}

export async function runModel(real: RealWorld, budget: ModelBudget) {
  const session = new ModelSession(real, budget);
  // A certification's launcher has drawn the seed already (withRunSeed); a caller that did not gets one here.
  const seed = budget.seed ?? newModelSeed();
  // The stories first, within the run's budget: each rule's first failure, and what the story looks for.
  const played = new Map<string, { found: Disagreement; about: string }>();
  for (const story of stories) {
    if (session.stopped || session.defect) break;
    const found = await play(session, story.commands);
    if (found && !played.has(found.rule)) played.set(found.rule, { found, about: story.about });
  }
  const details = await fc.check(sequenceProperty(session), { numRuns: budget.runs, seed });
  // Each rule's failure as found: the first seen, the one fast-check shrank, then the stories'.
  const found = new Map(session.firstFailures);
  if (details.failed && details.errorInstance instanceof Disagreement)
    found.set(details.errorInstance.rule, details.errorInstance);
  for (const [rule, story] of played) if (!found.has(rule)) found.set(rule, story.found);
  const failures = new Map<string, string>();
  for (const [rule, disagreement] of found) {
    // What one shrinking may spend, each: fast-check's shrinking spends its budget whole.
    session.allow(budget.shrinkRequests);
    const first = session.firstFailures.get(rule);
    const message = failureMessage(await withoutUnneeded(session, disagreement), seed, first ?? disagreement);
    const story = first ? undefined : played.get(rule);
    failures.set(rule, story ? `${message}\n\nplayed on every run: it looks for ${story.about}` : message);
  }
  // The shortest sequence for each rule no random sequence checked (a failure there needs no shrinking); after
  // a failure too: the search ended there, and the other rules deserve a check of their own.
  const config = session.real.api.config;
  for (const rule of modelRules(config)) {
    if (session.checks.get(rule) || session.stopped || session.defect) continue;
    session.allow(TOP_UP_REQUESTS);
    const broken = await play(session, topUpFor(rule, config));
    if (broken && !found.has(broken.rule)) failures.set(broken.rule, failureMessage(broken, seed));
  }
  return { session, seed, failures };
}
