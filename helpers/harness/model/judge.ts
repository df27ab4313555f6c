// One list read judged against the model: which of the sequence's own zones (no other zone of the shop)
// it must and must not show, with what, and which rule each disagreement breaks, by what happened to the
// zone since a list last showed it right. Pure, so that a self-test can feed it.
import type { ZoneRecord } from '../../client/records.ts';
import { jsonEqual, shownJson } from '../../json.ts';
import { expects, FIELDS, type Field, type ModelZone, nothingSince, type ZoneModel } from './zone-model.ts';

type Finding = { rule: string; what: string };

/** checked: the rules this read checked, once per check. */
type Judgement = { findings: Finding[]; checked: string[] };

const UPDATE_RULE: Record<Field, string> = { name: 'UPDATE-01', coverage: 'UPDATE-02', status: 'UPDATE-03' };

/** The most telling first: a zone come back, then one changed by another zone's update, a refused delete, the rest. */
const RANK: Record<string, number> = { 'DELETE-01': 0, 'UPDATE-04': 1, 'DELETE-02': 2 };

/** The rule a wrong value of this field breaks, judged by the zone's history alone. */
function fieldRule(zone: ModelZone, field: Field): string {
  if (zone.updated) return UPDATE_RULE[field];
  if (field !== 'status') return 'CREATE-01';
  return zone.askedStatus === undefined ? 'CREATE-02' : 'CREATE-03';
}

/** Who is to blame for a wrong value, surest first; a PUT sends the whole zone, so its own update answers for all. */
function blame(model: ZoneModel, zone: ModelZone, field: Field, record: ZoneRecord): string {
  const sentTo = typeof record.name === 'string' ? model.namesSent.get(record.name) : undefined;
  if (sentTo !== undefined && sentTo !== zone && zone.since.othersUpdated) return 'UPDATE-04';
  if (zone.since.updated) return UPDATE_RULE[field];
  // Only a list that had shown the zone right can tell it changed: one never shown may be wrong since its create.
  if (!zone.seen) return fieldRule(zone, field);
  if (zone.since.refusedDelete) return 'DELETE-02';
  if (zone.since.othersUpdated) return 'UPDATE-04';
  return fieldRule(zone, field);
}

/** A zone missing from the unfiltered list: never listed yet, gone after its refused delete, or just gone. */
function blameAbsence(zone: ModelZone): string {
  if (!zone.seen) return 'CREATE-01';
  return zone.since.refusedDelete ? 'DELETE-02' : 'LIST-01';
}

/** The rules a read that shows this zone as expected has checked: what happened to it since the last one. */
function checkedBy(zone: ModelZone): string[] {
  const rules = [...zone.since.changed].map((field) => UPDATE_RULE[field]);
  if (!zone.seen) return [...rules, 'CREATE-01', fieldRule(zone, 'status')];
  if (zone.since.othersUpdated) rules.push('UPDATE-04');
  if (zone.since.refusedDelete) rules.push('DELETE-02');
  return rules;
}

const expectedText = (zone: ModelZone, field: Field) => zone.expected[field].map(shownJson).join(' or ');

/** The record of a zone of the sequence: by its id, or by its unique name while its id is not known yet. */
function recordOf(zone: ModelZone, records: readonly ZoneRecord[], model: ZoneModel): ZoneRecord | undefined {
  if (zone.id !== undefined) return records.find((record) => record.id.text === zone.id!.text);
  const taken = new Set(model.live.flatMap((other) => (other.id ? [other.id.text] : [])));
  return records.find((record) => record.name === zone.createdAs && !taken.has(record.id.text));
}

const nameOf = (zone: ModelZone) => `zone ${zone.label}${zone.id ? ` (${zone.id.text})` : ''}`;

/** A disagreement with the model, under the rule the read has thereby checked. */
function found(judgement: Judgement, rule: string, what: string): void {
  judgement.checked.push(rule);
  judgement.findings.push({ rule, what });
}

/** A deleted zone of the sequence listed again: under its id, with a name the sequence gave it. */
function comeBack(model: ZoneModel, records: readonly ZoneRecord[], where: string, judgement: Judgement): void {
  const pendingNames = new Set(model.live.filter((zone) => zone.id === undefined).map((zone) => zone.createdAs));
  for (const zone of model.deleted) {
    judgement.checked.push('DELETE-01');
    const record = records.find((r) => r.id.text === zone.id?.text);
    // A store that hands out max(id) + 1 gives the id to the next zone: a zone with another name is not ours.
    if (!record || pendingNames.has(String(record.name))) continue;
    const namesGiven = [zone.createdAs, ...zone.expected.name];
    if (record.name !== undefined && !namesGiven.some((name) => jsonEqual(name, record.name))) continue;
    const what = `${nameOf(zone)}, deleted by this sequence, is in ${where} again`;
    judgement.findings.push({ rule: 'DELETE-01', what });
  }
}

/**
 * A list read: every live zone with every field it is known to have, and, filtered, exactly the live zones
 * known to be in that status. A record in another status breaks LIST-02; for a zone whose records show no
 * status, the filter is its status's only evidence. A zone no list has shown yet is not missed by a filter.
 */
export function judgeList(model: ZoneModel, records: readonly ZoneRecord[], status?: string): Judgement {
  const where = status === undefined ? 'the list' : `the list filtered by ${status}`;
  const judgement: Judgement = { findings: [], checked: [] };
  comeBack(model, records, where, judgement);
  for (const zone of model.live) {
    const record = recordOf(zone, records, model);
    if (status === undefined && !record) {
      found(judgement, blameAbsence(zone), `${nameOf(zone)} is not in the list`);
    } else if (status !== undefined) {
      judgeMembership(zone, record, status, judgement);
    }
    if (!record) continue;
    // A record it shows carries every field: its status agrees with the filter, the rest with the model.
    judgement.checked.push(...checkedBy(zone), ...(status === undefined && zone.seen ? ['LIST-01'] : []));
    // A field no record shows is not judged; one only ours leaves out is evidence.
    for (const field of FIELDS) {
      const value = record[field];
      // A status the records leave out is judged by the filter instead (a shop may leave out defaults).
      if (value === undefined && field === 'status') continue;
      if (value === undefined && !records.some((other) => other !== record && other[field] !== undefined)) continue;
      if (expects(zone, field, value)) continue;
      const what = `${nameOf(zone)} shows ${field} ${shownJson(value)} instead of ${expectedText(zone, field)}`;
      judgement.findings.push({ rule: blame(model, zone, field, record), what });
    }
  }
  return judgement;
}

function judgeMembership(zone: ModelZone, record: ZoneRecord | undefined, status: string, judgement: Judgement): void {
  const where = `the list filtered by ${status}`;
  const known = zone.id !== undefined && zone.expected.status.length === 1;
  const inStatus = known && jsonEqual(zone.expected.status[0], status);
  const membershipRule = zone.showsStatus ? 'LIST-02' : fieldRule(zone, 'status');
  if (record?.status !== undefined && !jsonEqual(record.status, status)) {
    found(judgement, 'LIST-02', `${nameOf(zone)} is in ${where} with status ${shownJson(record.status)}`);
  } else if (record && known && !inStatus && record.status === undefined && zone.seen) {
    found(judgement, membershipRule, `${nameOf(zone)}, in status ${expectedText(zone, 'status')}, is in ${where}`);
  } else if (!record && inStatus && zone.seen) {
    // A zone listed with no status is in no status the shop shows: say what it did show.
    const what = zone.showsStatus
      ? `${nameOf(zone)}, in status ${status}, is missing from ${where}`
      : `the shop lists ${nameOf(zone)} with no status, and leaves it out of ${where}, though it should be in status ${status}`;
    found(judgement, membershipRule, what);
  } else if (known && zone.seen) {
    judgement.checked.push(membershipRule);
  }
}

/** The finding a failure is reported by: the most telling one. */
export function firstFinding(findings: readonly Finding[]): Finding | undefined {
  const rank = (finding: Finding) => RANK[finding.rule] ?? 3;
  return [...findings].sort((a, b) => rank(a) - rank(b))[0];
}

/** What a read that agrees with the model teaches it: ids found by name, fields settled, zones verified. */
export function learnFrom(model: ZoneModel, records: readonly ZoneRecord[]): void {
  for (const zone of model.live) {
    const record = recordOf(zone, records, model);
    if (!record) continue;
    zone.id ??= record.id;
    for (const field of FIELDS) {
      const value = record[field];
      if (value !== undefined && expects(zone, field, value)) zone.expected[field] = [value];
    }
    zone.showsStatus = record.status !== undefined;
    zone.seen = true;
    zone.since = nothingSince();
  }
}
