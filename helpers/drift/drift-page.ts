// drift.html: the same as drift.md for a browser, on one self-contained page. Every text is escaped
// and the Content-Security-Policy forbids scripts, so whatever the shops answered stays text.

import { escapeHtml as e } from '../report/html.ts';
import { aspectText, byOperation, leftBehindBySide, verdictLine } from './drift-markdown.ts';
import type { DriftReport } from './drift-report.ts';

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:2em;max-width:80em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left;vertical-align:top}
.same{color:#14632b}.drifted{color:#9b1c1c}.could-not-run{color:#8a5a00}.differs{background:#fff3f3}
pre{background:#f5f5f5;padding:.6em;overflow-x:auto;white-space:pre-wrap;word-break:break-all}`;

export function renderDriftPage(report: DriftReport): string {
  const parts = [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    `<title>Drift: ${e(report.verdict)}</title><style>${STYLE}</style></head><body>`,
    `<h1 class="${e(report.verdict)}">Drift: ${e(report.verdict.toUpperCase())}</h1>`,
    `<p>${e(verdictLine(report))}</p>`,
    '<table><tr><th></th><th>service</th><th>mock</th></tr>',
    `<tr><th>Target</th><td>${e(report.targets.service.baseUrl)}</td><td>${e(report.targets.mock.baseUrl)}</td></tr>`,
    `<tr><th>Conformance verdict</th><td>${e(report.targets.service.verdict)}</td><td>${e(report.targets.mock.verdict)}</td></tr>`,
    `<tr><th>Its reports</th><td>${e(report.targets.service.reportsDir)}</td><td>${e(report.targets.mock.reportsDir)}</td></tr></table>`,
    `<p>${e(report.specification)}. Model-based seed ${report.seed} on both. Exit code ${report.exitCode}.</p>`,
  ];
  if (report.differences.length > 0) {
    parts.push('<h2>Differences by operation</h2>');
    for (const group of byOperation(report.differences)) {
      parts.push(
        `<h3>${e(group.operation)}</h3><table><tr><th>#</th><th>aspect</th><th>service</th><th>mock</th><th>steps</th><th>first case</th></tr>`,
      );
      for (const difference of group.differences) {
        const n = report.differences.indexOf(difference) + 1;
        parts.push(
          `<tr><td><a href="#difference-${n}">${n}</a></td><td>${e(aspectText(difference))}</td><td>${e(difference.service)}</td><td>${e(difference.mock)}</td><td>${difference.count}</td><td>${e(difference.case)}</td></tr>`,
        );
      }
      parts.push('</table>');
    }
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
  for (const { side, zones } of left) {
    parts.push(`<h3>On the ${side}</h3><ul>`);
    for (const zone of zones) parts.push(`<li>${e(zone.id)} ${e(zone.name ?? '')}: ${e(zone.reason)}</li>`);
    parts.push('</ul>');
    const commands = [...new Set(zones.flatMap((zone) => (zone.removeWith ? [zone.removeWith] : [])))];
    if (commands.length > 0) parts.push(`<pre>${e(commands.join('\n'))}</pre>`);
  }
  report.differences.forEach((difference, index) => {
    const n = index + 1;
    parts.push(
      `<h2 id="difference-${n}">Difference ${n}: ${e(difference.operations.join(', '))}, ${e(aspectText(difference))}</h2>`,
      `<p>service: ${e(difference.service)}<br>mock: ${e(difference.mock)}<br>seen at ${difference.count} step(s); first: ${e(difference.case)}</p>`,
    );
    for (const verdict of difference.verdicts ?? [])
      parts.push(
        `<p>With it, ${e(verdict.rule)} is ${e(verdict.service)} on the service and ${e(verdict.mock)} on the mock.</p>`,
      );
    for (const side of ['service', 'mock'] as const) {
      const exchange = difference.exchanges[side];
      parts.push(`<h4>On the ${side}</h4>`);
      parts.push(
        exchange === undefined
          ? '<p>(no exchange)</p>'
          : `<pre>${e(exchange.line)}</pre><pre>${e(exchange.curl)}</pre>`,
      );
    }
  });
  parts.push('</body></html>');
  return `${parts.join('\n')}\n`;
}
