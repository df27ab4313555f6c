// reports/conformance.html, the certificate as a person looks at it the morning after, one file that opens
// offline: the verdict, the target, every rule in a grid with its last nights (wpt.fyi's tests by runs) on
// a laptop's first screen; below, what failed or warned and why, exchange by exchange, with the spec's words.
// Every text enters through html.ts, which escapes it; the page's policy would stop a script anyway.
import { SHOWN_STATES, type ShownVerdict, STATES, shownStateOf, testLook, VERDICTS } from '../judging/states.ts';
import type { RuleResult } from '../judging/verdict.ts';
import type { ConformanceJson, ConformanceReport } from './certificate.ts';
import { contentSecurityPolicy, pageStyle } from './certificate-style.ts';
import {
  checkedWith,
  countsSentence,
  exitCodeText,
  openRules,
  outageLine,
  ruleNotes,
  runFacts,
  stoppedLine,
  targetText,
  tokenVariable,
} from './conformance-report.ts';
import {
  comparisonLines,
  isSelected,
  type Night,
  nightOf,
  nightsShown,
  stripStates,
  type TargetHistory,
  whyNotKept,
} from './history.ts';
import { Html, html } from './html.ts';
import { capitalised, leftoverGroups } from './leftovers.ts';
import { requestsLine } from './request-accounting.ts';
import { PROFILE_SOURCE, quotesOf, SPEC_PATH } from './spec-sections.ts';

export const PAGE_FILE = 'conformance.html';
/** A month of nights beside each rule: as many as fit beside it on a laptop's screen. */
export const STRIP_NIGHTS = 30;
/** More named changes would push the grid off a laptop's first screen; each row has its ▲. */
const CHANGES_NAMED = 5;

const shownTime = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

/** A page of the certificate's look: drift.html is one too. */
export function pageShell(title: string, body: Html, gridRows: number): string {
  const style = pageStyle(gridRows);
  // Not escaped: the style must be byte for byte what the policy's hash names.
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${new Html(contentSecurityPolicy(style))}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<style>${new Html(style)}</style>
</head>
<body><main>
${body}
</main></body>
</html>
`.markup;
}

function verdictHeader(verdict: ShownVerdict, line: string): Html {
  return html`<header class="verdict v-${verdict}" id="verdict">
<h1>${VERDICTS[verdict].words.toUpperCase()}</h1>
<p>Conformance certificate: ${VERDICTS[verdict].meaning}. ${line}</p>
</header>`;
}

function factsLine(facts: [string, string][]): Html {
  return html`<p class="facts">${facts.map(([label, value]) => html`<span><b>${label}</b> ${value}</span>`)}</p>`;
}

function nightCell(night: Night, state: ReturnType<typeof stripStates>[number], tonight: boolean): Html {
  const when = `${shownTime(night.startedAt)}${tonight ? ' (tonight)' : ''}`;
  const words = state === 'absent' ? `${STATES.absent.words} then` : STATES[state].words;
  return html`<span class="night s-${state}" title="${when}: ${words}">${STATES[state].glyph}</span>`;
}

type GridNights = ReturnType<typeof nightsShown>;

function gridRow(report: ConformanceReport, rule: RuleResult, nights: GridNights): Html {
  const state = shownStateOf(rule);
  const selected = isSelected(report, rule.id);
  const change = nights.changed.find((each) => each.id === rule.id);
  // A rule that did not pass, and that the run checked, has a section of its own below.
  const link = rule.status !== 'passed' && selected ? detailAnchor(rule.id) : ruleAnchor(rule.id);
  const last = nights.strip.length - 1;
  return html`<div class="rule s-${state}" data-rule="${rule.id}" data-status="${rule.status}" data-changed="${change ? 'true' : 'false'}" title="${rule.title}">
<a class="id" href="#${link}">${rule.id}</a><span class="level">${rule.level.toUpperCase()}</span><span class="state">${STATES[selected ? state : 'not-selected'].words}</span>
<span class="nights">${stripStates(nights.strip, rule.id, selected).map((state, index) => nightCell(nights.strip[index]!, state, index === last))}</span>
${
  change && nights.before
    ? html`<span class="mark changed" title="${STATES[change.before].words} on ${shownTime(nights.before.startedAt)}, ${STATES[state].words} tonight">▲ changed</span>`
    : html`<span class="mark"></span>`
}
</div>`;
}

function changesSentence(nights: GridNights): string | undefined {
  if (nights.before === undefined) return undefined;
  const since = `since the night of ${shownTime(nights.before.startedAt)}`;
  if (nights.changed.length === 0) return `No rule changed ${since}.`;
  if (nights.changed.length > CHANGES_NAMED)
    return `${nights.changed.length} rules changed ${since}; each is marked ▲.`;
  const changes = nights.changed.map(
    ({ id, before, now }) => `${id} (${before === 'absent' ? 'new' : STATES[before].words} → ${STATES[now].words})`,
  );
  return `Changed ${since}: ${changes.join(', ')}.`;
}

function historyLine(report: ConformanceReport, history: TargetHistory, nights: GridNights): Html {
  if (history.problem?.during === 'reading')
    return html`<p class="history">The nights history ${history.path} could not be read (${history.problem.message}); the strips show tonight only.</p>`;
  const earlier = history.nights.length - (history.tonightKept ? 1 : 0);
  const notKept =
    history.problem?.during === 'writing'
      ? `the file could not be written (${history.problem.message})`
      : (whyNotKept(report) ?? 'it is not a run the history keeps');
  const source = history.tonightKept
    ? earlier === 0
      ? `First night of this target in ${history.path}: there is no earlier night to compare with; the strips begin tonight.`
      : `${history.nights.length} nights of this target in ${history.path}; each strip shows the last ${Math.min(history.nights.length, STRIP_NIGHTS)}, oldest first, tonight last.`
    : `${earlier === 0 ? 'No earlier night' : `${earlier} earlier night(s)`} of this target in ${history.path}; tonight is not kept there: ${notKept}.`;
  const unreadable = history.unreadable ?? 0;
  // Written anew tonight, the file no longer holds them: said once, the night they go.
  const skipped =
    unreadable === 0
      ? undefined
      : `${unreadable} unreadable line${unreadable === 1 ? '' : 's'} skipped${history.tonightKept ? ' (and dropped from the file)' : ''}.`;
  return html`<p class="history">${[source, skipped, changesSentence(nights)].filter((part) => part !== undefined).join(' ')}</p>`;
}

function glyphKey(report: ConformanceReport): Html {
  const notSelected = STATES['not-selected'];
  return html`<p class="key">Nights, oldest to newest, tonight last: ${SHOWN_STATES.map(
    (state) => html`<span class="night s-${state}">${STATES[state].glyph}</span>${STATES[state].words} `,
  )}${report.selection && html`<span class="night s-not-selected">${notSelected.glyph}</span>${notSelected.words} tonight `}— ▲ changed since the night before.</p>`;
}

/** A group of zones left behind: its way out (the sweep command) first, since after sixty zones it would be off the screen. */
function leftoverGroup(group: ReturnType<typeof leftoverGroups>[number]): Html {
  return html`<p>${capitalised(group.text)}${group.command !== undefined && html` <code>${group.command}</code>`}</p>
<ul>${group.zones.map(
    (zone) =>
      html`<li><code>${zone.id}</code>${zone.name !== undefined && html` <code>${zone.name}</code>`}: ${zone.reason}</li>`,
  )}</ul>`;
}

function leftoversBox(report: ConformanceReport): Html | undefined {
  if (report.leftBehind.length === 0) return undefined;
  return html`<section class="leftovers" id="leftovers">
<h2>Zones left behind: ${report.leftBehind.length}</h2>
<p>This run could not delete them.</p>
${leftoverGroups(report.leftBehind).map(leftoverGroup)}
</section>`;
}

/** The grid links to a rule's section below, or to its row of the table of every rule. */
const detailAnchor = (ruleId: string) => `detail-${ruleId}`;
const ruleAnchor = (ruleId: string) => `rule-${ruleId}`;

function sourceLine(rule: RuleResult): Html {
  if (rule.source.startsWith(PROFILE_SOURCE))
    return html`<p>Not in the specification: the default profile's convention, ${rule.source.slice(PROFILE_SOURCE.length).trim()}.</p>`;
  return html`<p>Specification (${SPEC_PATH}), section: ${rule.source}.</p>
${quotesOf(rule.source).map((quote) => html`<blockquote class="spec"><p>${quote.words.join(' ')}</p><footer>${quote.reference}</footer></blockquote>`)}`;
}

function testSection(rule: RuleResult, test: RuleResult['tests'][number], token: string): Html {
  const evidence = test.evidence ?? [];
  return html`<div class="test">
<h4>${test.title}: ${testLook(test.state).says.testMark(rule.level)}</h4>
${test.checkedWith && html`<p>Checked with: ${test.checkedWith.join('; ')}</p>`}
<pre>${(test.reason ?? '').trim()}</pre>
${
  evidence.length > 0 &&
  html`<p>Every exchange of the test, in order (${evidence.length}), each with a curl command that replays it; the commands read the credential from ${token}:</p>
<ol>${evidence.map(
    (record) => html`<li><code>${record.line}</code>
<details><summary>the exchange</summary><pre>${record.shown}</pre></details>
<details><summary>replay with curl</summary><pre>${record.curl}</pre></details></li>`,
  )}</ol>`
}
</div>`;
}

function ruleSection(rule: RuleResult, token: string): Html {
  const state = shownStateOf(rule);
  return html`<section class="s-${state}" id="${detailAnchor(rule.id)}">
<h3>${rule.id} ${STATES[state].words} (${rule.level.toUpperCase()})</h3>
<p><strong>${rule.title}</strong></p>
${sourceLine(rule)}
${rule.tests.filter((test) => test.state !== 'passed').map((test) => testSection(rule, test, token))}
${rule.tests.length === 0 && html`<pre>${rule.reason ?? ''}</pre>`}
</section>`;
}

function listSection(heading: string, items: readonly string[]): Html | false {
  return items.length > 0 && html`<h2>${heading}</h2><ul>${items.map((item) => html`<li>${item}</li>`)}</ul>`;
}

function factsTable(report: ConformanceReport): Html {
  const rows = runFacts(report).map(
    ([label, parts]) =>
      html`<tr><th>${label}</th><td>${parts.map((part) =>
        typeof part === 'string'
          ? part
          : 'strong' in part
            ? html`<strong>${part.strong}</strong>`
            : html`<code>${part.code}</code>`,
      )}</td></tr>`,
  );
  return html`<table>${rows}<tr><th>Requests by method</th><td>${requestsLine(report.requests)}</td></tr></table>`;
}

function rulesTable(report: ConformanceReport): Html {
  return html`<table><tr><th>Rule</th><th>Level</th><th>Status</th><th>Rule text</th><th>Source</th></tr>${report.rules.map(
    (rule) => {
      const state = shownStateOf(rule);
      return html`<tr id="${ruleAnchor(rule.id)}" class="s-${state}"><td>${rule.id}</td><td>${rule.level.toUpperCase()}</td><td class="state">${STATES[isSelected(report, rule.id) ? state : 'not-selected'].words}</td><td>${rule.title}</td><td>${rule.source}</td></tr>`;
    },
  )}</table>`;
}

function renderDetail(report: ConformanceReport): Html {
  const shown = openRules(report);
  const open = shown.filter((rule) => rule.status !== 'warning');
  const warnings = shown.filter((rule) => rule.status === 'warning');
  const { comparison } = report;
  const section = (rule: RuleResult) => ruleSection(rule, tokenVariable(report));
  return html`<section class="detail">
<h2>What failed or could not be checked</h2>
${open.length === 0 ? html`<p>Every rule this run checked was verified.</p>` : open.map(section)}
<h2>Warnings</h2>
<p>A SHOULD or MAY rule that did not hold is a warning: it never changes the verdict.</p>
${warnings.length === 0 ? html`<p>None.</p>` : warnings.map(section)}
${
  comparison &&
  html`<h2>Since the baseline</h2>
<p>Compared with ${comparison.baseline.path}: run ${comparison.baseline.runId} of ${comparison.baseline.startedAt}, verdict ${comparison.baseline.verdict}.</p>
<table>${comparisonLines(comparison).map(({ label, rules }) => html`<tr><th>${label}</th><td>${rules}</td></tr>`)}</table>`
}
${listSection('Suite errors', report.suiteErrors)}
${listSection('Notes', [...report.notes, ...ruleNotes(report)])}
${listSection('Checked with what the settings gave', checkedWith(report))}
<h2>Every rule</h2>
${rulesTable(report)}
<h2>The run</h2>
${factsTable(report)}
<h2>Settings</h2>
<p>As the run read them; the access token is never shown.</p>
<pre>${JSON.stringify(report.target.settings, null, 2)}</pre>
</section>`;
}

export function renderCertificatePage(report: ConformanceJson, suiteVersion: string, history?: TargetHistory): string {
  const suite = `zones-conformance ${suiteVersion}`;
  if (report.verdict === 'could-not-run') {
    const body = html`${verdictHeader(report.verdict, `Exit code ${report.exitCode}.`)}
${factsLine([
  ['Target', report.target.baseUrl ?? '(not known)'],
  ['Specification', report.specification],
  ['Date', shownTime(report.startedAt)],
  ['Suite', suite],
])}
<h2>Why</h2>
<pre>${report.reason}</pre>`;
    return pageShell('Conformance certificate: could-not-run', body, 1);
  }
  const nights = nightsShown(history, nightOf(report), (id) => isSelected(report, id), STRIP_NIGHTS);
  const apiVersion = report.target.settings.apiVersion;
  const body = html`${verdictHeader(report.verdict, `Exit code ${exitCodeText(report)}. ${countsSentence(report)}.`)}
${factsLine([
  ['Target', targetText(report)],
  ['API version', typeof apiVersion === 'string' ? apiVersion : '(not known)'],
  ['Date', shownTime(report.startedAt)],
  ['Suite', suite],
  ['Run', report.runId],
])}
${report.stopped && html`<p class="alert">${stoppedLine(report.stopped)}</p>`}
${report.outage && html`<p class="alert">The run could not complete: ${outageLine(report.outage)}.</p>`}
${report.selection && html`<p class="alert">A partial run (--rule ${report.selection.rule}): only ${report.selection.rules.join(', ')} were checked; the others are not verified, as not selected.</p>`}
${history && historyLine(report, history, nights)}
<div class="grid" id="grid">${report.rules.map((rule) => gridRow(report, rule, nights))}</div>
${glyphKey(report)}
${leftoversBox(report)}
${renderDetail(report)}
<footer><p>Drill-down, test by test: <a href="allure-report/index.html">the Allure report</a> (allure-report/index.html beside this page, built by <code>npm run report</code>). The same certificate as text: conformance.md; for machines: conformance.json.</p></footer>`;
  return pageShell(
    `Conformance certificate: ${report.verdict} (${report.target.baseUrl})`,
    body,
    Math.ceil(report.rules.length / 2),
  );
}
