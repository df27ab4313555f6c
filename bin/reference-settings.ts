// Bridge between the reference and the suite: the settings that point the suite at a running reference.
import type { HouseStyle } from '../reference/styles.ts';

export function settingsForStyle(style: HouseStyle, url: string, token: string): Record<string, string> {
  return {
    ZONES_BASE_URL: url,
    ZONES_ACCESS_TOKEN: token,
    ZONES_AUTH_HEADER: style.authHeader,
    ZONES_AUTH_SCHEME: style.authScheme,
    ZONES_STATUSES: style.statuses.join(','),
    ZONES_STATUS_PARAM: style.statusParam,
    ZONES_ENVELOPE: style.envelope,
    ZONES_ID_FIELD: style.idField,
    ZONES_STATUS_FILTER_VALUES: Object.entries(style.filterValues ?? {}).map(([status, value]) => `${status}=${value}`).join(','),
  };
}

/**
 * Shell commands for ZONES_BOOKING_HOOK / ZONES_BOOKING_CLEANUP_HOOK that use the reference's
 * test-only control route; the suite runs them with ZONES_BASE_URL and ZONE_ID set. curl when the
 * machine has it (a few milliseconds), else Node itself (always there, slower to start).
 */
function bookingCommand(method: 'POST' | 'DELETE'): string {
  const route = '"$ZONES_BASE_URL/__reference__/zones/$ZONE_ID/bookings"';
  const script = `fetch(process.env.ZONES_BASE_URL+'/__reference__/zones/'+encodeURIComponent(process.env.ZONE_ID)+'/bookings',{method:'${method}'}).then(r=>process.exit(r.ok?0:1),e=>{console.error(String(e));process.exit(2)})`;
  return `if command -v curl >/dev/null 2>&1; then curl -fsS -o /dev/null -X ${method} ${route}; else "${process.execPath}" -e "${script}"; fi`;
}

export function bookingHooksForReference(): { ZONES_BOOKING_HOOK: string; ZONES_BOOKING_CLEANUP_HOOK: string } {
  return { ZONES_BOOKING_HOOK: bookingCommand('POST'), ZONES_BOOKING_CLEANUP_HOOK: bookingCommand('DELETE') };
}
