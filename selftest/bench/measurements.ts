// What one benchmark scenario measured, and how its runs become the figures bench.json keeps and the
// table shows. Kept apart from bench.ts, which runs on import, so a self-test can reach it.

/** One timed run of a scenario. */
export interface Timed {
  seconds: number;
  /** Every request sent, 429s included. */
  requests: number;
  throttled?: number;
  targets?: number;
  verdict?: string;
  /** Whole certifications only (whole-runs.ts): what the report and the proxy said. */
  listPages?: number;
  /** Requests the proxy saw inside a Retry-After window it had announced. */
  violations?: number;
  /** The latency the scenario added to each request, and the shortest run it allows (docs/performance.md). */
  criticalPathSeconds?: number;
  /** The shortest run the shop's rate limit allows for the requests it carried out. */
  rateLimitSeconds?: number;
}

export interface Scenario {
  name: string;
  defaultRuns: number;
  once(): Promise<Timed>;
}

export interface Measurement {
  name: string;
  runs: number;
  /** Wall-clock seconds of each run, in the order they ran. */
  seconds: number[];
  medianSeconds: number;
  /** Every request sent, 429s included, the median over the runs. */
  requests: number;
  /** Requests the target carried out (429s not counted), the median over the runs. */
  carriedOut: number;
  /** 429s of each run, in the order they ran. */
  throttled?: number[];
  targets?: number;
  verdict?: string;
  listPages?: number;
  violations?: number;
  criticalPathSeconds?: number;
  /** The median wall time over the critical path: 1 is as fast as the latency allows. */
  toCriticalPath?: number;
  rateLimitSeconds?: number;
  /** The median wall time over the rate limit's floor: 1 is as fast as the shop's allowance allows. */
  toRateLimit?: number;
}

export const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
export const round = (value: number, places = 1) => Math.round(value * 10 ** places) / 10 ** places;

/** The median of a figure some runs have, or undefined when none has it. */
function medianOf(timed: readonly Timed[], pick: (t: Timed) => number | undefined): number | undefined {
  const values = timed.map(pick).filter((value) => value !== undefined);
  return values.length === 0 ? undefined : median(values);
}

/** A ratio to a floor, left out where the floor is 0 (no latency added, no rate limit): nothing to compare with. */
const ratio = (seconds: number, floor: number | undefined) =>
  floor === undefined || floor <= 0 ? undefined : round(seconds / floor, 2);

export function measure(scenario: Pick<Scenario, 'name'>, timed: readonly Timed[]): Measurement {
  const last = timed[timed.length - 1]!;
  const seconds = timed.map((t) => t.seconds);
  const medianSeconds = median(seconds);
  const criticalPathSeconds = medianOf(timed, (t) => t.criticalPathSeconds);
  const rateLimitSeconds = medianOf(timed, (t) => t.rateLimitSeconds);
  return {
    name: scenario.name,
    runs: timed.length,
    seconds,
    medianSeconds,
    requests: median(timed.map((t) => t.requests)),
    // A 429 is a request the target did not carry out.
    carriedOut: median(timed.map((t) => t.requests - (t.throttled ?? 0))),
    throttled: last.throttled === undefined ? undefined : timed.map((t) => t.throttled ?? 0),
    targets: last.targets,
    verdict: last.verdict,
    listPages: medianOf(timed, (t) => t.listPages),
    violations: medianOf(timed, (t) => t.violations),
    criticalPathSeconds,
    toCriticalPath: ratio(medianSeconds, criticalPathSeconds),
    rateLimitSeconds,
    toRateLimit: ratio(medianSeconds, rateLimitSeconds),
  };
}

const shown = (value: number | undefined, places = 1) => (value === undefined ? '-' : String(round(value, places)));

/** One row per scenario: the figures issue 13 asks for, '-' where a scenario has none. */
export function table(measurements: readonly Measurement[]): string[] {
  const header = [
    'scenario',
    'runs',
    'median s',
    'requests',
    'pages',
    '429s',
    'crit. path s',
    'x crit.',
    'limit floor s',
    'x limit',
  ];
  const rows = measurements.map((m) => [
    m.name,
    String(m.runs),
    shown(m.medianSeconds),
    String(m.requests),
    shown(m.listPages, 0),
    m.throttled === undefined ? '-' : String(median(m.throttled)),
    shown(m.criticalPathSeconds),
    shown(m.toCriticalPath, 2),
    shown(m.rateLimitSeconds),
    shown(m.toRateLimit, 2),
  ]);
  const widths = header.map((cell, i) => Math.max(cell.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  return [line(header), ...rows.map(line)];
}

/** What the table leaves out: the spread of repeated runs, targets, violations and the verdict. */
export function notes(m: Measurement): string | undefined {
  const parts = [
    m.runs > 1 ? `each run ${m.seconds.map((s) => round(s)).join(', ')} s` : undefined,
    m.targets !== undefined ? `${m.targets} targets` : undefined,
    m.throttled !== undefined && m.runs > 1 ? `429s each run ${m.throttled.join(', ')}` : undefined,
    m.violations !== undefined ? `${m.violations} request(s) inside a Retry-After window` : undefined,
    m.verdict,
  ].filter(Boolean);
  return parts.length === 0 ? undefined : `${m.name}: ${parts.join('; ')}`;
}
