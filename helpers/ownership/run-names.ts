// Recognising the suite's own zones from earlier runs. A name is only ever matched against the exact
// pattern the suite gives its zones (never as a substring), and its age is read from the run id in it.
/** A process's tag in a name, and the random end of a run id: four hex digits. */
const TAG = '[0-9a-f]{4}';

/** The names zoneName gives, around the pattern of their run id: the counter is the last group. */
function namesOf(runIdPattern: string): string {
  return `zc-${runIdPattern}-${TAG}-(\\d+)`;
}

/** zc-<yyyymmdd>t<hhmmss>-<4 hex>-<4 hex>-<n>: run id (its start time the first group), process tag, counter. */
const RUN_NAME = new RegExp(`^${namesOf(`(\\d{8}t\\d{6})-${TAG}`)}$`);

/** The tag of the preflight's one zone; the workers' random tags never take it. */
export const PREFLIGHT_TAG = '0000';

/** The name of the n-th zone a process of a run makes: `npm run sweep --by-prefix` parses it back. */
export function zoneName(runId: string, tag: string, n: number): string {
  return `zc-${runId}-${tag}-${n}`;
}

/** The names one run gives (not earlier runs'), wherever they stand in a text; the counter is the first group. */
export function runNamePattern(runId: string): RegExp {
  return new RegExp(namesOf(runId.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), 'g');
}

/** Whether a zone (as a list holds it) is one of this run's: its name begins as the run's names do. */
export function isRunZone(runId: string): (item: unknown) => boolean {
  const names = runNamePattern(runId);
  return (item) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return false;
    const name = (item as Record<string, unknown>).name;
    // search() starts at 0 whatever the pattern's lastIndex.
    return typeof name === 'string' && name.search(names) === 0;
  };
}

export function runStartOfName(name: unknown): Date | undefined {
  if (typeof name !== 'string') return undefined;
  const stamp = RUN_NAME.exec(name)?.[1];
  if (!stamp) return undefined;
  const iso = `${stamp.slice(0, 4)}-${stamp.slice(4, 6)}-${stamp.slice(6, 8)}T${stamp.slice(9, 11)}:${stamp.slice(11, 13)}:${stamp.slice(13, 15)}Z`;
  const time = Date.parse(iso);
  return Number.isNaN(time) ? undefined : new Date(time);
}

/** e.g. 20261122t074058-e3ad. */
export function runIdOfName(name: unknown): string | undefined {
  if (typeof name !== 'string' || !RUN_NAME.test(name)) return undefined;
  return name.split('-').slice(1, 3).join('-');
}

/** The run id a name holds as a whole word (ROBUST-06's adds words); only taken on for a name the ledger says the run sent. */
export function runIdCarriedBy(name: unknown): string | undefined {
  const words = typeof name === 'string' ? name.split(/\s+/) : [];
  return runIdOfName(words.find((word) => runIdOfName(word) !== undefined));
}
