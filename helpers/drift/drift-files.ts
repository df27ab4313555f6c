// drift.json, drift.md and drift.html, each masked for both tokens. The md and the page say the same: the differences
// by operation, one table row each; every rule's verdict on both targets; each difference in full, with both exchanges
// and their curl replays. The page is the certificate page's template (report/certificate-page.ts): every text goes
// in through its html template, which escapes it, under the same style and Content-Security-Policy, so whatever the
// shops answered stays text.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'lossless-json';
import type { Secrets } from '../evidence/secrets.ts';
import { parseJson } from '../json.ts';
import { type ShownVerdict, STATES } from '../judging/states.ts';
import { pageShell } from '../report/certificate-page.ts';
import { type Html, html } from '../report/html.ts';
import { fenced } from '../report/markdown-code.ts';
import type { Difference, ShownExchange } from './differences.ts';
import type { DriftReport } from './drift-report.ts';
import { mockSection } from './mock-setting.ts';
import { OPERATIONS } from './steps.ts';
import { SIDES, type Side } from './targets.ts';

const DRIFT_FILES = ['drift.json', 'drift.md', 'drift.html'] as const;

const MOCK_HEADING = "## The mock's profile, to answer as the service does";
const MOCK_WORDS =
  'When the mock is npm run mock: this "mock" section in its profile (docs/mock.md) sets away every difference above that it can.';

/** A "mock" section as it is pasted into a profile. */
const profileSnippet = (section: Record<string, unknown>) => `"mock": ${JSON.stringify(section)}`;

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
  const section = mockSection(report.differences);
  if (section) lines.push(MOCK_HEADING, '', MOCK_WORDS, '', ...fenced(profileSnippet(section), 'json'), '');
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
    if (difference.mock_setting)
      lines.push(`- set away in npm run mock's profile with \`${profileSnippet(difference.mock_setting)}\``);
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

/** How a drift verdict looks, in the certificate page's colours: same as a pass, drifted as a failure. */
const VERDICT_LOOK: Record<DriftReport['verdict'], ShownVerdict> = {
  same: 'conformant',
  drifted: 'non-conformant',
  'could-not-run': 'could-not-run',
};

/** A rule's state on one side, in the certificate's colours and words; a run that did not judge it says so. */
function stateChip(status: string): Html {
  const state = (status in STATES ? status : 'not-selected') as keyof typeof STATES;
  const words = status in STATES ? STATES[state].words : status;
  return html`<span class="state s-${state}">${words}</span>`;
}

/** Every rule, the service's state then the mock's, in the certificate page's grid: two columns on a laptop, one on a phone. */
function ruleGrid(report: DriftReport): Html {
  const rows = report.rules.map(
    (rule) => html`<div class="rule" data-rule="${rule.id}" title="${rule.title}">
<span class="id">${rule.id}</span><span class="level">${rule.level.toUpperCase()}</span>${stateChip(rule.service)}<span class="nights">${stateChip(rule.mock)}</span>${
      rule.service === rule.mock ? html`<span class="mark"></span>` : html`<span class="mark changed">≠ differs</span>`
    }
</div>`,
  );
  return html`<h2>Rule verdicts side by side</h2>
<p class="key">Each rule: its state on the service, then on the mock; ≠ where they differ.</p>
<div class="grid" id="grid">${rows}</div>`;
}

function differencesTables(report: DriftReport): Html {
  return html`<h2>Differences by operation</h2>${byOperation(report).map(
    ({ operation, differences }) => html`<h3>${operation}</h3>
<table><tr><th>#</th><th>aspect</th><th>service</th><th>mock</th><th>steps</th><th>first case</th></tr>${differences.map(
      ({ n, difference }) =>
        html`<tr><td><a href="#difference-${n}">${n}</a></td><td>${aspectText(difference)}</td><td>${difference.service}</td><td>${difference.mock}</td><td>${difference.count}</td><td>${difference.case}</td></tr>`,
    )}</table>`,
  )}`;
}

function leftBehindBox(report: DriftReport): Html {
  return html`${leftBehindBySide(report).map(
    ({ side, zones, commands }) => html`<section class="leftovers"><h2>Zones left behind on the ${side}</h2>
${commands.length > 0 && html`<pre>${commands.join('\n')}</pre>`}
<ul>${zones.map((zone) => html`<li>${zone.id} ${zone.name ?? ''}: ${zone.reason}</li>`)}</ul></section>`,
  )}`;
}

/** One difference in full: what each side showed, the verdicts it carries, both exchanges side by side. */
function differenceSection(difference: Difference, n: number): Html {
  return html`<section class="detail" id="difference-${n}">
<h2>Difference ${n}: ${difference.operations.join(', ')}, ${aspectText(difference)}</h2>
<p>service: ${difference.service}<br>mock: ${difference.mock}<br>seen at ${difference.count} step(s); first: ${difference.case}</p>
${(difference.verdicts ?? []).map(
  (verdict) =>
    html`<p>With it, ${verdict.rule} is ${verdict.service} on the service and ${verdict.mock} on the mock.</p>`,
)}
${difference.mock_setting && html`<p>Set away in npm run mock's profile with <code>${profileSnippet(difference.mock_setting)}</code></p>`}
<div class="sides">${SIDES.map((side) => exchangeBox(side, difference))}</div>
</section>`;
}

/** drift.html: the certificate page's template, style and policy; the verdict, every rule's two states, then the differences. */
export function renderDriftPage(report: DriftReport): string {
  const { service, mock } = report.targets;
  const facts: [string, string][] = [
    ['Service', `${service.baseUrl} (${service.verdict})`],
    ['Mock', `${mock.baseUrl} (${mock.verdict})`],
    ['Reports', `${service.reportsDir || '-'} and ${mock.reportsDir || '-'}`],
    ['Seed', `${report.seed} on both`],
    ['Exit code', String(report.exitCode)],
  ];
  const section = mockSection(report.differences);
  const body = html`<header class="verdict v-${VERDICT_LOOK[report.verdict]}" id="verdict">
<h1>DRIFT: ${report.verdict.toUpperCase()}</h1>
<p>${verdictLine(report)}</p>
</header>
<p class="facts">${facts.map(([label, value]) => html`<span><b>${label}</b> ${value}</span>`)}</p>
<p class="history">${report.specification}. Run ${report.startedAt} to ${report.finishedAt}.</p>
${leftBehindBox(report)}
${report.rules.length > 0 && ruleGrid(report)}
${report.differences.length > 0 && differencesTables(report)}
${section && html`<h2>${MOCK_HEADING.slice(3)}</h2><p>${MOCK_WORDS}</p><pre>${profileSnippet(section)}</pre>`}
${report.differences.map((difference, index) => differenceSection(difference, index + 1))}`;
  return pageShell(`Drift: ${report.verdict}`, body, Math.ceil(report.rules.length / 2));
}

/** One side's exchange on the page, beside the other's: what went and came, the differing lines marked, and its replay. */
function exchangeBox(side: Side, difference: Difference): Html {
  const exchange = difference.exchanges[side];
  if (exchange === undefined) return html`<div class="test"><h4>On the ${side}</h4><p>(no exchange)</p></div>`;
  const lines = exchangeLines(exchange, difference, side)?.map(
    (line, index) => html`${index > 0 && '\n'}${line.marked ? html`<mark>${line.text}</mark>` : line.text}`,
  );
  return html`<div class="test"><h4>On the ${side}</h4><pre>${lines ?? exchange.line}</pre><pre>${exchange.curl}</pre></div>`;
}
