// `import { startMock } from 'zones-conformance/mock'`: the mock of `npm run mock`, started inside a team's own test
// process (vitest, jest), with the settings that point the suite at it. The same reference, the same bridge.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReference } from '../reference/server.ts';
import { mockSettings, styleFromProfile } from './reference-settings.ts';

export interface MockOptions {
  /** A shop profile: its path, or its content (written to a file of its own, which the suite then reads too). */
  profile?: string | Record<string, unknown>;
  /** The credential to require: a random one when unset. */
  token?: string;
  port?: number;
  /** 127.0.0.1 when unset. */
  host?: string;
  /** Keep the zones and their bookings in this JSON file across restarts (docs/mock.md). */
  dataFile?: string;
}

export interface RunningMock {
  url: string;
  token: string;
  /** The ZONES_* settings that point the suite at the mock, its booking hooks included. */
  settings: Record<string, string>;
  close(): Promise<void>;
}

/** Starts the mock; a profile the suite would refuse is refused with the suite's message. */
export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const { profile, ...rest } = options;
  const path = typeof profile === 'object' ? writtenProfile(profile) : profile;
  const reference = await startReference({ ...rest, ...(path === undefined ? {} : { style: styleFromProfile(path) }) });
  const { url, token, close } = reference;
  return { url, token, settings: mockSettings(reference, path), close };
}

function writtenProfile(profile: Record<string, unknown>): string {
  const path = join(mkdtempSync(join(tmpdir(), 'zones-mock-')), 'shop-profile.json');
  writeFileSync(path, JSON.stringify(profile, null, 2));
  return path;
}
