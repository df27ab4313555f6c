// summary.md, the certificate as a CI job summary: the verdict, every rule with its last nights, what
// changed, what failed, the zones left behind. GitHub drops a step summary past 1024 KiB and GitLab cuts a
// log at 4 MiB, so the answer and the zones are always whole and the detail between them is cut by blocks.
import { SHOWN_STATES, STATES } from '../judging/states.ts';
import type { ConformanceJson, ConformanceReport } from './certificate.ts';
import {
  alertLines,
  countsSentence,
  exitCodeText,
  markdownParts,
  markdownStatus,
  renderComparison,
  renderMarkdown,
  targetText,
} from './conformance-report.ts';
import { isSelected, nightOf, nightsShown, stripStates, type TargetHistory } from './history.ts';
import { leftoverMarkdown } from './leftovers.ts';

type Nights = ReturnType<typeof nightsShown>;

/** Half of GitHub's limit: room for what else a job writes to its summary, and far below GitLab's. */
export const SUMMARY_MAX_BYTES = 512 * 1024;
/** As many nights as a table cell shows without wrapping. */
export const SUMMARY_NIGHTS = 10;

const bytesOf = (lines: readonly string[]) => lines.reduce((sum, line) => sum + Buffer.byteLength(line, 'utf8') + 1, 0);

function verdictLines(report: ConformanceReport): string[] {
  const left = report.leftBehind.length;
  const apiVersion = report.target.settings.apiVersion;
  return [
    `# Conformance certificate: ${report.verdict.toUpperCase()}`,
    '',
    `**${report.verdict}** (exit code ${exitCodeText(report)}): ${countsSentence(report)}.${left > 0 ? ` **${left} zone(s) left behind**: see the end.` : ''}`,
    '',
    `${targetText(report)}, API version ${String(apiVersion)}, run ${report.runId} of ${report.startedAt}. The certificate page: conformance.html in the reports artifact.`,
    '',
    ...alertLines(report),
  ];
}

function ruleGrid(report: ConformanceReport, { strip }: Nights, path: string | undefined): string[] {
  // One night is tonight alone: the status column already says it.
  const withNights = strip.length > 1;
  const row = (rule: ConformanceReport['rules'][number]) => {
    const glyphs = stripStates(strip, rule.id, isSelected(report, rule.id)).map((state) => STATES[state].glyph);
    const cells = [rule.id, rule.level.toUpperCase(), markdownStatus(report, rule), glyphs.join('')];
    return `| ${cells.slice(0, withNights ? 4 : 3).join(' | ')} |`;
  };
  const keyed = SHOWN_STATES.map((state) => `${STATES[state].glyph} ${STATES[state].words}`);
  if (report.selection) keyed.push(`${STATES['not-selected'].glyph} ${STATES['not-selected'].words} tonight`);
  const key = keyed.join(', ');
  return [
    '## Rules',
    '',
    withNights ? '| Rule | Level | Status | Last nights |' : '| Rule | Level | Status |',
    withNights ? '|---|---|---|---|' : '|---|---|---|',
    ...report.rules.map(row),
    '',
    ...(withNights ? [`Last nights, oldest first, tonight last: ${key}. From ${path}.`, ''] : []),
  ];
}

function changeLines(report: ConformanceReport, history: TargetHistory | undefined, nights: Nights): string[] {
  if (report.comparison) return renderComparison(report, report.comparison);
  if (history === undefined) return [];
  const { path, problem } = history;
  const section = (...lines: string[]) => ['## Since the last night', '', ...lines, ''];
  if (problem?.during === 'reading')
    return section(`The nights history ${path} could not be read: ${problem.message}.`);
  // Not written tonight, the file still gave the earlier nights: the comparison below holds.
  const unwritten =
    problem?.during === 'writing'
      ? [`The nights history ${path} could not be written, so tonight is not kept: ${problem.message}.`, '']
      : [];
  const { before: previous, changed } = nights;
  if (previous === undefined)
    return section(...unwritten, `First night: ${path} holds no earlier night of this target to compare with.`);
  const levelOf = (id: string) => report.rules.find((rule) => rule.id === id)?.level.toUpperCase() ?? '';
  const changes = changed.map(
    ({ id, before, now }) =>
      `- ${id} (${levelOf(id)}): ${before === 'absent' ? 'new rule' : STATES[before].words} → ${STATES[now].words}`,
  );
  return section(
    ...unwritten,
    `Compared with the night of ${previous.startedAt} (run ${previous.runId}, ${previous.verdict}), from ${path}:`,
    '',
    ...(changes.length === 0 ? ['No rule changed.'] : changes),
  );
}

/** The job summary of a run that could not start is its whole certificate: a reason, a few lines. */
export function renderJobSummary(report: ConformanceJson, history?: TargetHistory): string {
  if (report.verdict === 'could-not-run') return renderMarkdown(report);
  const { detail } = markdownParts(report);
  const nights = nightsShown(history, nightOf(report), (id) => isSelected(report, id), SUMMARY_NIGHTS);
  const head = [
    ...verdictLines(report),
    ...ruleGrid(report, nights, history?.path),
    ...changeLines(report, history, nights),
  ];
  const tail = leftoverMarkdown(report.leftBehind);
  const cutNote = (left: number) => [
    '',
    `*The job summary stops here, at ${SUMMARY_MAX_BYTES / 1024} KiB: ${left} more section(s) of detail are in conformance.md, in the reports artifact.*`,
    '',
  ];
  // Room for the note is kept from the start.
  const budget = SUMMARY_MAX_BYTES - bytesOf(cutNote(detail.length)) - bytesOf(tail);
  let used = bytesOf(head);
  // What is used only grows: the blocks that fit are the first ones.
  const fit = detail.filter((block) => {
    used += bytesOf(block);
    return used <= budget;
  });
  const cut = fit.length < detail.length ? cutNote(detail.length - fit.length) : [];
  return `${[...head, ...fit.flat(), ...cut, ...tail].join('\n')}\n`;
}
