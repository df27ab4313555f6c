// Settings: one validated config, defaults that match the default profile, and one message naming
// every bad variable, so a half-configured run never starts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { describeTarget, readTargetConfig } from '../helpers/config.ts';
import { renderEnvExample, SETTINGS } from '../helpers/settings.ts';
import { projectRoot } from './run-node.ts';
import { problemsOf } from './support/settings-problems.ts';

describe('defaults', () => {
  test('no settings at all means the embedded reference in the default profile', () => {
    const config = readTargetConfig({});
    expect(config).toMatchObject({
      baseUrl: '',
      embedded: true,
      authHeader: 'X-Shopify-Access-Token',
      authScheme: '',
      apiVersion: '2026-07',
      statusParam: 'status',
      statuses: ['draft', 'published'],
      envelope: 'wrapped',
      zoneKey: 'zone',
      listKey: 'zones',
      idField: 'id',
      paging: 'link',
      reportsDir: 'reports',
      // A minute: a gateway restart or a deploy is over by then; a maintenance window is not waited for.
      outageBudgetMs: 60_000,
    });
    expect(config.coverageSamples.length).toBeGreaterThanOrEqual(2);
    // The model-based suite searches for a minute behind 2 requests per second, with a new seed each run.
    expect(config.model).toEqual({ runs: 20, steps: 200, maxRequests: 120, shrinkRequests: 600, seed: undefined });
    expect(readTargetConfig({ ZONES_MODEL_SEED: '-2147483648' }).model.seed).toBe(-(2 ** 31));
  });

  test('a target is read from the settings, with the trailing slash of the base URL dropped', () => {
    const config = readTargetConfig({
      ZONES_BASE_URL: 'https://shop.example/',
      ZONES_ACCESS_TOKEN: 'secret',
      ZONES_AUTH_HEADER: 'Authorization',
      ZONES_AUTH_SCHEME: 'Bearer',
      ZONES_STATUSES: 'draft, active ,archived',
      ZONES_STATUS_PARAM: 'publish_status',
      ZONES_ENVELOPE: 'bare',
      ZONES_ID_FIELD: 'zone_id',
      ZONES_COVERAGE_SAMPLES: '[{"a":1},{"a":9007199254740993}]',
    });
    expect(config).toMatchObject({
      baseUrl: 'https://shop.example',
      embedded: false,
      statuses: ['draft', 'active', 'archived'],
      envelope: 'bare',
    });
    expect(config.coverageSamples[1]).toBe('{"a":9007199254740993}');
  });
});

describe('bad settings', () => {
  test('every bad variable is named in one error', () => {
    const problems = problemsOf({
      ZONES_BASE_URL: 'ftp://shop',
      ZONES_STATUSES: 'published',
      ZONES_ENVELOPE: 'boxed',
      ZONES_COVERAGE_SAMPLES: '[1]',
      ZONES_TIMEOUT_MS: 'soon',
    });
    const named = problems.map((p) => p.split(' ')[0]);
    expect(named).toEqual(
      expect.arrayContaining([
        'ZONES_BASE_URL',
        'ZONES_ACCESS_TOKEN',
        'ZONES_STATUSES',
        'ZONES_ENVELOPE',
        'ZONES_COVERAGE_SAMPLES',
        'ZONES_TIMEOUT_MS',
      ]),
    );
  });

  test('a value with a line break is refused (it would start a heading in the reports); a hook may span lines', () => {
    const shop = { ZONES_BASE_URL: 'https://shop.example', ZONES_ACCESS_TOKEN: 'shpat_0123456789' };
    expect(problemsOf({ ...shop, ZONES_STATUSES: 'draft,live\n# INJECTED HEADING' })).toEqual([
      'ZONES_STATUSES must be one line of text, with no line break, tab or other control character in it',
    ]);
    expect(problemsOf({ ...shop, ZONES_STATUS_PARAM: 'sta\ttus' }).map((p) => p.split(' ')[0])).toContain(
      'ZONES_STATUS_PARAM',
    );
    // A trailing line break (how a pasted CI secret often ends) is trimmed, not refused.
    expect(problemsOf({ ...shop, ZONES_ACCESS_TOKEN: 'shpat_0123456789\n' })).toEqual([]);
    expect(
      problemsOf({
        ...shop,
        ZONES_BOOKING_HOOK: 'set -e\ncurl -fsS -X POST "$ZONES_BASE_URL/book/$ZONE_ID"',
        ZONES_BOOKING_CLEANUP_HOOK: 'true',
      }),
    ).toEqual([]);
  });

  test('a user name or password in ZONES_BASE_URL is refused, and the message does not repeat it', () => {
    for (const userInfo of ['ops:s3cret-Pass@', 'ops@', ':s3cret-Pass@']) {
      const problems = problemsOf({
        ZONES_BASE_URL: `https://${userInfo}shop.example`,
        ZONES_ACCESS_TOKEN: 'shpat_0123456789',
      });
      expect(problems).toEqual([expect.stringMatching(/^ZONES_BASE_URL must not carry a user name or password: /)]);
      expect(problems.join('\n')).not.toContain('s3cret');
    }
  });

  test.for([
    [{ ZONES_BASE_URL: 'not a url', ZONES_ACCESS_TOKEN: 't' }, 'ZONES_BASE_URL'],
    [{ ZONES_BASE_URL: 'https://shop' }, 'ZONES_ACCESS_TOKEN'],
    [{ ZONES_STATUSES: 'draft' }, 'ZONES_STATUSES'],
    [{ ZONES_STATUSES: 'live,archived' }, 'ZONES_STATUSES'],
    [{ ZONES_STATUSES: 'draft,live,live' }, 'ZONES_STATUSES'],
    [{ ZONES_AUTH_HEADER: 'X Token' }, 'ZONES_AUTH_HEADER'],
    [{ ZONES_API_VERSION: '2026/07' }, 'ZONES_API_VERSION'],
    [{ ZONES_COVERAGE_SAMPLES: '{"a":1}' }, 'ZONES_COVERAGE_SAMPLES'],
    [{ ZONES_COVERAGE_SAMPLES: '[1, 1.0]' }, 'ZONES_COVERAGE_SAMPLES'],
    [{ ZONES_COVERAGE_SAMPLES: 'nope' }, 'ZONES_COVERAGE_SAMPLES'],
    [{ ZONES_BOOKING_CLEANUP_HOOK: 'true' }, 'ZONES_BOOKING_CLEANUP_HOOK'],
    [{ ZONES_BASEURL: 'https://typo' }, 'ZONES_BASEURL'],
    [{ ZONES_MODEL_RUNS: '-1' }, 'ZONES_MODEL_RUNS'],
    [{ ZONES_MODEL_STEPS: '0' }, 'ZONES_MODEL_STEPS'],
    [{ ZONES_MODEL_MAX_REQUESTS: 'lots' }, 'ZONES_MODEL_MAX_REQUESTS'],
    [{ ZONES_MODEL_SHRINK_REQUESTS: '1.5' }, 'ZONES_MODEL_SHRINK_REQUESTS'],
    [{ ZONES_MODEL_SEED: '2147483648' }, 'ZONES_MODEL_SEED'],
    [{ ZONES_MODEL_SEED: 'abc' }, 'ZONES_MODEL_SEED'],
    [{ ZONES_OUTAGE_BUDGET_MS: '500' }, 'ZONES_OUTAGE_BUDGET_MS'],
    [{ ZONES_OUTAGE_BUDGET_MS: 'a minute' }, 'ZONES_OUTAGE_BUDGET_MS'],
  ] as [Record<string, string>, string][])('%o is refused, naming %s', ([env, name]) => {
    expect(problemsOf(env).map((p) => p.split(' ')[0])).toContain(name);
  });
});

test('filter values can differ from status names', () => {
  const config = readTargetConfig({
    ZONES_STATUSES: 'draft,active',
    ZONES_STATUS_FILTER_VALUES: 'draft=unpublished, active=published',
  });
  expect(config.filterValues).toEqual({ draft: 'unpublished', active: 'published' });
  expect(problemsOf({ ZONES_STATUS_FILTER_VALUES: 'live=on' })).toEqual([
    expect.stringContaining('not in ZONES_STATUSES'),
  ]);
  expect(problemsOf({ ZONES_STATUS_FILTER_VALUES: 'draft' })).toEqual([expect.stringContaining('status=value pairs')]);
});

test('the target description for reports never holds the token', () => {
  const config = readTargetConfig({ ZONES_BASE_URL: 'https://shop.example', ZONES_ACCESS_TOKEN: 'shpat_secret_123' });
  expect(JSON.stringify(describeTarget(config))).not.toContain('shpat_secret_123');
});

test('the target description shows a JSON setting as its value, encoded once; its text where a number would lose digits', () => {
  const config = readTargetConfig({
    ZONES_BASE_URL: 'https://shop.example',
    ZONES_ACCESS_TOKEN: 't',
    ZONES_COVERAGE_SAMPLES: '[{"countries":["DE"]},{"id":9007199254740993}]',
    ZONES_EXTRA_FIELDS: '{"currency":"EUR"}',
  });
  const shown = describeTarget(config);
  expect(shown.coverageSamples).toEqual([{ countries: ['DE'] }, '{"id":9007199254740993}']);
  expect(shown.extraFields).toEqual({ currency: 'EUR' });
  expect(JSON.stringify(shown, null, 2)).toContain('"coverageSamples": [\n    {\n      "countries": [\n        "DE"');
});

test('.env.example documents every setting with its default (regenerate with npm run env-example)', () => {
  const example = readFileSync(join(projectRoot, '.env.example'), 'utf8');
  expect(example).toBe(renderEnvExample());
  for (const doc of SETTINGS) expect(example).toContain(`# ${doc.name}=`);
});

test('ZONES_EXTRA_FIELDS is a JSON object that leaves name, coverage and status to the suite', () => {
  expect(readTargetConfig({}).extraFields).toBe('{}');
  expect(
    readTargetConfig({ ZONES_EXTRA_FIELDS: '{"currency":"EUR","shop_id":12345678901234567890}' }).extraFields,
  ).toBe('{"currency":"EUR","shop_id":12345678901234567890}');
  expect(problemsOf({ ZONES_EXTRA_FIELDS: '[1]' })).toEqual([
    expect.stringContaining('ZONES_EXTRA_FIELDS must be a JSON object'),
  ]);
  expect(problemsOf({ ZONES_EXTRA_FIELDS: '{"status":"published"}' })).toEqual([
    expect.stringContaining('must not set status'),
  ]);
  expect(problemsOf({ ZONES_EXTRA_FIELDS: '{nope' })).toEqual([
    expect.stringContaining('ZONES_EXTRA_FIELDS is not valid JSON'),
  ]);
});

describe('the embedded reference only when nothing points at a shop', () => {
  test('a ZONES_BASE_URL that is set but empty (an unset CI secret) is refused, not taken for "no shop"', () => {
    expect(problemsOf({ ZONES_BASE_URL: '' })).toEqual([expect.stringMatching(/^ZONES_BASE_URL is set but empty/)]);
    expect(problemsOf({ ZONES_BASE_URL: '  ' })).toEqual([expect.stringMatching(/^ZONES_BASE_URL is set but empty/)]);
  });

  test.for(['ZONES_ACCESS_TOKEN', 'ZONES_BOOKED_ZONE_ID', 'ZONES_BOOKING_HOOK'])(
    '%s without ZONES_BASE_URL is refused',
    (name) => {
      expect(problemsOf({ [name]: 'x' })).toEqual(
        expect.arrayContaining([expect.stringMatching(new RegExp(`^${name} is set but ZONES_BASE_URL is not`))]),
      );
      // An empty secret is still a sign that a shop was meant.
      expect(problemsOf({ [name]: '' }).join()).toContain(`${name} is set but ZONES_BASE_URL is not`);
    },
  );

  test.for([
    ['ZONE_BASE_URL', 'ZONES_BASE_URL'],
    ['ZONES_BASEURL', 'ZONES_BASE_URL'],
    ['zones_base_url', 'ZONES_BASE_URL'],
    ['Zones_Access_Token', 'ZONES_ACCESS_TOKEN'],
    ['ZONES_REPORT_DIR', 'ZONES_REPORTS_DIR'],
  ])('a near miss %s is refused with "did you mean %s"', ([name, meant]) => {
    expect(problemsOf({ [name!]: 'https://staging.example' })).toEqual([
      `${name} is not a setting of this suite; did you mean ${meant}?`,
    ]);
  });

  test('variables of other programs that merely start alike are left alone', () => {
    expect(problemsOf({ ZONEINFO: '/usr/share/zoneinfo', ZONE_ID: '7', ZONE: 'eu' })).toEqual([]);
    expect(readTargetConfig({ ZONEINFO: '/usr/share/zoneinfo' }).embedded).toBe(true);
  });
});

describe('paging and envelope keys', () => {
  test('page numbers, cursors and dotted envelope keys are read', () => {
    expect(readTargetConfig({ ZONES_PAGING: 'page', ZONES_PAGE_PARAM: '_page', ZONES_ENVELOPE: 'bare' })).toMatchObject(
      { paging: 'page', pageParam: '_page', envelope: 'bare' },
    );
    const cursor = readTargetConfig({
      ZONES_ZONE_KEY: 'data',
      ZONES_LIST_KEY: 'data.items',
      ZONES_PAGING: 'cursor',
      ZONES_CURSOR_FIELD: 'meta.next_cursor',
      ZONES_CURSOR_PARAM: 'after',
    });
    expect(cursor).toMatchObject({
      zoneKey: 'data',
      listKey: 'data.items',
      paging: 'cursor',
      cursorField: 'meta.next_cursor',
      cursorParam: 'after',
    });
  });

  test.for([
    [{ ZONES_PAGING: 'scroll' }, 'ZONES_PAGING must be link, page or cursor (got "scroll")'],
    [
      { ZONES_PAGING: 'cursor', ZONES_ENVELOPE: 'bare' },
      'ZONES_PAGING cannot be cursor with ZONES_ENVELOPE=bare: a bare list is a plain array, with no place for a next cursor',
    ],
    [{ ZONES_PAGE_PARAM: 'p' }, 'ZONES_PAGE_PARAM applies only with ZONES_PAGING=page (got "link")'],
    [
      { ZONES_PAGING: 'page', ZONES_CURSOR_FIELD: 'meta.next' },
      'ZONES_CURSOR_FIELD applies only with ZONES_PAGING=cursor (got "page")',
    ],
    [{ ZONES_CURSOR_PARAM: 'after' }, 'ZONES_CURSOR_PARAM applies only with ZONES_PAGING=cursor (got "link")'],
    [
      { ZONES_PAGING: 'cursor', ZONES_CURSOR_FIELD: 'meta..next' },
      'ZONES_CURSOR_FIELD must be a key or dotted path such as data or meta.next_cursor (got "meta..next")',
    ],
    [
      { ZONES_PAGING: 'page', ZONES_PAGE_PARAM: 'status' },
      'ZONES_PAGE_PARAM must differ from ZONES_STATUS_PARAM (both are "status")',
    ],
    [
      { ZONES_PAGING: 'cursor', ZONES_STATUS_PARAM: 'cursor' },
      'ZONES_CURSOR_PARAM must differ from ZONES_STATUS_PARAM (both are "cursor")',
    ],
    [
      { ZONES_LIST_KEY: 'data.' },
      'ZONES_LIST_KEY must be a key or dotted path such as data or meta.next_cursor (got "data.")',
    ],
    [
      { ZONES_ZONE_KEY: '.zone' },
      'ZONES_ZONE_KEY must be a key or dotted path such as data or meta.next_cursor (got ".zone")',
    ],
    [
      { ZONES_ENVELOPE: 'bare', ZONES_ZONE_KEY: 'data' },
      'ZONES_ZONE_KEY applies only with ZONES_ENVELOPE=wrapped: a bare body has no key',
    ],
  ] as [Record<string, string>, string][])('%o is refused: %s', ([env, message]) => {
    expect(problemsOf(env)).toEqual([message]);
  });

  test('every bad paging and envelope setting is named in the one message', () => {
    const named = problemsOf({
      ZONES_ENVELOPE: 'bare',
      ZONES_LIST_KEY: 'data',
      ZONES_PAGING: 'cursor',
      ZONES_PAGE_PARAM: 'p',
    }).map((p) => p.split(' ')[0]);
    expect(named).toEqual(['ZONES_LIST_KEY', 'ZONES_PAGING', 'ZONES_PAGE_PARAM']);
  });
});

test('ZONES_TLS_INSECURE=0, the default spelled out, does not count as pointing at a shop', () => {
  expect(problemsOf({ ZONES_TLS_INSECURE: '0' })).toEqual([]);
  expect(problemsOf({ ZONES_TLS_INSECURE: '1' })).toEqual([
    expect.stringMatching(/^ZONES_TLS_INSECURE is set but ZONES_BASE_URL is not/),
  ]);
});

describe('a page size, where the shop takes one', () => {
  test("none by default, so the shop's own applies; a size and its parameter are read", () => {
    expect(readTargetConfig({})).toMatchObject({ pageSize: undefined, pageSizeParam: 'limit' });
    expect(readTargetConfig({ ZONES_PAGE_SIZE: ' 250 ' })).toMatchObject({ pageSize: 250, pageSizeParam: 'limit' });
    expect(readTargetConfig({ ZONES_PAGE_SIZE: '100', ZONES_PAGE_SIZE_PARAM: 'per_page' })).toMatchObject({
      pageSize: 100,
      pageSizeParam: 'per_page',
    });
  });

  const sizes = 'must be a whole number of zones a page from 1 to 1000';
  test.for([
    [{ ZONES_PAGE_SIZE: 'abc' }, `ZONES_PAGE_SIZE ${sizes}, or empty for the shop's own page size (got "abc")`],
    [{ ZONES_PAGE_SIZE: '0' }, `ZONES_PAGE_SIZE ${sizes}, or empty for the shop's own page size (got "0")`],
    [{ ZONES_PAGE_SIZE: '1001' }, `ZONES_PAGE_SIZE ${sizes}, or empty for the shop's own page size (got "1001")`],
    [{ ZONES_PAGE_SIZE: '2.5' }, `ZONES_PAGE_SIZE ${sizes}, or empty for the shop's own page size (got "2.5")`],
    [
      { ZONES_PAGE_SIZE_PARAM: 'per_page' },
      'ZONES_PAGE_SIZE_PARAM applies only with ZONES_PAGE_SIZE set: without a page size it sends nothing',
    ],
    [
      { ZONES_PAGE_SIZE: '50', ZONES_PAGE_SIZE_PARAM: 'status' },
      'ZONES_PAGE_SIZE_PARAM must differ from ZONES_STATUS_PARAM (both are "status")',
    ],
    [
      { ZONES_PAGE_SIZE: '50', ZONES_PAGING: 'page', ZONES_PAGE_PARAM: 'limit' },
      'ZONES_PAGE_SIZE_PARAM must differ from ZONES_PAGE_PARAM (both are "limit")',
    ],
    [
      { ZONES_PAGE_SIZE: '50', ZONES_PAGING: 'cursor', ZONES_CURSOR_PARAM: 'limit' },
      'ZONES_PAGE_SIZE_PARAM must differ from ZONES_CURSOR_PARAM (both are "limit")',
    ],
  ] as [Record<string, string>, string][])('%o is refused: %s', ([env, message]) => {
    expect(problemsOf(env)).toEqual([message]);
  });
});

describe('numbers, each read by the one bounded reader its type in the settings list names', () => {
  const numbers = SETTINGS.flatMap(({ name, type }) => (type?.kind === 'number' ? [{ name, ...type }] : []));

  test('the list has its numbers', () => {
    expect(numbers.map(({ name }) => name)).toEqual(expect.arrayContaining(['ZONES_TIMEOUT_MS', 'ZONES_MAX_RPS']));
  });

  test.for(numbers)('$name: past its bounds, a fraction or a word is refused in one sentence naming them', (type) => {
    const { name, min, max, whole } = type;
    const sentence = new RegExp(
      `^${name} must be a (whole )?number( of [a-z ]+)? from ${min} to ${max}(, or empty for [^(]+)? \\(got "(.+)"\\)$`,
    );
    for (const bad of [String(min - 1), String(max + 1), 'many', ...(whole ? [String(min + 0.5)] : [])]) {
      const problems = problemsOf({ [name]: bad });
      expect(problems, bad).toEqual([expect.stringMatching(sentence)]);
      expect(sentence.exec(problems[0]!)?.[4]).toBe(bad);
    }
    expect(problemsOf({ [name]: String(min) })).toEqual([]);
    expect(problemsOf({ [name]: String(max) })).toEqual([]);
  });
});
