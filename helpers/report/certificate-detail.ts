// The certificate page below its first screen: each rule that failed or was not verified, then the
// warnings, each with the rule's text and source in the specification, its tests' reasons and every
// exchange with its curl replay; then what conformance.md says after its rules: suite errors, notes,
// the run's facts, the settings. The same data as conformance.md, from the same report.
import { STATES, shownStateOf, testLook } from '../judging/states.ts';
import type { RuleResult } from '../judging/verdict.ts';
import type { ConformanceReport } from './certificate.ts';
import { comparisonLines, listed } from './comparison.ts';
import { checkedWith, isSelected, openRules, ruleNotes, runFacts, tokenVariable } from './conformance-report.ts';
import { type Html, html } from './html.ts';
import { requestsLine } from './request-accounting.ts';
import { PROFILE_SOURCE, quotesOf, SPEC_PATH, specSections } from './spec-sections.ts';

/** Where a rule's section below is, for the grid's links. */
export const detailAnchor = (ruleId: string) => `detail-${ruleId}`;
export const ruleAnchor = (ruleId: string) => `rule-${ruleId}`;

/** Where a rule comes from, and what the specification says there in its own words. */
function sourceLine(rule: RuleResult): Html {
  if (rule.source.startsWith(PROFILE_SOURCE))
    return html`<p>Not in the specification: the default profile's convention, ${rule.source.slice(PROFILE_SOURCE.length).trim()}.</p>`;
  const quoted = quotesOf(rule.source, specSections()).filter((quote) => quote.words.length > 0);
  return html`<p>Specification (${SPEC_PATH}), section: ${rule.source}.</p>
${quoted.map((quote) => html`<blockquote class="spec"><p>${quote.words.join(' ')}</p><footer>${quote.reference}</footer></blockquote>`)}`;
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

function list(items: readonly string[]): Html {
  return html`<ul>${items.map((item) => html`<li>${item}</li>`)}</ul>`;
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

export function renderDetail(report: ConformanceReport): Html {
  const shown = openRules(report);
  const open = shown.filter((rule) => rule.status !== 'warning');
  const warnings = shown.filter((rule) => rule.status === 'warning');
  const notes = [...report.notes, ...ruleNotes(report)];
  const chosen = checkedWith(report);
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
<table>${comparisonLines(comparison).map(({ label, rules }) => html`<tr><th>${label}</th><td>${listed(rules)}</td></tr>`)}</table>`
}
${report.suiteErrors.length > 0 && html`<h2>Suite errors</h2>${list(report.suiteErrors)}`}
${notes.length > 0 && html`<h2>Notes</h2>${list(notes)}`}
${chosen.length > 0 && html`<h2>Checked with what the settings gave</h2>${list(chosen)}`}
<h2>Every rule</h2>
${rulesTable(report)}
<h2>The run</h2>
${factsTable(report)}
<h2>Settings</h2>
<p>As the run read them; the access token is never shown.</p>
<pre>${JSON.stringify(report.target.settings, null, 2)}</pre>
</section>`;
}
