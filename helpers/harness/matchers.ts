// Assertions that speak the rules' language; every failure shows the exchanges behind it. The setup file of
// every suite run (helpers/runner/run-suites.ts), so no suite or helper imports them for a side effect.
import { expect } from 'vitest';
import { differingFields, type ExpectedFields, findZone, readableZones } from '../client/list-lookups.ts';
import type { ZoneId } from '../client/records.ts';
import { isRefusal, isSuccess, type ListAnswer } from '../client/zones-client.ts';
import { formatAnswers } from '../evidence/evidence.ts';
import type { Answer } from '../evidence/exchange.ts';
import { shownJson } from '../json.ts';
import { type SchemaName, validatorFor } from '../schemas.ts';
import { currentTarget } from './current-target.ts';
import { describeList, filterSettingsHint, strayHint } from './list-checks.ts';

declare module 'vitest' {
  // biome-ignore lint/suspicious/noExplicitAny: the declaration merges with vitest's, which has this default.
  interface Matchers<T = any> {
    /** A 4xx answer; a 2xx with an error body is not, nor a 5xx. `likelyCause`: where a setting may be behind it. */
    toBeRefused(likelyCause?: string): T;
    toSucceed(): T;
    toHaveStatusIn(codes: readonly number[]): T;
    toMatchSchema(name: SchemaName): T;
    /** The (whole, all pages) list holds a zone with this id. `likelyCause`: see likelyFilterCause. */
    toListZone(id: ZoneId, likelyCause?: string): T;
    toShowZone(id: ZoneId, fields: ExpectedFields): T;
  }
}

type Result = { pass: boolean; message: () => string };

function verdict(pass: boolean, isNot: boolean, expectation: string, actual: string, ...answers: Answer[]): Result {
  const evidence = answers.length > 0 ? `\n\n${formatAnswers(...answers)}` : '';
  return { pass, message: () => `expected ${isNot ? 'not ' : ''}${expectation}, ${actual}${evidence}` };
}

function statusText(answer: Answer): string {
  return `got ${answer.status}${refusedFilterHint(answer)}`;
}

/** A filtered list the shop refused: the filter's parameter and values are settings, so say which. */
function refusedFilterHint(answer: Answer): string {
  const filter = (answer as Partial<ListAnswer>).filter;
  if (filter === undefined || !isRefusal(answer)) return '';
  return ` to ${describeList(currentTarget(), filter)}; ${filterSettingsHint(currentTarget())}`;
}

/** Why a list that is not readable (see readableZones) is not, for a matcher that needs a readable one. */
function unreadableList(list: ListAnswer): Result {
  const why =
    !list.read.ok && isSuccess(list)
      ? `but ${list.read.problem}`
      : `got status ${list.status}${refusedFilterHint(list)}`;
  return { pass: false, message: () => `expected a readable list, ${why}\n\n${formatAnswers(list)}` };
}

expect.extend({
  toBeRefused(received: Answer, likelyCause?: string) {
    const pass = isRefusal(received);
    const cause = likelyCause === undefined ? '' : `; ${likelyCause}`;
    return verdict(pass, this.isNot, 'a refusal (4xx)', `${statusText(received)}${cause}`, received);
  },
  toSucceed(received: Answer) {
    const pass = isSuccess(received);
    return verdict(pass, this.isNot, 'success (2xx)', statusText(received), received);
  },
  toHaveStatusIn(received: Answer, codes: readonly number[]) {
    const pass = codes.includes(received.status);
    return verdict(pass, this.isNot, `status ${codes.join(' or ')}`, statusText(received), received);
  },
  toMatchSchema(received: Answer, name: SchemaName) {
    const validate = validatorFor(currentTarget(), name);
    let body: unknown;
    try {
      // Plain JSON.parse is right here: a schema checks types, and rounding cannot change a type.
      body = received.exchange.responseBody === '' ? undefined : JSON.parse(received.exchange.responseBody);
    } catch {
      const expectation = `a JSON body matching the ${name} schema`;
      return verdict(false, this.isNot, expectation, 'got a body that is not JSON', received);
    }
    const pass = validate(body) === true;
    const errors = (validate.errors ?? []).map((e) => `${e.instancePath || '(body)'} ${e.message}`).join('; ');
    const actual = pass ? 'and it does' : `but ${errors}`;
    return verdict(pass, this.isNot, `a body matching the ${name} schema`, actual, received);
  },
  toListZone(received: ListAnswer, id: ZoneId, likelyCause?: string) {
    const zones = readableZones(received);
    if (zones === undefined) return { ...unreadableList(received), pass: this.isNot };
    const pass = findZone(zones, id) !== undefined;
    const actual = `the list has ${zones.length} zone(s)${strayHint(received, currentTarget(), likelyCause)}`;
    return verdict(pass, this.isNot, `the list to hold zone ${id.text}`, actual, ...received.pages);
  },
  toShowZone(received: ListAnswer, id: ZoneId, fields: ExpectedFields) {
    const zones = readableZones(received);
    if (zones === undefined) return { ...unreadableList(received), pass: this.isNot };
    const zone = findZone(zones, id);
    if (!zone)
      return verdict(false, this.isNot, `the list to show zone ${id.text}`, 'it is not in the list', ...received.pages);
    const differences = differingFields(zone, fields).map(
      (key) => `${key} is ${shownJson(zone[key])} instead of ${shownJson(fields[key])}`,
    );
    const wanted = Object.entries(fields)
      .map(([key, value]) => `${key} ${shownJson(value)}`)
      .join(', ');
    const pass = differences.length === 0;
    const actual = `${differences.join('; ') || 'it does'}${strayHint(received, currentTarget())}`;
    return verdict(pass, this.isNot, `zone ${id.text} to show ${wanted}`, actual, ...received.pages);
  },
});
