// How a style spells every answer where the specification shows nothing: the key of its error bodies.
// Applied once, to the finished reply, so that no operation has to know: a mock that writes
// {"error": ...} does so for every refusal alike, its 401s, 404s and 422s.
import type { Reply } from './respond.ts';
import type { HouseStyle } from './styles.ts';

const PROFILE_ERROR_KEY = 'errors';

export function inHouseSpelling(style: HouseStyle, outcome: Reply): Reply {
  const key = style.errorKey ?? PROFILE_ERROR_KEY;
  const body = outcome.body;
  if (key === PROFILE_ERROR_KEY || outcome.status < 400) return outcome;
  if (body === null || typeof body !== 'object' || Array.isArray(body) || !Object.hasOwn(body, PROFILE_ERROR_KEY))
    return outcome;
  const renamed = Object.fromEntries(
    Object.entries(body).map(([name, value]) => [name === PROFILE_ERROR_KEY ? key : name, value]),
  );
  return { ...outcome, body: renamed };
}
