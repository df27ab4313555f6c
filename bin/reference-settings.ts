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
  };
}

/**
 * Shell commands for ZONES_BOOKING_HOOK / ZONES_BOOKING_CLEANUP_HOOK that use the reference's
 * test-only control route; the suite runs them with ZONES_BASE_URL and ZONE_ID set.
 */
export function bookingHooksForReference(): Record<string, string> {
  const route = '"$ZONES_BASE_URL/__reference__/zones/$ZONE_ID/bookings"';
  return {
    ZONES_BOOKING_HOOK: `curl -fsS -X POST ${route}`,
    ZONES_BOOKING_CLEANUP_HOOK: `curl -fsS -X DELETE ${route}`,
  };
}
