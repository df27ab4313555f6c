// Two runs of the same scenarios, step by step: where the mock answered otherwise than the service.
// Tests are matched by title (rule id and title, stable across targets), steps by their place in the
// test. Each step is compared on what a client of the mock relies on and the suite can predict; what
// no two shops share (ids, times, other people's zones) is never compared.

import { zoneItem } from '../client/records.ts';
import type { RecordedExchange, TestExchanges } from '../evidence/exchange-detail.ts';
import type { PagingParams } from '../evidence/list-reads.ts';
import { canonicalJson, parseJson } from '../json.ts';
import { runNamePattern } from '../ownership/run-names.ts';
import { mergedShape, type Shape, shapeDifferences, shapeOf } from './shape.ts';
import { type Operation, type RunNames, runNames, type Step, stepsOf, withoutRunNames } from './steps.ts';

export type Aspect =
  | 'status'
  | 'content-type'
  | 'shape'
  | 'value'
  | 'header'
  | 'error-body'
  | 'verdict'
  | 'step'
  | 'setting';

/**
 * The settings the comparer reads answers with: the same for both targets, by construction. The paging
 * ones tell a list's next page from a new list read.
 */
export interface DriftSettings extends PagingParams {
  envelope: 'wrapped' | 'bare';
  zoneKey: string;
  listKey: string;
}

/** One place the two runs part: a test's step (or the test itself), an aspect, and what each target showed. */
export interface Observation {
  test: string;
  ruleId?: string;
  /** 0 for the test as a whole. */
  step: number;
  request: string;
  /** `any` for a test present on one side only. */
  operation: Operation | 'any';
  aspect: Aspect;
  /** Which field, header or path, when the aspect has several. */
  subject?: string;
  service: string;
  mock: string;
  exchanges: { service?: RecordedExchange; mock?: RecordedExchange };
}

const ZONE = '<zone>';

/**
 * Paging headers a shop sends only on a page that has a next one (a Link header naming rel="next",
 * the next page's number or cursor): they tell how many zones the shop holds, not how it pages.
 */
const MORE_PAGES_HEADERS = new Set(['link', 'x-next-page', 'x-next-cursor']);

function mediaType(exchange: RecordedExchange): string {
  return exchange.contentType?.split(';')[0]?.trim().toLowerCase() || 'none';
}

function parsed(text: string | undefined): unknown {
  return text === undefined ? undefined : parseJson(text);
}

function statusText(exchange: RecordedExchange): string {
  return exchange.status === undefined ? 'no answer' : String(exchange.status);
}

function isSuccess(exchange: RecordedExchange): boolean {
  return exchange.status !== undefined && exchange.status >= 200 && exchange.status <= 299;
}

/** Where a success answer keeps its zone (create, update) or its zones (list), as a shape path. */
function zonePath(settings: DriftSettings, operation: Operation): string | undefined {
  if (operation === 'delete') return undefined;
  if (operation === 'list') return settings.envelope === 'wrapped' ? `${settings.listKey}[]` : '[]';
  return settings.envelope === 'wrapped' ? settings.zoneKey : '';
}

/**
 * A path written from the zone (`<zone>.name`), whichever answer showed it: a field the mock adds to
 * every zone is one difference, not one per operation.
 */
function fromZone(path: string, at: string | undefined): string {
  if (at === undefined) return path;
  const inside =
    at === '' ? path : path === at ? '' : path.startsWith(`${at}.`) ? path.slice(at.length + 1) : undefined;
  if (inside === undefined) return path;
  return inside === '' ? ZONE : `${ZONE}.${inside}`;
}

/**
 * This run's own zones in a list, by the run id their names carry: not any suite-made name, since a
 * shop may hold zones earlier runs left, and those are other people's zones to this run.
 */
function ownZoneOf(runId: string): (item: unknown) => boolean {
  const names = runNamePattern(runId);
  return (item) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return false;
    const name = (item as Record<string, unknown>).name;
    // search() starts at 0 whatever the pattern's lastIndex: a name that begins as the run's names do.
    return typeof name === 'string' && name.search(names) === 0;
  };
}

/**
 * The shape of a step's answer: of a list read, every page's, its zones read from the run's own only
 * (on whichever page they came); of a create or update, the zone the run made.
 */
function answerShape(side: SideStep, settings: DriftSettings): Shape {
  const at = side.step.operation === 'list' ? zonePath(settings, 'list')?.replace(/\[\]$/, '') : undefined;
  const ownItems = at === undefined ? undefined : { at, isOwn: ownZoneOf(side.runId) };
  const kept = side.step.pages.filter((page) => page.answer !== undefined);
  // A coverage is the client's opaque JSON, sent back as sent (the value aspect compares it): which of
  // two concurrent writes a shop kept, or a write one side refused, must not read as a shape of its zones.
  const zone = zonePath(settings, side.step.operation);
  const opaque = new Set(zone === undefined ? [] : [zone === '' ? 'coverage' : `${zone}.coverage`]);
  return mergedShape(kept.map((page) => shapeOf(parsed(page.answer), ownItems, opaque)));
}

/** What a body is when it is no JSON to take the shape of: none, not JSON, not read whole. */
function bodyKind(exchange: RecordedExchange): string {
  if (exchange.answer !== undefined) return `JSON ${Array.isArray(parsed(exchange.answer)) ? 'array' : 'value'}`;
  return exchange.answerNote ?? 'no body';
}

/**
 * An error body's top-level keys: what a client reads the reason from (`errors`, `error`, `message`).
 * Keys that differ are one difference, whatever lies under them; the same keys are compared below.
 */
function errorBodyForm(exchange: RecordedExchange): string {
  if (exchange.answer === undefined) return exchange.answerNote ?? 'no body';
  const body = parsed(exchange.answer);
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    return `a JSON ${Array.isArray(body) ? 'array' : typeof body}`;
  const keys = Object.keys(body).sort();
  return keys.length === 0 ? '{}' : `{${keys.map((key) => `"${key}"`).join(', ')}}`;
}

/** The zone a create or update answered with, where the envelope puts it. */
function answeredZone(exchange: RecordedExchange, settings: DriftSettings): Record<string, unknown> | undefined {
  return zoneIn(exchange.answer, settings);
}

/** The zone a create or update sent, where the envelope puts it. */
function sentZone(exchange: RecordedExchange, settings: DriftSettings): Record<string, unknown> | undefined {
  return zoneIn(exchange.request, settings);
}

/**
 * A predictable value as a reader compares it. A status or a coverage is itself ("draft"). A value
 * that holds a name of the run is "as sent" where the answer gives back what the request sent, and
 * otherwise says "a name of this run" without its number: numbered, a mock that keeps the earlier name
 * would differ from its service once per update, each time by another number, where it is one
 * behaviour, told as one difference.
 */
function valueAsRead(
  answered: unknown,
  sent: Record<string, unknown> | undefined,
  field: string,
  names: RunNames,
): string {
  const value = canonicalJson(answered);
  const shown = withoutRunNames(value, names);
  if (!RUN_NAME_SHOWN.test(shown)) return shown;
  if (sent !== undefined && Object.hasOwn(sent, field) && canonicalJson(sent[field]) === value) return 'as sent';
  return shown.replace(new RegExp(RUN_NAME_SHOWN.source, 'g'), '<a name of this run>');
}

/** A run name as withoutRunNames writes it. */
const RUN_NAME_SHOWN = /<name\+-?\d+>/;

/** The zone object of a JSON body, read as the client reads a create's or update's answer (records.ts). */
function zoneIn(text: string | undefined, settings: DriftSettings): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  const read = zoneItem(settings, parsed(text));
  return read.ok ? read.item : undefined;
}

/** The values a client can count on and the suite can predict: a zone's name, status and coverage after a write. */
const PREDICTABLE = ['name', 'status', 'coverage'] as const;

interface SideStep {
  step: Step;
  names: RunNames;
  runId: string;
}

/** What differs at one step whose request was the same on both targets. */
function compareStep(
  service: SideStep,
  mock: SideStep,
  settings: DriftSettings,
): Omit<Observation, 'test' | 'ruleId' | 'step' | 'request' | 'operation' | 'exchanges'>[] {
  const a = service.step.exchange;
  const b = mock.step.exchange;
  const operation = service.step.operation;
  // Answers of different statuses are different answers: the status difference stands for the step.
  if (a.status !== b.status) return [{ aspect: 'status', service: statusText(a), mock: statusText(b) }];
  if (a.status === undefined) return [];
  const found: Omit<Observation, 'test' | 'ruleId' | 'step' | 'request' | 'operation' | 'exchanges'>[] = [];
  if (mediaType(a) !== mediaType(b)) found.push({ aspect: 'content-type', service: mediaType(a), mock: mediaType(b) });
  if (!isSuccess(a)) {
    const formA = errorBodyForm(a);
    const formB = errorBodyForm(b);
    if (formA !== formB) found.push({ aspect: 'error-body', service: formA, mock: formB });
    // The same keys: what is under them, by path and JSON type (errors.base[] as strings, or errors as one string).
    else if (a.answer !== undefined && b.answer !== undefined)
      for (const part of shapeDifferences(shapeOf(parsed(a.answer)), shapeOf(parsed(b.answer))))
        found.push({ aspect: 'error-body', subject: part.path, service: part.service, mock: part.mock });
    return found;
  }
  if (a.answer === undefined || b.answer === undefined) {
    if (bodyKind(a) !== bodyKind(b))
      found.push({ aspect: 'shape', subject: '(the body)', service: bodyKind(a), mock: bodyKind(b) });
  } else
    for (const part of shapeDifferences(answerShape(service, settings), answerShape(mock, settings))) {
      const path = fromZone(part.path, zonePath(settings, operation));
      found.push({
        aspect: 'shape',
        subject: path === '' ? '(the body)' : path,
        service: part.service,
        mock: part.mock,
      });
    }
  if (operation === 'list') {
    const samePages = service.step.pages.length === mock.step.pages.length;
    for (const header of new Set([...a.pagingHeaders, ...b.pagingHeaders])) {
      // A shop that holds more zones reads more pages, and says so on every page but the last.
      if (!samePages && MORE_PAGES_HEADERS.has(header)) continue;
      const onService = a.pagingHeaders.includes(header);
      if (onService !== b.pagingHeaders.includes(header))
        found.push({
          aspect: 'header',
          subject: header,
          service: onService ? 'present' : 'absent',
          mock: onService ? 'absent' : 'present',
        });
    }
  }
  if (operation === 'create' || operation === 'update') {
    const zoneA = answeredZone(a, settings);
    const zoneB = answeredZone(b, settings);
    const sentA = sentZone(a, settings);
    const sentB = sentZone(b, settings);
    for (const field of PREDICTABLE) {
      if (zoneA === undefined || zoneB === undefined || !Object.hasOwn(zoneA, field) || !Object.hasOwn(zoneB, field))
        continue;
      const valueA = valueAsRead(zoneA[field], sentA, field, service.names);
      const valueB = valueAsRead(zoneB[field], sentB, field, mock.names);
      if (valueA !== valueB) found.push({ aspect: 'value', subject: field, service: valueA, mock: valueB });
    }
  }
  return found;
}

function stoppedEarly(test: TestExchanges): boolean {
  return test.state !== 'passed';
}

/** One side's run of a test, with the run id its names carry. */
export interface SideTest {
  test: TestExchanges;
  runId: string;
}

/** Where two runs of one test part; after steps that ask different things, the rest is not compared. */
export function compareTest(
  title: string,
  serviceSide: SideTest,
  mockSide: SideTest,
  settings: DriftSettings,
): { observations: Observation[]; compared: number } {
  const service = serviceSide.test;
  const mock = mockSide.test;
  const stepsA = stepsOf(service.exchanges, settings, serviceSide.runId);
  const stepsB = stepsOf(mock.exchanges, settings, mockSide.runId);
  const namesA = runNames(service.exchanges, serviceSide.runId);
  const namesB = runNames(mock.exchanges, mockSide.runId);
  const observations: Observation[] = [];
  let compared = 0;
  for (let i = 0; i < Math.max(stepsA.length, stepsB.length); i += 1) {
    const a = stepsA[i];
    const b = stepsB[i];
    const head = { test: title, ruleId: service.ruleId, step: i + 1 };
    // A test stops at the check that failed it: the steps the other side went on with are the verdict's to tell.
    if ((a === undefined && stoppedEarly(service)) || (b === undefined && stoppedEarly(mock))) break;
    if (a === undefined || b === undefined || a.request !== b.request) {
      const either = (a ?? b)!;
      observations.push({
        ...head,
        request: either.request,
        operation: either.operation,
        aspect: 'step',
        service: a?.request ?? '(no such step)',
        mock: b?.request ?? '(no such step)',
        exchanges: { service: a?.exchange, mock: b?.exchange },
      });
      break;
    }
    compared += 1;
    for (const found of compareStep(
      { step: a, names: namesA, runId: serviceSide.runId },
      { step: b, names: namesB, runId: mockSide.runId },
      settings,
    ))
      observations.push({
        ...head,
        request: a.request,
        operation: a.operation,
        ...found,
        exchanges: { service: a.exchange, mock: b.exchange },
      });
  }
  return { observations, compared };
}
