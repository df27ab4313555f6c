// The certificate page's one style block, and a policy that allows no script, no request and no style but
// this block (by its hash): a tag that slipped past the escaping (html.ts) could neither run nor fetch.
import { createHash } from 'node:crypto';
import { STATES, VERDICTS } from '../judging/states.ts';

/**
 * `gridRows`: the rules fill the grid column by column, MUST first. A strip's cells shrink from 10 px to 4,
 * then the oldest nights go: tonight always shows. On a phone, one column, and the page never scrolls sideways.
 */
export function pageStyle(gridRows: number): string {
  const states = Object.entries(STATES)
    .map(([state, { colour }]) => `.s-${state}{--c:${colour}}`)
    .join('\n');
  const verdicts = Object.entries(VERDICTS)
    .map(([verdict, { colour }]) => `.v-${verdict}{--v:${colour}}`)
    .join('\n');
  return `
*{box-sizing:border-box}
body{margin:0;font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:#1d232b;background:#f6f7f9}
main{max-width:1440px;margin:0 auto;padding:12px 20px 40px}
${states}
${verdicts}
.verdict{display:flex;align-items:baseline;gap:18px;flex-wrap:wrap;background:var(--v);color:#fff;padding:10px 18px;border-radius:6px}
.verdict h1{margin:0;font-size:30px;letter-spacing:.04em}
.verdict p{margin:0;font-size:15px}
.facts{display:flex;flex-wrap:wrap;gap:4px 22px;margin:8px 2px;font-size:13px}
.facts b{font-weight:600;color:#4a5360}
.history{margin:4px 2px 8px;font-size:13px;color:#3d4550}
.alert{margin:6px 0;padding:6px 12px;border-left:4px solid #c62828;background:#fff}
.grid{display:grid;grid-template-columns:repeat(2,minmax(0,1fr));grid-template-rows:repeat(${gridRows},auto);grid-auto-flow:column;gap:2px 24px;background:#fff;padding:8px 12px;border-radius:6px;border:1px solid #dde1e6}
.rule{display:grid;grid-template-columns:100px 58px 104px minmax(0,1fr) 84px;align-items:center;gap:6px;height:24px;border-bottom:1px solid #eef0f3}
.rule .id{font-weight:600;color:#1d232b;text-decoration:none;white-space:nowrap}
.rule .level{font-size:12px;color:#4a5360}
.rule .state{justify-self:start;padding:0 8px;border-radius:10px;background:var(--c);color:#fff;font-size:12px;line-height:18px;white-space:nowrap}
.nights{display:flex;justify-content:flex-end;gap:2px;overflow:hidden}
.night{display:inline-block;flex:0 1 10px;min-width:4px;height:16px;overflow:hidden;border-radius:2px;background:var(--c);color:#fff;font-size:9px;line-height:16px;text-align:center}
.changed{font-size:12px;font-weight:700;color:#c62828;white-space:nowrap}
.key{margin:4px 2px;font-size:12px;color:#4a5360}
.key .night{width:10px;margin-right:3px;vertical-align:middle}
.leftovers{margin:10px 0;padding:8px 14px;background:#fff4e5;border:1px solid #f0b35b;border-radius:6px}
.leftovers h2{margin:0 0 4px;font-size:16px}
.leftovers ul{margin:2px 0 6px;padding-left:20px}
section.detail{margin-top:26px}
h2{font-size:20px;margin:22px 0 8px}
h3{font-size:16px;margin:18px 0 4px;padding-left:8px;border-left:6px solid var(--c)}
.test{background:#fff;border:1px solid #dde1e6;border-radius:6px;padding:6px 12px;margin:6px 0}
.test h4{margin:2px 0 4px;font-size:14px}
pre{margin:4px 0;padding:6px 8px;background:#f1f3f6;border-radius:4px;white-space:pre-wrap;overflow-wrap:anywhere;font:12px/1.35 ui-monospace,"DejaVu Sans Mono",Menlo,Consolas,monospace}
code{font:12px ui-monospace,"DejaVu Sans Mono",Menlo,Consolas,monospace;background:#f1f3f6;padding:0 3px;border-radius:3px;overflow-wrap:anywhere}
details{margin:4px 0}
summary{cursor:pointer}
table{border-collapse:collapse;background:#fff;font-size:13px}
th,td{border:1px solid #dde1e6;padding:3px 8px;text-align:left;vertical-align:top}
td.state{color:var(--c);font-weight:600;white-space:nowrap}
footer{margin-top:30px;font-size:13px;color:#4a5360}
blockquote.spec{margin:6px 0;padding:4px 12px;border-left:4px solid #8a94a3;background:#fff}
blockquote.spec p{margin:2px 0;font-style:italic}
blockquote.spec footer{margin:0;font-size:12px}
.sides{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,22em),1fr));gap:0 16px}
mark{background:#ffd866}
@media (max-width:760px){
main{padding:8px 8px 30px}
.grid{grid-template-columns:minmax(0,1fr);grid-template-rows:none;grid-auto-flow:row;padding:6px 8px}
.rule{grid-template-columns:auto auto minmax(0,1fr) auto;grid-template-areas:"id level state mark" "nights nights nights nights";height:auto;padding:3px 0;row-gap:2px}
.rule .id{grid-area:id}
.rule .level{grid-area:level}
.rule .state{grid-area:state}
.rule .nights{grid-area:nights}
.rule .mark{grid-area:mark}
table{display:block;max-width:100%;overflow-x:auto}
}
`;
}

/** The policy for a page whose only style is `style`: see the file's comment. */
export function contentSecurityPolicy(style: string): string {
  const hash = createHash('sha256').update(style, 'utf8').digest('base64');
  return `default-src 'none'; style-src 'sha256-${hash}'; img-src data:; base-uri 'none'; form-action 'none'`;
}
