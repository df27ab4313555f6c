// Two runs of the same scenarios, step by step: where the mock answered otherwise than the service.
// Tests are matched by title (rule id and title, stable across targets), steps by their place in the
// test. Each step is compared on what a client of the mock relies on and the suite can predict; what
// no two shops share (ids, times, other people's zones) is never compared.
import { zoneItem } from '../client/records.ts';
import type { TargetConfig } from '../config.ts';
import type { RecordedExchange, TestExchanges } from '../evidence/exchange-detail.ts';
import { canonicalJson, parseJson } from '../json.ts';
import { isRunZone } from '../ownership/run-names.ts';
import type { AnswerPart } from '../rules.ts';
import { type Shape, shapeDifferences, shapeOf } from './shape.ts';
import { type Operation, runNames, type Step, stepsOf, WRITES_SENT_TOGETHER, withoutRunNames } from './steps.ts';

/** What a difference is about: a part of a step's answer or a step asked on one side only; a setting; a rule's verdict. */
type Aspect = 'status' | 'content-type' | 'shape' | 'value' | 'header' | 'error-body' | 'step' | 'setting' | 'verdict';

/**
 * How both targets' answers are read (one set of settings): where a zone, a list and its id are; the paging ones tell a
 * list's next page from a new read.
 */
export type DriftSettings = Pick<
  TargetConfig,
  'envelope' | 'zoneKey' | 'listKey' | 'idField' | 'pageParam' | 'cursorParam' | 'cursorField'
>;

/** What a step showed: an aspect, which field, header or path when it has several, and what each target showed. */
export interface Seen {
  aspect: Aspect;
  subject?: string;
  service: string;
  mock: string;
}

/** One place the two runs part: a test's step (or the test itself, step 0), and what it showed. */
export interface Observation extends Seen {
  test: string;
  step: number;
  request: string;
  /** `any` for a test present on one side only. */
  operation: Operation | 'any';
  exchanges: { service?: RecordedExchange; mock?: RecordedExchange };
}

/** Paging headers sent only on a page that has a next one: they tell how many zones the shop holds, not how it pages. */
const MORE_PAGES_HEADERS = new Set(['link', 'x-next-page', 'x-next-cursor']);

/** The values a client can count on and the suite can predict: a zone's name, status and coverage after a write. */
const PREDICTABLE = ['name', 'status', 'coverage'] as const;

/** A run name as withoutRunNames writes it. */
const RUN_NAME_SHOWN = /<name\+-?\d+>/;

type SideStep = ReturnType<typeof sideOf> & { step: Step };

function mediaType(exchange: RecordedExchange): string {
  return exchange.contentType?.split(';')[0]?.trim().toLowerCase() || 'none';
}

function statusText(exchange: RecordedExchange): string {
  return exchange.status === undefined ? 'no answer' : String(exchange.status);
}

/** Where a success answer keeps its zone (create, update) or its zones (list), as a shape path. */
function zonePath(settings: DriftSettings, operation: Operation): string | undefined {
  if (operation === 'delete') return undefined;
  if (operation === 'list') return settings.envelope === 'wrapped' ? `${settings.listKey}[]` : '[]';
  return settings.envelope === 'wrapped' ? settings.zoneKey : '';
}

/** A path written from the zone (`<zone>.name`): a field the mock adds to every zone is one difference, not one per operation. */
function fromZone(path: string, at: string | undefined): string {
  if (at === undefined || (at !== '' && path !== at && !path.startsWith(`${at}.`))) return path;
  const inside = at === '' ? path : path.slice(at.length + 1);
  return inside === '' ? '<zone>' : `<zone>.${inside}`;
}

/** The shape of a step's answer: of a list read, every page's, its zones read from the run's own only. */
function answerShape(side: SideStep, settings: DriftSettings): Shape {
  const at = side.step.operation === 'list' ? zonePath(settings, 'list')?.replace(/\[\]$/, '') : undefined;
  const ownItems = at === undefined ? undefined : { at, isOwn: isRunZone(side.runId) };
  // A coverage is the client's opaque JSON, sent back as sent (the value aspect compares it): which of
  // two concurrent writes a shop kept, or a write one side refused, must not read as a shape of its zones.
  const zone = zonePath(settings, side.step.operation);
  const opaque = new Set(zone === undefined ? [] : [zone === '' ? 'coverage' : `${zone}.coverage`]);
  const answers = side.step.pages.flatMap((page) => (page.answer === undefined ? [] : [parseJson(page.answer)]));
  return shapeOf(answers, ownItems, opaque);
}

/** What a body is when it is no JSON to take the shape of: none, not JSON, not read whole. */
function bodyKind(exchange: RecordedExchange): string {
  if (exchange.answer !== undefined) return `JSON ${Array.isArray(parseJson(exchange.answer)) ? 'array' : 'value'}`;
  return exchange.answerNote ?? 'no body';
}

/** An error body's top-level keys, which a client reads the reason from: keys that differ are one difference, whatever lies under them. */
function errorBodyForm(exchange: RecordedExchange): string {
  if (exchange.answer === undefined) return exchange.answerNote ?? 'no body';
  const body = parseJson(exchange.answer);
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    return `a JSON ${Array.isArray(body) ? 'array' : typeof body}`;
  const keys = Object.keys(body).sort();
  return keys.length === 0 ? '{}' : `{${keys.map((key) => `"${key}"`).join(', ')}}`;
}

/** The zone object of a JSON body, read as the client reads a create's or update's answer (records.ts). */
function zoneIn(text: string | undefined, settings: DriftSettings): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  const read = zoneItem(settings, parseJson(text));
  return read.ok ? read.item : undefined;
}

/**
 * A predictable field of a write's answered zone: a status or coverage as it is; a name of the run "as sent", or else
 * "a name of this run" unnumbered, or a mock that keeps the earlier name would differ by another number each update.
 * A write sent with others may answer with any of theirs (the rule reads only the zone they leave): that is one value.
 */
function valueAsRead(side: SideStep, field: string, settings: DriftSettings): string | undefined {
  const zone = zoneIn(side.step.exchange.answer, settings);
  if (zone === undefined || !Object.hasOwn(zone, field)) return undefined;
  const value = canonicalJson(zone[field]);
  const sent = (exchange: RecordedExchange) => {
    const fields = zoneIn(exchange.request, settings);
    return fields !== undefined && Object.hasOwn(fields, field) && canonicalJson(fields[field]) === value;
  };
  if (side.step.together?.some(sent)) return 'as sent by one of the writes sent together';
  const shown = withoutRunNames(value, side.names);
  if (!RUN_NAME_SHOWN.test(shown)) return shown;
  if (sent(side.step.exchange)) return 'as sent';
  return shown.replace(new RegExp(RUN_NAME_SHOWN.source, 'g'), '<a name of this run>');
}

/** What differs at one step whose request was the same on both targets. */
function compareStep(service: SideStep, mock: SideStep, settings: DriftSettings): Seen[] {
  const a = service.step.exchange;
  const b = mock.step.exchange;
  const operation = service.step.operation;
  // Answers of different statuses are different answers: the status difference stands for the step.
  if (a.status !== b.status) return [{ aspect: 'status', service: statusText(a), mock: statusText(b) }];
  if (a.status === undefined) return [];
  const found: Seen[] = [];
  const differ = (aspect: Aspect, subject: string | undefined, onService: string, onMock: string) => {
    if (onService !== onMock) found.push({ aspect, subject, service: onService, mock: onMock });
  };
  differ('content-type', undefined, mediaType(a), mediaType(b));
  if (a.status < 200 || a.status > 299) {
    const [formA, formB] = [errorBodyForm(a), errorBodyForm(b)];
    differ('error-body', undefined, formA, formB);
    // The same keys: what is under them, by path and JSON type (errors.base[] as strings, or errors as one string).
    if (formA === formB && a.answer !== undefined && b.answer !== undefined)
      for (const part of shapeDifferences(shapeOf([parseJson(a.answer)]), shapeOf([parseJson(b.answer)])))
        differ('error-body', part.path, part.service, part.mock);
    return found;
  }
  if (a.answer === undefined || b.answer === undefined) differ('shape', '(the body)', bodyKind(a), bodyKind(b));
  else
    for (const part of shapeDifferences(answerShape(service, settings), answerShape(mock, settings))) {
      const path = fromZone(part.path, zonePath(settings, operation));
      differ('shape', path === '' ? '(the body)' : path, part.service, part.mock);
    }
  const shown = (present: boolean) => (present ? 'present' : 'absent');
  // A shop that holds more zones reads more pages, and says so on every page but the last.
  const samePages = service.step.pages.length === mock.step.pages.length;
  for (const header of operation === 'list' ? new Set([...a.pagingHeaders, ...b.pagingHeaders]) : [])
    if (samePages || !MORE_PAGES_HEADERS.has(header))
      differ('header', header, shown(a.pagingHeaders.includes(header)), shown(b.pagingHeaders.includes(header)));
  for (const field of operation === 'create' || operation === 'update' ? PREDICTABLE : []) {
    const valueA = valueAsRead(service, field, settings);
    const valueB = valueAsRead(mock, field, settings);
    if (valueA !== undefined && valueB !== undefined) differ('value', field, valueA, valueB);
  }
  return found;
}

/** One side's run of a test, with the run id its names carry. */
interface SideTest {
  test: TestExchanges;
  runId: string;
}

function sideOf({ test, runId }: SideTest, settings: DriftSettings) {
  const steps = stepsOf(test.exchanges, settings, runId, WRITES_SENT_TOGETHER.has(test.ruleId ?? ''));
  return { steps, names: runNames(test.exchanges, runId), runId, stopped: test.state !== 'passed' };
}

/** Where two runs of one test part; after steps that ask different things, the rest is not compared. */
export function compareTest(
  service: SideTest,
  mock: SideTest,
  settings: DriftSettings,
): { observations: Observation[]; compared: number } {
  const [sideA, sideB] = [sideOf(service, settings), sideOf(mock, settings)];
  const observations: Observation[] = [];
  let compared = 0;
  for (let i = 0; i < Math.max(sideA.steps.length, sideB.steps.length); i += 1) {
    const a = sideA.steps[i];
    const b = sideB.steps[i];
    // A test stops at the check that failed it: the steps the other side went on with are the verdict's to tell.
    if ((a === undefined && sideA.stopped) || (b === undefined && sideB.stopped)) break;
    const { request, operation } = (a ?? b)!;
    const at = { test: service.test.title, step: i + 1, request, operation };
    const exchanges = { service: a?.exchange, mock: b?.exchange };
    if (a === undefined || b === undefined || a.request !== b.request) {
      const [onService, onMock] = [a?.request ?? '(no such step)', b?.request ?? '(no such step)'];
      observations.push({ ...at, aspect: 'step', service: onService, mock: onMock, exchanges });
      break;
    }
    compared += 1;
    for (const found of compareStep({ ...sideA, step: a }, { ...sideB, step: b }, settings))
      observations.push({ ...at, ...found, exchanges });
  }
  return { observations, compared };
}

const ZONE_FIELDS: AnswerPart[] = ['id', 'name', 'coverage', 'status'];

/**
 * The parts of an answer (rules.ts) a difference is in, read through the settings: `<zone>.id` is the id only where
 * ZONES_ID_FIELD says. A step asked on one side only is in every part: the test went another way there. A content type,
 * a field no check reads (a time, an extra field) is in none.
 */
export function partsOf(seen: Seen, settings: DriftSettings): readonly AnswerPart[] | 'all' {
  const subject = seen.subject ?? '';
  if (seen.aspect === 'step') return 'all';
  // 200 and 201 are both successes: only a check of the code itself reads the difference.
  if (seen.aspect === 'status') return seen.service[0] === seen.mock[0] ? ['code'] : ['code', 'outcome'];
  if (seen.aspect === 'value') return [subject as AnswerPart];
  if (seen.aspect === 'header') return ['paging'];
  if (seen.aspect === 'error-body') return ['error'];
  if (seen.aspect !== 'shape') return [];
  if (subject === '(the body)') return [...ZONE_FIELDS, 'list', 'paging', 'error'];
  // The zone, the list, or a key on the way to either (a dotted ZONES_LIST_KEY).
  const holdsZones = (key: string) => key === subject || key.startsWith(`${subject}.`);
  if (subject === '<zone>' || holdsZones(settings.listKey) || holdsZones(settings.zoneKey))
    return [...ZONE_FIELDS, 'list'];
  if (subject === settings.cursorField) return ['paging'];
  const field = /^<zone>\.([^.[]+)/.exec(subject)?.[1];
  if (field === settings.idField) return ['id'];
  return ZONE_FIELDS.filter((part) => part !== 'id' && part === field);
}
