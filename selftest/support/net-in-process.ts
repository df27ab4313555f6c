// The network self-tests' way to ask the launcher's own code in this process what a whole run would
// find: the preflight a run starts with (its CannotRunError is the line a run prints before exit 3),
// the client's requests of a rule's example test, and the certificate a run would write. A child run
// of the CLI costs seconds of CPU; these cost milliseconds, and fail on the same code.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ClientOptions, ZonesClient } from '../../helpers/client/zones-client.ts';
import { readTargetConfig, type TargetConfig } from '../../helpers/config.ts';
import type { Exchange } from '../../helpers/evidence/exchange.ts';
import { CannotRunError } from '../../helpers/exit-codes.ts';
import { Ledger } from '../../helpers/ownership/ledger.ts';
import type { ConformanceReport } from '../../helpers/report/certificate.ts';
import { buildReport, renderMarkdown } from '../../helpers/report/conformance-report.ts';
import { newRunId, prepareTarget } from '../../helpers/runner/certify.ts';
import { sampleRunFacts } from './sample-run.ts';

/** The settings as a run reads them, its reports in a folder of their own unless they name one. */
export function configFrom(env: Record<string, string>): TargetConfig {
  return readTargetConfig({ ZONES_REPORTS_DIR: mkdtempSync(join(tmpdir(), 'zc-net-')), ...env });
}

/**
 * The reason the preflight of a run with these settings stops it, as `cannot run: <reason>` prints it
 * before exit 3. A preflight that passes, or fails in another way, fails the test.
 */
export async function preflightRefusal(env: Record<string, string>): Promise<string> {
  const outcome = await prepareTarget({ name: 'target', config: configFrom(env) }, { runId: newRunId() }).then(
    () => new Error('the preflight passed: the run would have gone on to its tests'),
    (error: unknown) => error,
  );
  if (!(outcome instanceof CannotRunError)) throw outcome;
  return outcome.message;
}

/** The reason a call refuses with, as `cannot run: <reason>` prints it before exit 3; anything else fails the test. */
export function cannotRunReason(refused: () => unknown): string {
  try {
    refused();
  } catch (error) {
    if (error instanceof CannotRunError) return error.message;
    throw error;
  }
  throw new Error('expected a refusal (CannotRunError), and it went through');
}

/** A client as the tests' own, recording every exchange, with a ledger of its own. */
export function clientFor(config: TargetConfig, options: Partial<ClientOptions> = {}) {
  const sent: Exchange[] = [];
  const ledger = new Ledger(join(mkdtempSync(join(tmpdir(), 'zc-net-client-')), 'run.jsonl'));
  const api = new ZonesClient(config, { ledger, onExchange: (exchange) => sent.push(exchange), ...options });
  return { api, sent };
}

/**
 * The requests UPDATE-01's example test makes (a create, an update, a list read and a delete), each
 * answered as a correct shop answers it: what a run of that one rule shows about the way to the shop.
 */
export async function updateOneZone(api: ZonesClient, name: string): Promise<number[]> {
  const created = await api.createZone({ name, coverage: {} });
  if (!created.read.ok) throw new Error(`the create was answered ${created.status}: ${created.exchange.responseBody}`);
  const id = created.read.zone.id;
  const updated = await api.updateZone(id, { name: `${name}-renamed` });
  const listed = await api.listZones();
  const deleted = await api.deleteZone(id);
  return [created.status, updated.status, listed.status, deleted.status];
}

/** The certificate a run with these settings writes, and its Markdown, for a run that judged nothing. */
export function certificateFor(config: TargetConfig): { report: ConformanceReport; markdown: string } {
  const report = buildReport(sampleRunFacts(config, []));
  return { report, markdown: renderMarkdown(report) };
}
