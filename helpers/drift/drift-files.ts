// drift.json, drift.md and drift.html, each masked for both tokens. The md and the page say the same: the differences
// by operation, one table row each; every rule's verdict on both targets; each difference in full, with both exchanges
// and their curl replays. The page is self-contained: every text is escaped and the Content-Security-Policy forbids
// scripts, so whatever the shops answered stays text.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'lossless-json';
import type { Secrets } from '../evidence/secrets.ts';
import { parseJson } from '../json.ts';
import { escapeHtml as e } from '../report/html.ts';
import { fenced } from '../report/markdown-code.ts';
import type { Difference, ShownExchange } from './differences.ts';
import type { DriftReport } from './drift-report.ts';
import { OPERATIONS } from './steps.ts';
import { SIDES, type Side } from './targets.ts';

const DRIFT_FILES = ['drift.json', 'drift.md', 'drift.html'] as const;

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:2em;max-width:80em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left;vertical-align:top}
.same{color:#14632b}.drifted{color:#9b1c1c}.could-not-run{color:#8a5a00}.differs{background:#fff3f3}
pre{background:#f5f5f5;padding:.6em;overflow-x:auto;white-space:pre-wrap;word-break:break-all}
.sides{display:grid;grid-template-columns:repeat(auto-fit,minmax(18em,1fr));gap:0 1.5em}mark{background:#ffd866}`;

/** A drift run that stops before its reports must not leave the last run's to be read as its own. */
export function removePreviousDriftReports(reportsDir: string): void {
  for (const name of DRIFT_FILES) rmSync(join(reportsDir, name), { force: true });
}

export function writeDriftReports(report: DriftReport, reportsDir: string, secrets: Secrets): string[] {
  mkdirSync(reportsDir, { recursive: true });
  const masked = secrets.maskAll(report);
  const texts = [`${JSON.stringify(masked, null, 2)}\n`, renderDriftMarkdown(masked), renderDriftPage(masked)];
  const paths = DRIFT_FILES.map((name) => join(reportsDir, name));
  for (const [index, text] of texts.entries()) writeFileSync(paths[index]!, text);
  return paths;
}

export function verdictLine(report: DriftReport): string {
  if (report.verdict === 'could-not-run') return `COULD NOT RUN: ${report.reason}`;
  if (report.verdict === 'same')
    return `SAME: the mock answered as the service did at every one of ${report.compared.steps} steps of ${report.compared.tests} tests`;
  return `DRIFTED: ${report.differences.length} difference(s) between the service and the mock`;
}

/** A cell or list item of drift.md: one line, its pipes escaped, angle brackets as entities (`<zone>` would read as a tag). */
function cell(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Differences in the order the tables show them, by operation then as found, each with its number. */
function byOperation(report: DriftReport) {
  const numbered = report.differences.map((difference, index) => ({ n: index + 1, difference }));
  return [...OPERATIONS, 'any']
    .map((operation) => ({
      operation,
      differences: numbered.filter((each) => each.difference.operation === operation),
    }))
    .filter((group) => group.differences.length > 0);
}

function aspectText(difference: Difference): string {
  return difference.subject === undefined ? difference.aspect : `${difference.aspect}: ${difference.subject}`;
}

/** A body as a person reads it: JSON one member a line (numbers exact), else as it came (a body cut at 8 KiB is no JSON). */
function bodyLines(body: string | undefined): string[] {
  if (body === undefined) return [];
  try {
    return (stringify(parseJson(body), null, 2) ?? body).split('\n');
  } catch {
    return body.split('\n');
  }
}

/**
 * One side's request and answer, a line each part, each marked where it shows what differs: the request of a step asked
 * otherwise, the status, the header, or the body's lines that hold the field (the last key of the subject's path).
 * None for an exchange recorded without them.
 */
function exchangeLines({ request, answer }: ShownExchange, difference: Difference, side: Side) {
  if (request === undefined) return undefined;
  const { aspect, subject } = difference;
  const field = /([^.[\]<>]+)(\[\])?$/.exec(subject ?? '')?.[1];
  // Error bodies of other keys: a top-level key the other side's body lacks.
  const otherKeys = difference[side === 'service' ? 'mock' : 'service'];
  const inBody = (line: string) => {
    if (field !== undefined) return line.trimStart().startsWith(`"${field}":`);
    const topKey = /^ {2}("[^"]*"):/.exec(line)?.[1];
    return aspect === 'error-body' && topKey !== undefined && !otherKeys.includes(topKey);
  };
  const header = aspect === 'content-type' ? 'content-type' : aspect === 'header' ? subject : undefined;
  const bodyMarked = ['shape', 'value', 'error-body'].includes(aspect);
  return [
    { text: `${request.method} ${request.url}`, marked: aspect === 'step' },
    ...bodyLines(request.body).map((text) => ({ text, marked: false })),
    { text: '', marked: false },
    { text: answer?.status === undefined ? 'no answer' : String(answer.status), marked: aspect === 'status' },
    ...Object.entries(answer?.headers ?? {}).map(([name, value]) => ({
      text: `${name}: ${value}`,
      marked: name === header,
    })),
    ...bodyLines(answer?.body).map((text) => ({ text, marked: bodyMarked && inBody(text) })),
  ];
}

/** Each side's zones its run could not delete, with the commands that sweep them from the drift shell. */
function leftBehindBySide(report: DriftReport) {
  return SIDES.filter((side) => report.leftBehind[side].length > 0).map((side) => {
    const zones = report.leftBehind[side];
    return { side, zones, commands: [...new Set(zones.flatMap((zone) => zone.removeWith || []))] };
  });
}

export function renderDriftMarkdown(report: DriftReport): string {
  const { service, mock } = report.targets;
  const lines = [
    `# Drift: ${report.verdict.toUpperCase()}`,
    '',
    verdictLine(report),
    '',
    '| | service | mock |',
    '|---|---|---|',
    `| Target | ${cell(service.baseUrl)} | ${cell(mock.baseUrl)} |`,
    `| Conformance verdict | ${service.verdict} | ${mock.verdict} |`,
    `| Its reports | ${cell(service.reportsDir)} | ${cell(mock.reportsDir)} |`,
    '',
    `${report.specification}. Model-based seed ${report.seed} on both. Exit code ${report.exitCode}. Run ${report.startedAt} to ${report.finishedAt}.`,
    '',
  ];
  if (report.differences.length > 0) lines.push('## Differences by operation', '');
  for (const { operation, differences } of byOperation(report)) {
    lines.push(`### ${operation}`, '');
    lines.push('| # | aspect | service | mock | steps | first case |', '|---|---|---|---|---|---|');
    for (const { n, difference } of differences)
      lines.push(
        `| [${n}](#difference-${n}) | ${cell(aspectText(difference))} | ${cell(difference.service)} | ${cell(difference.mock)} | ${difference.count} | ${cell(difference.case)} |`,
      );
    lines.push('');
  }
  if (report.rules.length > 0) {
    lines.push('## Rule verdicts side by side', '', '| rule | level | service | mock | |', '|---|---|---|---|---|');
    for (const rule of report.rules)
      lines.push(
        `| ${rule.id} | ${rule.level.toUpperCase()} | ${rule.service} | ${rule.mock} | ${rule.service === rule.mock ? '' : 'differs'} |`,
      );
    lines.push('');
  }
  const left = leftBehindBySide(report);
  if (left.length > 0) lines.push('## Zones left behind', '');
  for (const { side, zones, commands } of left) {
    lines.push(`On the ${side}:`, '');
    for (const zone of zones) lines.push(`- ${cell(zone.id)} ${cell(zone.name ?? '')}: ${cell(zone.reason)}`);
    if (commands.length > 0) lines.push('', '```sh', ...commands, '```');
    lines.push('');
  }
  for (const [index, difference] of report.differences.entries()) {
    const n = index + 1;
    lines.push(
      `<a id="difference-${n}"></a>`,
      `## Difference ${n}: ${difference.operations.join(', ')}, ${cell(aspectText(difference))}`,
      '',
      `- service: ${cell(difference.service)}`,
      `- mock: ${cell(difference.mock)}`,
      `- seen at ${difference.count} step(s); first: ${cell(difference.case)}`,
    );
    for (const verdict of difference.verdicts ?? [])
      lines.push(`- with it, ${verdict.rule} is ${verdict.service} on the service and ${verdict.mock} on the mock`);
    if (difference.cases.length > 1) {
      lines.push('', 'Cases:', '', ...difference.cases.map((each) => `- ${cell(each)}`));
      if (difference.count > difference.cases.length)
        lines.push(`- ... and ${difference.count - difference.cases.length} more`);
    }
    for (const side of SIDES) {
      const exchange = difference.exchanges[side];
      lines.push('', `On the ${side}: ${exchange === undefined ? '(no exchange)' : `\`${exchange.line}\``}`);
      const shown = exchange && exchangeLines(exchange, difference, side);
      if (shown)
        lines.push('', ...fenced(shown.map((l) => (l.marked ? `${l.text}   <- differs` : l.text)).join('\n'), 'text'));
      if (exchange !== undefined) lines.push('', ...fenced(exchange.curl, 'sh'));
    }
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

export function renderDriftPage(report: DriftReport): string {
  const { service, mock } = report.targets;
  const parts = [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    `<title>Drift: ${e(report.verdict)}</title><style>${STYLE}</style></head><body>`,
    `<h1 class="${e(report.verdict)}">Drift: ${e(report.verdict.toUpperCase())}</h1>`,
    `<p>${e(verdictLine(report))}</p>`,
    '<table><tr><th></th><th>service</th><th>mock</th></tr>',
    `<tr><th>Target</th><td>${e(service.baseUrl)}</td><td>${e(mock.baseUrl)}</td></tr>`,
    `<tr><th>Conformance verdict</th><td>${e(service.verdict)}</td><td>${e(mock.verdict)}</td></tr>`,
    `<tr><th>Its reports</th><td>${e(service.reportsDir)}</td><td>${e(mock.reportsDir)}</td></tr></table>`,
    `<p>${e(report.specification)}. Model-based seed ${report.seed} on both. Exit code ${report.exitCode}.</p>`,
  ];
  if (report.differences.length > 0) parts.push('<h2>Differences by operation</h2>');
  for (const { operation, differences } of byOperation(report)) {
    parts.push(
      `<h3>${e(operation)}</h3><table><tr><th>#</th><th>aspect</th><th>service</th><th>mock</th><th>steps</th><th>first case</th></tr>`,
    );
    for (const { n, difference } of differences)
      parts.push(
        `<tr><td><a href="#difference-${n}">${n}</a></td><td>${e(aspectText(difference))}</td><td>${e(difference.service)}</td><td>${e(difference.mock)}</td><td>${difference.count}</td><td>${e(difference.case)}</td></tr>`,
      );
    parts.push('</table>');
  }
  if (report.rules.length > 0) {
    parts.push(
      '<h2>Rule verdicts side by side</h2><table><tr><th>rule</th><th>level</th><th>service</th><th>mock</th></tr>',
    );
    for (const rule of report.rules)
      parts.push(
        `<tr${rule.service === rule.mock ? '' : ' class="differs"'}><td>${e(rule.id)}</td><td>${e(rule.level.toUpperCase())}</td><td>${e(rule.service)}</td><td>${e(rule.mock)}</td></tr>`,
      );
    parts.push('</table>');
  }
  const left = leftBehindBySide(report);
  if (left.length > 0) parts.push('<h2>Zones left behind</h2>');
  for (const { side, zones, commands } of left) {
    parts.push(`<h3>On the ${side}</h3><ul>`);
    for (const zone of zones) parts.push(`<li>${e(zone.id)} ${e(zone.name ?? '')}: ${e(zone.reason)}</li>`);
    parts.push('</ul>');
    if (commands.length > 0) parts.push(`<pre>${e(commands.join('\n'))}</pre>`);
  }
  for (const [index, difference] of report.differences.entries()) {
    const n = index + 1;
    parts.push(
      `<h2 id="difference-${n}">Difference ${n}: ${e(difference.operations.join(', '))}, ${e(aspectText(difference))}</h2>`,
      `<p>service: ${e(difference.service)}<br>mock: ${e(difference.mock)}<br>seen at ${difference.count} step(s); first: ${e(difference.case)}</p>`,
    );
    for (const verdict of difference.verdicts ?? [])
      parts.push(
        `<p>With it, ${e(verdict.rule)} is ${e(verdict.service)} on the service and ${e(verdict.mock)} on the mock.</p>`,
      );
    parts.push(`<div class="sides">${SIDES.map((side) => exchangeCell(side, difference)).join('')}</div>`);
  }
  parts.push('</body></html>');
  return `${parts.join('\n')}\n`;
}

/** One side's exchange on the page, beside the other's: what went and came, the differing lines marked, and its replay. */
function exchangeCell(side: Side, difference: Difference): string {
  const exchange = difference.exchanges[side];
  if (exchange === undefined) return `<div><h4>On the ${side}</h4><p>(no exchange)</p></div>`;
  const lines = exchangeLines(exchange, difference, side)?.map((l) =>
    l.marked ? `<mark>${e(l.text)}</mark>` : e(l.text),
  );
  const shown = lines?.join('\n') ?? e(exchange.line);
  return `<div><h4>On the ${side}</h4><pre>${shown}</pre><pre>${e(exchange.curl)}</pre></div>`;
}
