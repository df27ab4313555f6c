// A shop's profile (ZONES_PROFILE): one JSON file holds the house style's settings, checked by a JSON
// schema and then by the same validator as the variables, which win over it. The token and the other
// settings that are secret or the run's own never go in one. Every setting is accounted for, so a
// new one cannot be left out of the profile by accident, and a reference style certified through
// its profile alone comes out conformant (that run is cli.test.ts's whole run).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { settingsForStyle } from '../bin/reference-settings.ts';
import { describeTarget, type Environment, readTargetConfig, type TargetConfig } from '../helpers/config.ts';
import { parseJson } from '../helpers/json.ts';
import { SETTINGS } from '../helpers/settings.ts';
import { profileKey, profileSchema } from '../helpers/shop-profile.ts';
import { houseStyles } from '../reference/styles.ts';
import { projectRoot, runEntry } from './run-node.ts';
import { problemsOf } from './support/settings-problems.ts';

const SHOP = { ZONES_BASE_URL: 'https://shop.example', ZONES_ACCESS_TOKEN: 'shpat_profile_0123' };
const SHOPIFY = join(projectRoot, 'profiles', 'shopify-style.json');
const DATA_ENVELOPE = join(projectRoot, 'profiles', 'data-envelope.json');
const folder = mkdtempSync(join(tmpdir(), 'zc-profile-'));
let written = 0;

/** A profile file with this content (text as it is, anything else as JSON). */
function profileFile(content: unknown): string {
  const path = join(folder, `profile-${++written}.json`);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

const withProfile = (path: string, env: Environment = {}) => ({ ...SHOP, ZONES_PROFILE: path, ...env });

/** What the validator made of the settings, less the name of the file they came from. */
function configWithout(env: Environment): Omit<TargetConfig, 'profile'> {
  const { profile: _from, ...config } = readTargetConfig(env);
  return config;
}

const inAProfile = SETTINGS.filter((setting) => 'inAProfile' in setting);

/** A profile that says what a set of variables says: the inverse of the profile's reading. */
function profileOf(settings: Record<string, string>): Record<string, unknown> {
  const profile: Record<string, unknown> = {};
  for (const [name, text] of Object.entries(settings)) {
    const setting = inAProfile.find((candidate) => candidate.name === name);
    if (!setting || text === '') continue;
    const kind = setting.type?.kind ?? 'text';
    if (kind === 'pairs')
      profile[profileKey(name)] = Object.fromEntries(text.split(',').map((pair) => pair.split('=')));
    else if (kind === 'names') profile[profileKey(name)] = text.split(',');
    else if (kind === 'json') profile[profileKey(name)] = parseJson(text);
    else if (kind === 'number') profile[profileKey(name)] = Number(text);
    else profile[profileKey(name)] = text;
  }
  return profile;
}

describe('every setting is accounted for', () => {
  test('each is a profile key or refused with its reason, never both, and no secret or command is a key', () => {
    expect(
      SETTINGS.filter((setting) => 'inAProfile' in setting === 'notInAProfile' in setting).map(({ name }) => name),
      'say in helpers/settings.ts whether a profile holds it (inAProfile) or why not (notInAProfile)',
    ).toEqual([]);
    expect(SETTINGS.filter((setting) => 'notInAProfile' in setting && setting.notInAProfile.trim() === '')).toEqual([]);
    expect(
      inAProfile.filter(({ name, type }) => /TOKEN|SECRET|PASSWORD/.test(name) || type?.kind === 'command'),
    ).toEqual([]);
  });

  test('the committed schema is the one the settings make (regenerate with npm run env-example)', () => {
    const committed = JSON.parse(readFileSync(join(projectRoot, 'profiles', 'shop-profile.schema.json'), 'utf8'));
    expect(committed).toEqual(profileSchema());
    expect(Object.keys(committed.properties)).toEqual(
      expect.arrayContaining(inAProfile.map(({ name }) => profileKey(name))),
    );
  });
});

describe('the shipped profiles', () => {
  test('shopify-style.json is the defaults', () => {
    expect(configWithout(withProfile(SHOPIFY))).toEqual(configWithout(SHOP));
    expect(readTargetConfig(withProfile(SHOPIFY)).profile).toBe(SHOPIFY);
  });

  test('data-envelope.json says what the reference style of that name needs', () => {
    const style = houseStyles['data-envelope']!;
    expect(configWithout(withProfile(DATA_ENVELOPE))).toEqual(
      configWithout(settingsForStyle(style, SHOP.ZONES_BASE_URL, SHOP.ZONES_ACCESS_TOKEN)),
    );
  });

  test.for(Object.values(houseStyles))('a profile can say everything the $name style needs', (style) => {
    const settings = settingsForStyle(style, SHOP.ZONES_BASE_URL, SHOP.ZONES_ACCESS_TOKEN);
    const path = profileFile(profileOf(settings));
    expect(configWithout(withProfile(path))).toEqual(configWithout(settings));
  });
});

describe('variables win over the file', () => {
  const acme = () =>
    profileFile({ auth_header: 'Authorization', auth_scheme: 'Bearer', statuses: ['draft', 'live'], max_rps: 2 });

  test('a variable that is set replaces the profile value; the rest come from the profile', () => {
    const config = readTargetConfig(withProfile(acme(), { ZONES_AUTH_SCHEME: 'Token', ZONES_STATUSES: 'draft,on' }));
    expect(config).toMatchObject({
      authHeader: 'Authorization',
      authScheme: 'Token',
      statuses: ['draft', 'on'],
      maxRps: 2,
    });
  });

  test('an empty variable (an unset CI variable) leaves the profile value', () => {
    expect(readTargetConfig(withProfile(acme(), { ZONES_AUTH_SCHEME: '' })).authScheme).toBe('Bearer');
  });

  test('the report names the profile, and says so when there is none', () => {
    const path = acme();
    expect(describeTarget(readTargetConfig(withProfile(path)))).toMatchObject({ profile: path });
    expect(describeTarget(readTargetConfig(SHOP))).toMatchObject({ profile: '(none)' });
  });
});

describe('what a profile refuses, naming the file, the key and why', () => {
  test.for([
    ['access_token', 'the token is a secret'],
    ['ZONES_ACCESS_TOKEN', 'the token is a secret'],
    ['api_token', 'looks like a secret'],
    ['client_secret', 'looks like a secret'],
    ['booking_hook', 'shell command'],
    ['booking_cleanup_hook', 'shell command'],
    ['base_url', "the run's choice"],
    ['tls_insecure', 'never one a shared file makes'],
    ['reports_dir', "the caller's choice"],
    ['profile', 'cannot name another profile'],
  ])('%s', ([key, why]) => {
    const secret = 'shpat_never_echoed_9876';
    const path = profileFile({ statuses: ['draft', 'live'], [key!]: secret });
    const problems = problemsOf(withProfile(path));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^ZONES_PROFILE ${path}: ${key} `));
    expect(problems[0]).toContain(why);
    expect(problems.join()).not.toContain(secret);
  });

  test('a setting written as its variable is pointed at its key', () => {
    expect(problemsOf(withProfile(profileFile({ ZONES_ENVELOPE: 'bare' })))).toEqual([
      expect.stringContaining('ZONES_ENVELOPE must be written envelope'),
    ]);
  });

  test.for([
    [{ statuses: 'draft,live' }, 'statuses must be an array'],
    [{ statuses: ['draft', 'live,dead'] }, 'statuses[1] must be a name without a comma'],
    [{ envelope: 'boxed' }, 'envelope must be one of wrapped, bare'],
    [{ timeout_ms: '30000' }, 'timeout_ms must be a whole number'],
    [{ auth_header: '' }, 'auth_header must not be empty'],
    [{ status_filter_values: { draft: 1 } }, 'status_filter_values.draft must be a string'],
    [{ envelop: 'bare' }, "envelop is not a profile key: the keys are the settings' names without ZONES_"],
    ['{"statuses": ["draft",', 'is not valid JSON'],
    ['["draft"]', 'must be a JSON object of settings'],
  ] as [unknown, string][])('%j: %s', ([content, message]) => {
    const path = profileFile(content);
    expect(problemsOf(withProfile(path))).toEqual([expect.stringContaining(`ZONES_PROFILE ${path}: ${message}`)]);
  });

  test("a value the validator refuses names the setting, the profile's key and the file", () => {
    const path = profileFile({ statuses: ['published', 'archived'], paging: 'page', page_param: 'status' });
    expect(problemsOf(withProfile(path))).toEqual([
      expect.stringMatching(new RegExp(`^ZONES_STATUSES \\(statuses in ${path}\\) must contain draft`)),
      `ZONES_PAGE_PARAM (page_param in ${path}) must differ from ZONES_STATUS_PARAM (both are "status")`,
    ]);
  });

  test('a missing file is named; without a shop, a profile is refused like any shop setting', () => {
    const missing = join(folder, 'no-such-profile.json');
    expect(problemsOf(withProfile(missing))).toEqual([
      `ZONES_PROFILE ${missing}: no such file (a relative path is read from the current directory)`,
    ]);
    expect(problemsOf({ ZONES_PROFILE: SHOPIFY })).toEqual([
      expect.stringMatching(/^ZONES_PROFILE is set but ZONES_BASE_URL is not/),
    ]);
  });
});

// A whole run certified through a profile alone, from the folder that holds it with a .env, is in
// cli.test.ts ("a full run against a target named by settings"), which reads that one run for its own
// evidence too. The launcher's refusal of a bad profile is here.
test('a bad profile stops the run with exit 3 and one line naming the file', async () => {
  const bad = await runEntry('bin/conformance.ts', [], {
    ...SHOP,
    ZONES_PROFILE: profileFile({ envelope: 'boxed', access_token: 'x' }),
    ZONES_REPORTS_DIR: mkdtempSync(join(tmpdir(), 'zc-profile-bad-')),
  });
  expect(bad.code).toBe(3);
  expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  expect(bad.stderr).toMatch(/cannot run: bad settings: ZONES_PROFILE \S+: access_token cannot be in a profile/);
  expect(bad.stderr).toMatch(/envelope must be one of wrapped, bare/);
});
