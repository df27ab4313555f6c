// The embedded reference is configured as any shop is: its house style's settings go through the
// settings validator. The operator's own settings (limits, pacing, reports) still hold for it, a
// setting meant for some shop's interface does not leak into it, and every setting is accounted for,
// so a new one cannot be dropped on its way to the embedded target without this failing. That its
// reports name the reference's own booking route is shown on cli-options.test.ts's embedded run.
import { expect, test } from 'vitest';
import {
  bookingHooksForReference,
  configForReference,
  operatorSettings,
  settingsForStyle,
} from '../bin/reference-settings.ts';
import { ConfigError, readTargetConfig } from '../helpers/config.ts';
import { SETTINGS } from '../helpers/settings.ts';
import type { RunningReference } from '../reference/server.ts';
import { type HouseStyle, houseStyles } from '../reference/styles.ts';

const URL_ = 'http://127.0.0.1:1';
const TOKEN = 'tok_embedded';
const running = (style: HouseStyle) => ({ style, url: URL_, token: TOKEN }) as RunningReference;

test.for(Object.values(houseStyles))('the $name style is read by the validator into its own interface', (style) => {
  const config = configForReference(readTargetConfig({}), running(style));
  expect(config).toMatchObject({
    baseUrl: URL_,
    token: TOKEN,
    embedded: true,
    authHeader: style.authHeader,
    authScheme: style.authScheme,
    statuses: style.statuses,
    statusParam: style.statusParam,
    envelope: style.envelope,
    idField: style.idField,
    paging: style.paging?.kind ?? 'link',
    bookingHook: bookingHooksForReference().ZONES_BOOKING_HOOK,
  });
  if (style.coverageExamples)
    expect(config.coverageSamples.map((text) => JSON.parse(text))).toEqual(style.coverageExamples);
});

test("the operator's limits and reports hold for the embedded reference; settings for a shop's interface do not", () => {
  const base = readTargetConfig({
    ZONES_API_VERSION: '2025-01',
    ZONES_TIMEOUT_MS: '4321',
    ZONES_MAX_BODY_BYTES: '2048',
    ZONES_MAX_RPS: '7',
    ZONES_CONSISTENCY_TIMEOUT_MS: '99',
    ZONES_REPORTS_DIR: 'elsewhere',
    ZONES_COVERAGE_SAMPLES: '[{"a":1},{"a":9007199254740993}]',
    ZONES_ENVELOPE: 'bare',
    ZONES_ID_FIELD: 'uuid',
    ZONES_STATUS_PARAM: 'state',
  });
  const config = configForReference(base, running(houseStyles.default!));
  expect(config).toMatchObject({
    apiVersion: '2025-01',
    timeoutMs: 4321,
    maxBodyBytes: 2048,
    maxRps: 7,
    consistencyTimeoutMs: 99,
    reportsDir: 'elsewhere',
    coverageSamples: ['{"a":1}', '{"a":9007199254740993}'],
    envelope: 'wrapped',
    idField: 'id',
    statusParam: 'status',
  });
  // A style with coverage values of its own uses them, whatever the operator's are.
  const schemaChecked = Object.values(houseStyles).find((style) => style.coverageExamples)!;
  expect(configForReference(base, running(schemaChecked)).coverageSamples).not.toContain('{"a":1}');
});

test("every setting is the style's, the operator's, or a shop's alone", () => {
  const style = new Set([
    ...Object.values(houseStyles).flatMap((each) => Object.keys(settingsForStyle(each, URL_, TOKEN))),
    ...Object.keys(bookingHooksForReference()),
  ]);
  const operator = new Set(Object.keys(operatorSettings(readTargetConfig({}))));
  const shopOnly = (name: string) => {
    try {
      readTargetConfig({ [name]: 'x' });
      return false;
    } catch (error) {
      return error instanceof ConfigError && error.message.includes(`${name} is set but ZONES_BASE_URL is not`);
    }
  };
  const unaccounted = SETTINGS.map((doc) => doc.name).filter(
    (name) => !style.has(name) && !operator.has(name) && !shopOnly(name),
  );
  expect(unaccounted, 'say in bin/reference-settings.ts whether the embedded reference takes it').toEqual([]);
});

// What the embedded run's reports name as what books a zone for DELETE-02 is read from the embedded
// partial run of selftest/cli-options.test.ts, which selects DELETE-02: a run of its own here cost seconds of CPU.
