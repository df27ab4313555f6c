// The one bridge between the suite and the reference: with no ZONES_BASE_URL, the suite certifies
// the embedded reference. The reference's house style becomes the suite's settings, and its
// test-only booking route becomes the booking hooks, so DELETE-02 runs through the real hook path.
import type { TargetConfig } from '../helpers/config.ts';
import { startReference, type RunningReference } from '../reference/server.ts';

export interface EmbeddedTarget {
  config: TargetConfig;
  reference: RunningReference;
}

// curl when the machine has it (a few milliseconds), else Node itself (always there, but slower to start).
function bookingCommand(method: 'POST' | 'DELETE'): string {
  const route = '"$ZONES_BASE_URL/__reference__/zones/$ZONE_ID/bookings"';
  const script = `fetch(process.env.ZONES_BASE_URL+'/__reference__/zones/'+encodeURIComponent(process.env.ZONE_ID)+'/bookings',{method:'${method}'}).then(r=>process.exit(r.ok?0:1),e=>{console.error(String(e));process.exit(2)})`;
  return `if command -v curl >/dev/null 2>&1; then curl -fsS -o /dev/null -X ${method} ${route}; else "${process.execPath}" -e "${script}"; fi`;
}

export const referenceBookingHook = bookingCommand('POST');
export const referenceBookingCleanupHook = bookingCommand('DELETE');

/** The suite's view of a running reference: its style as settings, its booking route as hooks. */
export function configForReference(base: TargetConfig, reference: RunningReference): TargetConfig {
  const { style } = reference;
  return {
    ...base,
    baseUrl: reference.url,
    token: reference.token,
    authHeader: style.authHeader,
    authScheme: style.authScheme,
    statuses: [...style.statuses],
    statusParam: style.statusParam,
    envelope: style.envelope,
    idField: style.idField,
    bookingHook: referenceBookingHook,
    bookingCleanupHook: referenceBookingCleanupHook,
  };
}

export async function startEmbeddedTarget(base: TargetConfig, options: { style?: string; fault?: string } = {}): Promise<EmbeddedTarget> {
  const reference = await startReference({ host: '127.0.0.1', port: 0, style: options.style, fault: options.fault });
  return { reference, config: { ...configForReference(base, reference), embedded: true } };
}
