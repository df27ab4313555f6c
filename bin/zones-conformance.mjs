#!/usr/bin/env node
// The installed command, `zones-conformance [command] [options]`, and what the npm scripts run; settings, .env,
// profiles and reports are the current directory's. A current `npm run build` in dist/ starts about 1.4 s of CPU
// sooner; else tsx runs the TypeScript, registered in this process, so a Ctrl-C needs no second node to relay it.
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildIsCurrent, builtModuleOf } from './build-freshness.mjs';

const COMMANDS = {
  conformance: 'certify a shop, or the embedded reference when ZONES_BASE_URL is not set (the default)',
  sweep: 'delete zones that earlier runs left behind',
  reference: 'start the embedded reference implementation',
  mock: "serve a mock of the shop: the reference in a shop profile's house style (--profile FILE)",
  report: 'build the HTML report of the last run',
  drift: 'run the same scenarios against the service and its mock (ZONES_MOCK_BASE_URL) and show where they differ',
  ci: "a nightly job's whole work: certify against last night (--history DIR), report, summary, outputs",
};

// A reader that goes away (`zones-conformance --help | head -1`) must not turn the next write into an EPIPE
// stack trace: listening before anything is printed covers every command, and a run goes on to its clean-up.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code !== 'EPIPE') throw error;
  });
}

// This file is never compiled: it stays in bin/, so the project's folder is always its parent.
const root = fileURLToPath(new URL('..', import.meta.url));
const built = buildIsCurrent(root);
if (!built) {
  const { register } = await import('tsx/esm/api');
  // The package's own compiler settings, whatever tsconfig.json the caller's directory holds.
  register({ tsconfig: join(root, 'tsconfig.json') });
}
/** A module by its path from the project's folder without `.ts`, in the form that runs. */
function moduleOf(path) {
  const typeScript = join(root, `${path}.ts`);
  return pathToFileURL(built ? builtModuleOf(root, typeScript) : typeScript);
}
const { EXIT } = await import(moduleOf('helpers/exit-codes').href);

const [first, ...rest] = process.argv.slice(2);
const named = first !== undefined && Object.hasOwn(COMMANDS, first);
if (first !== undefined && !named && !first.startsWith('-')) {
  console.error(
    `zones-conformance: cannot run: no command "${first}"; the commands are ${Object.keys(COMMANDS).join(', ')}`,
  );
  process.exit(EXIT.cannotRun);
}
const command = named ? first : 'conformance';
const args = named ? rest : process.argv.slice(2);

if (!named && (args.includes('--help') || args.includes('-h'))) {
  console.log('Usage: zones-conformance [command] [options]   (command --help for its own)\n\nCommands:');
  for (const [name, what] of Object.entries(COMMANDS)) console.log(`  ${name.padEnd(12)} ${what}`);
  console.log('\nWith no command, conformance:\n');
}

const entry = moduleOf(`bin/${command}`);
// Each entry point reads its options from process.argv, as it does under npm run.
process.argv = [process.argv[0], fileURLToPath(entry), ...args];
await import(entry.href);
