// A mock's rate limit, to rehearse a shop's: a bucket of `burst` requests refilled at `perSecond`.
// A request that finds it empty is answered 429 with the whole seconds until one request is back.

export interface Bucket {
  /** Takes one request's room: undefined when there was some, else the seconds to wait (Retry-After). */
  take(): number | undefined;
}

export function createBucket(limit: { burst: number; perSecond: number }, clock: () => number = Date.now): Bucket {
  let room = limit.burst;
  let at = clock();
  return {
    take() {
      const now = clock();
      room = Math.min(limit.burst, room + ((now - at) / 1000) * limit.perSecond);
      at = now;
      if (room >= 1) {
        room -= 1;
        return undefined;
      }
      return Math.max(1, Math.ceil((1 - room) / limit.perSecond));
    },
  };
}
