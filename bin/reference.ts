// Runs the embedded reference as a stand-alone server, so the suite (or curl) can be pointed at it; with a shop
// profile it is `npm run mock`: the reference in that shop's house style, its zones kept in a file if asked.
import { shellQuote } from '../helpers/evidence/replay.ts';
import { EXIT } from '../helpers/exit-codes.ts';
import { watchLauncher } from '../helpers/runner/launcher-watch.ts';
import { faults } from '../reference/faults.ts';
import { type ReferenceOptions, startReference } from '../reference/server.ts';
import { type HouseStyle, houseStyles, listKeyOf, zoneKeyOf } from '../reference/styles.ts';
import { leaveCannotRun, parseOptions } from './command-options.ts';
import { mockSettings, styleFromProfile } from './reference-settings.ts';

function usage(): string {
  const width = Math.max(...faults.map((fault) => fault.name.length));
  return [
    'Usage: npm run mock -- [--profile FILE] [--data FILE] [--port N] [--host H] [--token T] [--fault NAME]',
    '       npm run reference -- [--style NAME] [--port N] [--host H] [--token T] [--fault NAME]',
    '',
    'Starts the embedded reference of the Zone Management Service (API 2026-07) and prints the',
    'ZONES_* settings that point the conformance suite at it. Stop it with Ctrl-C.',
    '',
    '  --profile FILE  a shop profile: serve in its house style, with its "mock" section (docs/mock.md)',
    '  --data FILE     keep the zones and their bookings in this JSON file across restarts',
    '  --port N      port to listen on (default: a free port)',
    '  --host H      address to listen on (default: 127.0.0.1)',
    '  --token T     the access token to require (default: a random one)',
    '  --style NAME  how the shop spells the interface (default: default)',
    '  --fault NAME  run a mutant with exactly one defect, to prove the suite catches it',
    '  --help        this text',
    '',
    'Styles:',
    ...Object.values(houseStyles).map(
      (style) =>
        `  ${style.name.padEnd(14)} ${style.authHeader}${style.authScheme ? ` (${style.authScheme})` : ''}, ` +
        `statuses ${style.statuses.join('/')}, filter ?${style.statusParam}=, ${envelopeOf(style)}, ${style.idStyle} ids in "${style.idField}"${pagingOf(style)}`,
    ),
    '',
    'Faults:',
    ...faults.map((fault) => `  ${fault.name.padEnd(width)}  breaks ${fault.breaks.join(', ')}: ${fault.description}`),
  ].join('\n');
}

function envelopeOf(style: HouseStyle): string {
  return style.envelope === 'bare' ? 'bare' : `wrapped in "${zoneKeyOf(style)}" and "${listKeyOf(style)}"`;
}

function pagingOf({ paging }: HouseStyle): string {
  if (paging === undefined) return '';
  if (paging.kind === 'page') return `, ${paging.size} zones a page by ?${paging.param}=N`;
  return `, ${paging.size} zones a page, next cursor in "${paging.field}" sent back as ?${paging.param}=`;
}

function fail(message: string): never {
  return leaveCannotRun(`reference: ${message}\nRun with --help for usage.`);
}

function readOptions(): { options: ReferenceOptions; profile?: string } {
  const parsed = parseOptions({
    port: { type: 'string' },
    host: { type: 'string' },
    token: { type: 'string' },
    style: { type: 'string' },
    profile: { type: 'string' },
    data: { type: 'string' },
    fault: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (!parsed.ok) fail(parsed.problem);
  const { help, port, ...options } = parsed.values;
  if (help) {
    console.log(usage());
    process.exit(EXIT.ok);
  }
  if (port !== undefined && (!/^\d+$/.test(port) || Number(port) > 65535))
    fail(`--port must be a whole number from 0 to 65535 (got "${port}")`);
  if (options.token !== undefined && (options.token.trim() === '' || /\s/.test(options.token)))
    fail('--token must be non-empty and contain no spaces');
  if (options.style !== undefined && !Object.hasOwn(houseStyles, options.style))
    fail(`unknown style "${options.style}"; known styles: ${Object.keys(houseStyles).join(', ')}`);
  if (options.fault !== undefined && !faults.some((fault) => fault.name === options.fault))
    fail(`unknown fault "${options.fault}"; known faults: ${faults.map((f) => f.name).join(', ')}`);
  const { profile, data, ...rest } = options;
  if (profile !== undefined && options.style !== undefined) fail('--profile and --style each name a style: give one');
  // The profile read and checked as a run reads it: a bad setting is the message a run would give, exit 3.
  let style: HouseStyle | undefined;
  try {
    style = profile === undefined ? undefined : styleFromProfile(profile);
  } catch (error) {
    fail(`--profile ${profile}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const chosen = { ...rest, ...(style ? { style } : {}), ...(data === undefined ? {} : { dataFile: data }) };
  return { options: port === undefined ? chosen : { ...chosen, port: Number(port) }, profile };
}

const { options, profile } = readOptions();

// Stopping is set up before the server starts, so a launcher that dies the moment the listening line is out is
// still seen: the watch takes its line of parents now, while they are alive.
let stopping = false;
let closeServer: (() => Promise<void>) | undefined;
async function stop(why: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`\nreference: ${why}, stopping`);
  await closeServer?.();
  process.exit(EXIT.ok);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
// Killing npm (even with SIGKILL) sends the server nothing: without this it would stay up, orphaned.
watchLauncher((what) => void stop(what));

const running = await startReference(options).catch((error: Error) => fail(`could not start: ${error.message}`));
closeServer = running.close;

const settings = mockSettings(running, profile);
const authValue = running.style.authScheme ? `${running.style.authScheme} ${running.token}` : running.token;
console.log(
  [
    `Reference zone service listening on ${running.url}`,
    `  style:  ${running.style.name}${running.fault ? `   FAULT: ${running.fault.name} (breaks ${running.fault.breaks.join(', ')})` : ''}`,
    `  token:  ${running.token}`,
    `  auth:   ${running.style.authHeader}: ${authValue}`,
    '',
    'Point the suite at it with:',
    ...Object.entries(settings).map(([name, value]) => `  export ${name}=${shellQuote(value)}`),
    '',
    'TEST-ONLY: give a zone booking history (or clear it) through the control route, e.g.',
    `  curl -X POST ${running.url}/__reference__/zones/<zone_id>/bookings`,
    `  curl -X DELETE ${running.url}/__reference__/zones/<zone_id>/bookings`,
    '',
    'Ctrl-C stops it; so does killing the npm run that started it.',
  ].join('\n'),
);
