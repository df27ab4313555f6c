// The booking fixture for DELETE-02. What a booking is, the specification does not show, so the
// operator says how to get one: an existing booked zone, or a hook command that books a zone.
import { spawn } from 'node:child_process';
import type { ZoneId } from '../client/records.ts';
import { PreconditionError } from '../client/records.ts';
import type { TargetConfig } from '../config.ts';
import { withoutProxyVariables } from '../connection/proxy.ts';
import { Secrets } from '../evidence/secrets.ts';

const HOOK_TIME_LIMIT_MS = 60_000;

/** Why a booked zone stays: the teardown has no way to remove its booking history. */
export const BOOKED_WITHOUT_HOOK = 'has booking history and ZONES_BOOKING_CLEANUP_HOOK is not set';

/**
 * Why a zone ZONES_BOOKING_HOOK booked could be deleted: the rule fails either way, since the suite cannot
 * tell a misconfiguration from a broken shop, but the hook exiting 0 without booking is the likelier.
 */
export function bookedDeleteCause(shopRefusedBookedZone: boolean): string {
  const why = shopRefusedBookedZone
    ? 'the shop refused to delete ZONES_BOOKED_ZONE_ID, so it does keep zones with booking history'
    : 'exit 0 is all the suite sees of a booking, and a hook exits 0 whenever its last command does (curl without --fail, for one, after a refused request); a ZONES_BOOKED_ZONE_ID that the shop refuses to delete would tell the two apart';
  return `ZONES_BOOKING_HOOK may have exited 0 without booking the zone, likelier than a shop that deletes booked zones: ${why}`;
}

export function runBookingHook(config: TargetConfig, command: string, id: ZoneId, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    // A hook reaches the shop the way the suite does, proxy variables included; the embedded
    // reference's own hooks talk to 127.0.0.1, which no proxy elsewhere can reach.
    const inherited = config.embedded ? withoutProxyVariables(process.env) : process.env;
    const child = spawn('sh', ['-c', command], {
      env: { ...inherited, ZONES_BASE_URL: config.baseUrl, ZONES_ACCESS_TOKEN: config.token, ZONE_ID: id.text },
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: HOOK_TIME_LIMIT_MS,
      // A process group of its own: a Ctrl-C meant for the suite must not kill a clean-up hook mid-way.
      detached: true,
    });
    let stderr = '';
    const secrets = new Secrets(config);
    child.stderr.on('data', (chunk: Buffer) => {
      // Masked before it is cut, so a cut cannot leave half a token behind.
      stderr = secrets.mask(stderr + chunk.toString()).slice(-2000);
    });
    child.on('error', (error) => reject(new PreconditionError(`${what} could not start: ${error.message}`)));
    child.on('close', (code, signal) => {
      if (code === 0) return resolve();
      const said = secrets.mask(stderr).trim();
      reject(
        new PreconditionError(
          `${what} for zone ${id.text} ended with ${signal ?? `exit code ${code}`}${said ? `: ${said}` : ''}`,
        ),
      );
    });
  });
}
