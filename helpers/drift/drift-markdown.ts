// drift.md: the differences first, grouped by operation, one table row each; then every rule's verdict
// on both targets; then each difference in full, with both exchanges and their curl replays.
import type { Difference } from './differences.ts';
import type { DriftReport } from './drift-report.ts';

const OPERATIONS = ['list', 'create', 'update', 'delete', 'any'] as const;

/**
 * A table cell or list item: one line, with the pipe that would end the cell escaped, and angle
 * brackets as entities, since a renderer would take `<zone>` for a tag and show nothing.
 */
export function cell(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Differences in the order the tables show them: by operation, then as found. */
export function byOperation(differences: readonly Difference[]): { operation: string; differences: Difference[] }[] {
  return OPERATIONS.map((operation) => ({
    operation,
    differences: differences.filter((difference) => difference.operation === operation),
  })).filter((group) => group.differences.length > 0);
}

export function aspectText(difference: Difference): string {
  return difference.subject === undefined ? difference.aspect : `${difference.aspect}: ${difference.subject}`;
}

export function verdictLine(report: DriftReport): string {
  if (report.verdict === 'could-not-run') return `COULD NOT RUN: ${report.reason}`;
  if (report.verdict === 'same')
    return `SAME: the mock answered as the service did at every one of ${report.compared.steps} steps of ${report.compared.tests} tests`;
  return `DRIFTED: ${report.differences.length} difference(s) between the service and the mock`;
}

export function renderDriftMarkdown(report: DriftReport): string {
  const lines = [
    `# Drift: ${report.verdict.toUpperCase()}`,
    '',
    verdictLine(report),
    '',
    '| | service | mock |',
    '|---|---|---|',
    `| Target | ${cell(report.targets.service.baseUrl)} | ${cell(report.targets.mock.baseUrl)} |`,
    `| Conformance verdict | ${report.targets.service.verdict} | ${report.targets.mock.verdict} |`,
    `| Its reports | ${cell(report.targets.service.reportsDir)} | ${cell(report.targets.mock.reportsDir)} |`,
    '',
    `${report.specification}. Model-based seed ${report.seed} on both. Exit code ${report.exitCode}. Run ${report.startedAt} to ${report.finishedAt}.`,
    '',
  ];
  if (report.differences.length > 0) {
    lines.push('## Differences by operation', '');
    for (const group of byOperation(report.differences)) {
      lines.push(
        `### ${group.operation}`,
        '',
        '| # | aspect | service | mock | steps | first case |',
        '|---|---|---|---|---|---|',
      );
      for (const difference of group.differences) {
        const n = report.differences.indexOf(difference) + 1;
        lines.push(
          `| [${n}](#difference-${n}) | ${cell(aspectText(difference))} | ${cell(difference.service)} | ${cell(difference.mock)} | ${difference.count} | ${cell(difference.case)} |`,
        );
      }
      lines.push('');
    }
  }
  if (report.rules.length > 0) {
    lines.push('## Rule verdicts side by side', '', '| rule | level | service | mock | |', '|---|---|---|---|---|');
    for (const rule of report.rules)
      lines.push(
        `| ${rule.id} | ${rule.level.toUpperCase()} | ${rule.service} | ${rule.mock} | ${rule.service === rule.mock ? '' : 'differs'} |`,
      );
    lines.push('');
  }
  lines.push(...leftBehindLines(report));
  for (const [index, difference] of report.differences.entries())
    lines.push(...differenceDetail(difference, index + 1));
  return `${lines.join('\n')}\n`;
}

/** Each side's zones its run could not delete, with the command that sweeps them from the drift shell. */
export function leftBehindBySide(report: DriftReport) {
  return (['service', 'mock'] as const)
    .map((side) => ({ side, zones: report.leftBehind[side] }))
    .filter((group) => group.zones.length > 0);
}

function leftBehindLines(report: DriftReport): string[] {
  const groups = leftBehindBySide(report);
  if (groups.length === 0) return [];
  const lines = ['## Zones left behind', ''];
  for (const { side, zones } of groups) {
    lines.push(`On the ${side}:`, '');
    for (const zone of zones) lines.push(`- ${cell(zone.id)} ${cell(zone.name ?? '')}: ${cell(zone.reason)}`);
    const commands = [...new Set(zones.flatMap((zone) => (zone.removeWith ? [zone.removeWith] : [])))];
    if (commands.length > 0) lines.push('', '```sh', ...commands, '```');
    lines.push('');
  }
  return lines;
}

function differenceDetail(difference: Difference, n: number): string[] {
  const lines = [
    `<a id="difference-${n}"></a>`,
    `## Difference ${n}: ${difference.operations.join(', ')}, ${cell(aspectText(difference))}`,
    '',
    `- service: ${cell(difference.service)}`,
    `- mock: ${cell(difference.mock)}`,
    `- seen at ${difference.count} step(s); first: ${cell(difference.case)}`,
  ];
  for (const verdict of difference.verdicts ?? [])
    lines.push(`- with it, ${verdict.rule} is ${verdict.service} on the service and ${verdict.mock} on the mock`);
  if (difference.cases.length > 1) {
    lines.push('', 'Cases:', '');
    for (const each of difference.cases) lines.push(`- ${cell(each)}`);
    if (difference.count > difference.cases.length)
      lines.push(`- ... and ${difference.count - difference.cases.length} more`);
  }
  for (const side of ['service', 'mock'] as const) {
    const exchange = difference.exchanges[side];
    lines.push('', `On the ${side}: ${exchange === undefined ? '(no exchange)' : `\`${exchange.line}\``}`);
    if (exchange !== undefined) lines.push('', '```sh', exchange.curl, '```');
  }
  lines.push('');
  return lines;
}
