// npm run drift end to end: the reference against a copy that differs in three known ways drifts by exactly
// those three, its model-based sequences played alike on both from the one seed drift gives them. Both runs are
// ordinary conformance runs, so each leaves nothing on its target and never touches a zone it did not make.
// Two shops that answer alike are "same": drift-cause.test.ts shows it on drift's report builder, a busy staging
// shop against its empty copy; what the launcher adds to the report (its exit code, its console line, each
// side's run) is the same code for either verdict, and is run for real here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import type { TestExchanges } from '../helpers/evidence/exchange-detail.ts';
import { isModelTestTitle } from '../helpers/harness/model/title.ts';
import { type RunningReference, startReference } from '../reference/server.ts';
import { type HouseStyle, houseStyles } from '../reference/styles.ts';
import { everyFileText, runDrift } from './drift/drift-run.ts';
import { type Bystander, bystanderUntouched, plantBystander } from './gallery/bystander.ts';

const SERVICE_TOKEN = 'svc_drift_0123456789abcdef';
const MOCK_TOKEN = 'mock_drift_fedcba9876543210';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function shop(token: string, style?: HouseStyle): Promise<{ reference: RunningReference; bystander: Bystander }> {
  const reference = await startReference({ token, style });
  closers.push(() => reference.close());
  return { reference, bystander: plantBystander(reference) };
}

/** Nothing of the run is left on the shop, and somebody else's zone is exactly as it was. */
function expectLeftAsFound(target: { reference: RunningReference; bystander: Bystander }): void {
  expect(target.reference.backdoor.all().map((zone) => zone.id)).toEqual([target.bystander.id]);
  expect(bystanderUntouched(target.reference, target.bystander)).toBe(true);
}

function expectNoToken(texts: { path: string; text: string }[]): void {
  for (const { path, text } of texts) {
    expect(text.includes(SERVICE_TOKEN), `${path} holds the service's token`).toBe(false);
    expect(text.includes(MOCK_TOKEN), `${path} holds the mock's token`).toBe(false);
  }
}

test('a copy that answers 200 to a create, writes {"error": ...} and adds a field to zones drifts by exactly those three, exit 1, its model-based sequences played alike', async () => {
  const service = await shop(SERVICE_TOKEN);
  const mock = await shop(MOCK_TOKEN, {
    ...houseStyles.default!,
    name: 'three-differences',
    codes: { created: 200 },
    errorKey: 'error',
    extraZoneFields: { tags: [] },
  });
  // At the default budget, the model-based sequences as well: one seed from drift must play them alike on both,
  // else their steps would differ by more than the three.
  const { run, report, reportsDir, markdown, html } = await runDrift(service.reference, mock.reference);
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(1);
  expect(report.verdict).toBe('drifted');
  const found = report.differences.map(({ operation, aspect, subject, service: a, mock: b }) => ({
    operation,
    aspect,
    subject,
    service: a,
    mock: b,
  }));
  expect(found).toEqual([
    { operation: 'create', aspect: 'status', subject: undefined, service: '201', mock: '200' },
    expect.objectContaining({ aspect: 'error-body', service: '{"errors"}', mock: '{"error"}' }),
    expect.objectContaining({ aspect: 'shape', subject: '<zone>.tags', service: 'absent', mock: 'array' }),
  ]);
  // The model-based sequences were among the steps compared, played on both sides from drift's one seed.
  for (const side of ['service', 'mock'] as const) {
    const certificate = JSON.parse(readFileSync(join(reportsDir, 'drift', side, 'conformance.json'), 'utf8'));
    expect(certificate.model.seed, side).toBe(report.seed);
    const played = readFileSync(join(reportsDir, 'drift', side, 'exchanges.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as TestExchanges)
      .filter((t) => isModelTestTitle(t.title) && t.exchanges.length > 0);
    expect(played.length, side).toBeGreaterThan(0);
  }
  expect(report.compared.steps).toBeGreaterThan(100);
  // The status difference's first case is a create sent with the credential, so its replays carry the token.
  expect(report.differences[0]!.exchanges.mock?.curl).toContain('"$ZONES_MOCK_ACCESS_TOKEN"');
  for (const difference of report.differences) {
    expect(['list', 'create', 'update', 'delete']).toContain(difference.operation);
    // Both exchanges, each replayed against its own target, the mock's with the mock's token.
    const serviceCurl = difference.exchanges.service?.curl ?? '';
    const mockCurl = difference.exchanges.mock?.curl ?? '';
    expect(serviceCurl).toContain(`'${service.reference.url}/admin/api/`);
    expect(mockCurl).toContain(`'${mock.reference.url}/admin/api/`);
    expect(mockCurl).not.toContain('$ZONES_ACCESS_TOKEN');
    expect(mockCurl.includes('"$ZONES_MOCK_ACCESS_TOKEN"')).toBe(serviceCurl.includes('"$ZONES_ACCESS_TOKEN"'));
  }
  // The mock's own certificate, which shows PROFILE-02's warning with its exchanges, tells the reader
  // the replays' token variable by the mock's name, not the service's.
  const mockCertificate = readFileSync(join(reportsDir, 'drift', 'mock', 'conformance.md'), 'utf8');
  expect(mockCertificate).toContain('the commands read the credential from ZONES_MOCK_ACCESS_TOKEN:');
  expect(mockCertificate).not.toContain('from ZONES_ACCESS_TOKEN');
  // PROFILE-02 warns on the mock because of the 200: told with that difference, not as a fourth.
  expect(report.differences[0]!.verdicts).toContainEqual({ rule: 'PROFILE-02', service: 'passed', mock: 'warning' });
  expect(report.rules.find((rule) => rule.id === 'PROFILE-02')).toMatchObject({ service: 'passed', mock: 'warning' });
  // The reports lead with the differences by operation, then the verdicts side by side.
  expect(markdown.indexOf('## Differences by operation')).toBeGreaterThan(0);
  expect(markdown.indexOf('## Differences by operation')).toBeLessThan(
    markdown.indexOf('## Rule verdicts side by side'),
  );
  expect(html).toMatch(/content="default-src 'none'; style-src 'sha256-/);
  expect(html).not.toMatch(/<script/i);
  // The page as the certificate's: the verdict, then every rule's two states, then the differences.
  expect(html.indexOf('id="verdict"')).toBeLessThan(html.indexOf('Rule verdicts side by side'));
  expect(html.indexOf('Rule verdicts side by side')).toBeLessThan(html.indexOf('Differences by operation'));
  expectLeftAsFound(service);
  expectLeftAsFound(mock);
  expectNoToken([...everyFileText(reportsDir), { path: 'the console', text: run.stdout + run.stderr }]);
});
