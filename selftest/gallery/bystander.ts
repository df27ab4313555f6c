// A zone that belongs to somebody else: planted on every gallery target before the run and compared
// after it. The suite must never change or delete a zone it did not create, on any target, broken
// or not.
import { canonicalJson, parseJson } from '../../helpers/json.ts';
import type { RunningReference } from '../../reference/server.ts';

const NAME = 'bystander-zone-of-another-team';

function headers(reference: RunningReference): Record<string, string> {
  const { authHeader, authScheme } = reference.style;
  return { [authHeader]: authScheme ? `${authScheme} ${reference.token}` : reference.token, 'content-type': 'application/json' };
}

/** The bystander as the list shows it, in canonical JSON; undefined when it is not listed. */
export async function bystanderNow(reference: RunningReference): Promise<string | undefined> {
  const answer = await fetch(`${reference.url}/admin/api/2026-07/zones.json`, { headers: headers(reference) });
  const body = parseJson(await answer.text()) as Record<string, unknown> | unknown[];
  const list = (reference.style.envelope === 'wrapped' ? (body as { zones: unknown[] }).zones : body) as Record<string, unknown>[];
  const found = list.find((zone) => zone.name === NAME);
  return found === undefined ? undefined : canonicalJson(found);
}

export async function plantBystander(reference: RunningReference): Promise<string> {
  const fields = { name: NAME, coverage: { countries: ['NL', 'BE'] } };
  const body = reference.style.envelope === 'wrapped' ? { zone: fields } : fields;
  const created = await fetch(`${reference.url}/admin/api/2026-07/zones.json`, { method: 'POST', headers: headers(reference), body: JSON.stringify(body) });
  if (!created.ok) throw new Error(`could not plant the bystander zone (${created.status})`);
  let snapshot = await bystanderNow(reference);
  if (snapshot === undefined) {
    // The create-unlisted mutant shows a zone only after its first update: give it one.
    const text = await created.text();
    const id = new RegExp(`"${reference.style.idField}":\\s*"?([^",}]+)`).exec(text)?.[1];
    const again = { ...fields, status: 'draft' };
    await fetch(`${reference.url}/admin/api/2026-07/zones/${id}.json`, {
      method: 'PUT',
      headers: headers(reference),
      body: JSON.stringify(reference.style.envelope === 'wrapped' ? { zone: again } : again),
    });
    snapshot = await bystanderNow(reference);
  }
  if (snapshot === undefined) throw new Error('the planted bystander zone is not listed');
  return snapshot;
}
