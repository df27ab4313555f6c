// The one way a zone of this run is removed (helpers/ownership/final-sweep.ts): a DELETE that did not
// succeed still counts as gone when the list, read in full, no longer shows the zone, and only then.
// A list that can't be read proves nothing, so the zone stays on the books and is reported.
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { ZonesClient } from '../helpers/client/zones-client.ts';
import { readTargetConfig } from '../helpers/config.ts';
import { deleteAndConfirmGone } from '../helpers/ownership/final-sweep.ts';
import { Ledger } from '../helpers/ownership/ledger.ts';

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

/** A shop that answers every DELETE with one status and every list read with another, showing `listed`. */
async function shop(answers: { delete: number; list: number; listed: string[] }): Promise<string> {
  const server = createServer((req, res) => {
    if (req.method === 'DELETE') return res.writeHead(answers.delete).end();
    const zones = answers.listed.map((id) => ({ id, name: `zone ${id}`, coverage: {}, status: 'draft' }));
    res.writeHead(answers.list, { 'content-type': 'application/json' }).end(JSON.stringify({ zones }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => {
    server.closeAllConnections();
    server.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function removeZone7(answers: { delete: number; list: number; listed: string[] }) {
  const config = readTargetConfig({ ZONES_BASE_URL: await shop(answers), ZONES_ACCESS_TOKEN: 'tok' });
  const ledger = new Ledger(join(mkdtempSync(join(tmpdir(), 'zc-delete-')), 'run.jsonl'));
  ledger.record({ event: 'created', id: '7', name: 'zone 7', target: config.baseUrl });
  const removal = await deleteAndConfirmGone(new ZonesClient(config, { ledger }), { text: '7' });
  return { removal, deleted: ledger.isDeleted('7') };
}

test('a DELETE that succeeds is taken at its word', async () => {
  expect(await removeZone7({ delete: 204, list: 500, listed: ['7'] })).toEqual({
    removal: { gone: true },
    deleted: true,
  });
});

test('a refused DELETE of a zone the list no longer shows: gone, and so noted in the ledger', async () => {
  expect(await removeZone7({ delete: 404, list: 200, listed: ['8'] })).toEqual({
    removal: { gone: true },
    deleted: true,
  });
});

test('a refused DELETE of a zone still listed: it stays, and the reason says so', async () => {
  expect(await removeZone7({ delete: 500, list: 200, listed: ['7', '8'] })).toEqual({
    removal: { gone: false, why: 'DELETE answered 500 and the zone is still listed' },
    deleted: false,
  });
});

test('a refused DELETE and a list that cannot be read: not taken for gone', async () => {
  expect(await removeZone7({ delete: 404, list: 500, listed: [] })).toEqual({
    removal: {
      gone: false,
      why: 'DELETE answered 404, and the list cannot be read to see whether it went',
    },
    deleted: false,
  });
});
