// The model-based suite's judge, fed by hand: which rule a disagreement is put down to, from what
// happened to the zone since a list last showed it right, and what it leaves alone (other people's
// zones, a reused id, a field no record shows). A wrong rule here would send a reader to the wrong
// part of the specification, so each way of blaming is shown once.
import { describe, expect, test } from 'vitest';
import type { ZoneRecord } from '../helpers/client/records.ts';
import { firstFinding, judgeList, learnFrom } from '../helpers/harness/model/judge.ts';
import { emptyModel, type ModelZone, nothingSince, type ZoneModel } from '../helpers/harness/model/zone-model.ts';

const EU = { regions: ['EU'] };
const US = { regions: ['US'] };

function zone(model: ZoneModel, id: string, fields: Partial<ModelZone> = {}): ModelZone {
  const made: ModelZone = {
    label: String.fromCharCode(65 + model.created++),
    id: { text: id },
    createdAs: `name-${id}`,
    expected: { name: [`name-${id}`], coverage: [EU], status: ['draft'] },
    updated: false,
    booked: false,
    seen: true,
    showsStatus: true,
    since: nothingSince(),
    ...fields,
  };
  model.live.push(made);
  model.namesSent.set(made.createdAs, made);
  return made;
}

function record(id: string, fields: Partial<Omit<ZoneRecord, 'id' | 'raw'>> = {}): ZoneRecord {
  const shown = { name: `name-${id}`, coverage: EU, status: 'draft', ...fields };
  return { id: { text: id }, ...shown, raw: { id, ...shown } };
}

function blamed(judgement: ReturnType<typeof judgeList>): string | undefined {
  return firstFinding(judgement.findings)?.rule;
}

describe('the unfiltered list', () => {
  test('a list that shows every zone as the model has it finds nothing, and checks what happened since', () => {
    const model = emptyModel();
    const a = zone(model, '1', { seen: false });
    const b = zone(model, '2');
    b.since = { ...nothingSince(), othersUpdated: true };
    const judgement = judgeList(model, [record('1'), record('2'), record('99', { name: 'not ours' })]);
    expect(judgement.findings).toEqual([]);
    expect(judgement.checked).toEqual(expect.arrayContaining(['CREATE-01', 'CREATE-02', 'UPDATE-04', 'LIST-01']));
    learnFrom(model, [record('1'), record('2')]);
    expect([a.seen, b.since.othersUpdated]).toEqual([true, false]);
  });

  test('a field an update of its own did not set breaks that field update rule', () => {
    const model = emptyModel();
    const a = zone(model, '1', { updated: true, expected: { name: ['renamed'], coverage: [EU], status: ['draft'] } });
    a.since = { ...nothingSince(), updated: true, changed: new Set(['name']) };
    expect(blamed(judgeList(model, [record('1')]))).toBe('UPDATE-01');
  });

  test("another zone's name after another zone's update is that update landing on the wrong zone", () => {
    const model = emptyModel();
    const a = zone(model, '1', { updated: true, expected: { name: ['sent-to-a'], coverage: [US], status: ['draft'] } });
    const b = zone(model, '2');
    model.namesSent.set('sent-to-a', a);
    a.since = { ...nothingSince(), updated: true, changed: new Set(['name', 'coverage']) };
    b.since = { ...nothingSince(), othersUpdated: true };
    // A still shows what it had; B shows what was sent to A. The wrong zone is the telling finding.
    const judgement = judgeList(model, [record('1'), record('2', { name: 'sent-to-a', coverage: US })]);
    expect(judgement.findings.map((f) => f.rule).sort()).toEqual(['UPDATE-01', 'UPDATE-02', 'UPDATE-04', 'UPDATE-04']);
    expect(blamed(judgement)).toBe('UPDATE-04');
  });

  test('a zone no list has shown yet is not blamed on another zone: its create may have stored it wrong', () => {
    const model = emptyModel();
    const b = zone(model, '2', { seen: false });
    b.since = { ...nothingSince(), othersUpdated: true };
    expect(blamed(judgeList(model, [record('2', { coverage: undefined }), record('9')]))).toBe('CREATE-01');
    b.seen = true;
    expect(blamed(judgeList(model, [record('2', { coverage: undefined }), record('9')]))).toBe('UPDATE-04');
  });

  test('a zone that changed while nothing was written to it is put down to how its value was set', () => {
    const model = emptyModel();
    zone(model, '1');
    expect(blamed(judgeList(model, [record('1', { coverage: US })]))).toBe('CREATE-01');
    const updated = emptyModel();
    zone(updated, '1', { updated: true });
    expect(blamed(judgeList(updated, [record('1', { coverage: US })]))).toBe('UPDATE-02');
  });

  test('a booked zone that changed after its refused delete breaks DELETE-02', () => {
    const model = emptyModel();
    const a = zone(model, '1', { booked: true });
    a.since = { ...nothingSince(), refusedDelete: true };
    expect(blamed(judgeList(model, []))).toBe('DELETE-02');
    expect(blamed(judgeList(model, [record('1', { name: 'changed' })]))).toBe('DELETE-02');
  });

  test('a zone missing: CREATE-01 if no list has shown it yet, LIST-01 if one has', () => {
    const model = emptyModel();
    zone(model, '1', { seen: false });
    expect(blamed(judgeList(model, []))).toBe('CREATE-01');
    const seen = emptyModel();
    zone(seen, '1');
    expect(blamed(judgeList(seen, []))).toBe('LIST-01');
  });

  test('a deleted zone listed again is DELETE-01; a new zone under its reused id is not', () => {
    const model = emptyModel();
    const gone = zone(model, '7');
    model.live = [];
    model.deleted.push(gone);
    expect(blamed(judgeList(model, [record('7')]))).toBe('DELETE-01');
    // What a max(id) + 1 store does: somebody's new zone under the id this sequence deleted.
    expect(judgeList(model, [record('7', { name: 'somebody else' })]).findings).toEqual([]);
  });

  test('a field no record shows is not judged; one only ours leaves out is', () => {
    const model = emptyModel();
    zone(model, '1');
    expect(judgeList(model, [record('1', { coverage: undefined })]).findings).toEqual([]);
    expect(blamed(judgeList(model, [record('1', { coverage: undefined }), record('9')]))).toBe('CREATE-01');
    // A status left out is the filter's to judge: a shop may leave out a default value.
    expect(judgeList(model, [record('1', { status: undefined }), record('9')]).findings).toEqual([]);
  });

  test('a field whose value a refused write left open accepts either value, and the read settles it', () => {
    const model = emptyModel();
    const a = zone(model, '1', { expected: { name: ['name-1'], coverage: [EU], status: ['draft', 'published'] } });
    expect(judgeList(model, [record('1', { status: 'published' })]).findings).toEqual([]);
    learnFrom(model, [record('1', { status: 'published' })]);
    expect(a.expected.status).toEqual(['published']);
  });
});

describe('the filtered list', () => {
  test('a zone whose record shows another status than the filter asked for is LIST-02', () => {
    const model = emptyModel();
    zone(model, '1', { expected: { name: ['name-1'], coverage: [EU], status: ['published'] } });
    expect(blamed(judgeList(model, [record('1', { status: 'published' })], 'draft'))).toBe('LIST-02');
  });

  test('a zone missing from the filter of its status is LIST-02 when its records show a status', () => {
    const model = emptyModel();
    zone(model, '1');
    expect(blamed(judgeList(model, [], 'draft'))).toBe('LIST-02');
    expect(judgeList(model, [], 'published').findings).toEqual([]);
  });

  test('for a zone whose records show no status, the filter is the evidence of its status', () => {
    const model = emptyModel();
    zone(model, '1', { showsStatus: false });
    expect(firstFinding(judgeList(model, [], 'draft').findings)).toEqual({
      rule: 'CREATE-02',
      // Not "in status draft": the shop never said so.
      what: 'the shop lists zone A (1) with no status, and leaves it out of the list filtered by draft, though it should be in status draft',
    });
    const asked = emptyModel();
    zone(asked, '1', { showsStatus: false, askedStatus: 'published' });
    expect(blamed(judgeList(asked, [], 'draft'))).toBe('CREATE-03');
  });

  test('a zone no list has shown yet is not judged by its absence from a filter', () => {
    const model = emptyModel();
    zone(model, '1', { seen: false });
    expect(judgeList(model, [], 'draft').findings).toEqual([]);
  });
});
