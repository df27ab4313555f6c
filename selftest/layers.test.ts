// The layers of the tree, checked from the import statements rather than described: an order of
// layers, each importing only those below it, so no two folders import each other; the suites see
// the harness, the shop and the catalogue but never the launcher; the reference sees nothing of the
// suite; code that runs in the vitest workers never loads the launcher or the report writers. A
// crossing fails here with the file and the import that crossed.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, test } from 'vitest';
import { projectRoot } from './run-node.ts';

type Layer =
  | 'suites'
  | 'reference'
  | 'bin'
  | 'selftest'
  | 'helpers'
  | 'harness'
  | 'client'
  | 'connection'
  | 'pacing'
  | 'evidence'
  | 'ownership'
  | 'judging'
  | 'runner'
  | 'report'
  | 'drift';

const HELPER_FOLDERS = [
  'harness',
  'client',
  'connection',
  'pacing',
  'evidence',
  'ownership',
  'judging',
  'runner',
  'report',
  'drift',
] as const;
/** What stays at the root of helpers/: what every layer reads (settings and shop profiles, the rule catalogue, schemas, exit codes, the project's folder). */
const ROOT_HELPERS = [
  'config.ts',
  'settings.ts',
  'shop-profile.ts',
  'rules.ts',
  'schemas.ts',
  'exit-codes.ts',
  'project-root.ts',
  'json.ts',
];

/**
 * The layers, lowest first: code may import its own layer and the layers before it, never one after.
 * The connection (proxy variables, trusted certificates, body limits) reads nothing of the suite's,
 * so the settings can check a proxy or a CA file with it; the root of helpers/ is what every layer
 * above reads; pacing and evidence are leaves of the client, which writes what it made where ownership (its sweeps and deletes, above it) finds it; the
 * harness and the suites run in the vitest workers, below everything of the launcher; judging turns
 * outcomes into verdicts, below the report that writes them and the runner that builds the
 * certificate; drift starts two runs; bin/ starts everything.
 */
const ORDER = [
  'connection',
  'helpers',
  'pacing',
  'evidence',
  'client',
  'ownership',
  'harness',
  'suites',
  'judging',
  'report',
  'runner',
  'drift',
  'bin',
] as const satisfies readonly Layer[];

/** Apart from the order: the reference is a second implementation and shares nothing with the suite, and only bin/ starts it. */
function mayImport(from: Layer): readonly Layer[] | 'anything' {
  if (from === 'selftest') return 'anything';
  if (from === 'reference') return [];
  const below = ORDER.slice(0, ORDER.indexOf(from as (typeof ORDER)[number]));
  return from === 'bin' ? [...below, 'reference'] : below;
}

/** The relative specifiers a file imports: import/export ... from, side-effect imports, dynamic imports. */
function importedPaths(source: string): string[] {
  const found = source.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]+)\1/g);
  return [...found].map((match) => match[2]!);
}

function layerOf(path: string): Layer | undefined {
  const [top, second, third] = path.split('/');
  if (top === 'helpers') {
    if (third === undefined) return 'helpers';
    return (HELPER_FOLDERS as readonly string[]).includes(second!) ? (second as Layer) : undefined;
  }
  return (['suites', 'reference', 'bin', 'selftest'] as const).find((layer) => layer === top);
}

/** A layer as the folder it is, for the messages. */
function shown(layer: Layer): string {
  if (layer === 'helpers') return 'the root of helpers/';
  return (HELPER_FOLDERS as readonly string[]).includes(layer) ? `helpers/${layer}/` : `${layer}/`;
}

function sourceFiles(): string[] {
  return ['suites', 'reference', 'bin', 'selftest', 'helpers'].flatMap((folder) =>
    readdirSync(join(projectRoot, folder), { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.ts'))
      .map((name) => `${folder}/${name.split('\\').join('/')}`),
  );
}

interface Crossing {
  file: string;
  imports: string;
  reaches: string;
}

/** Every import in the given files that leaves its layer's bounds. */
function crossings(files: Record<string, string>): { crossings: string[] } {
  const found: Crossing[] = [];
  for (const [file, source] of Object.entries(files)) {
    const from = layerOf(file);
    const allowed = from === undefined ? [] : mayImport(from);
    for (const specifier of importedPaths(source)) {
      const reaches = normalize(join(dirname(file), specifier))
        .split('\\')
        .join('/');
      const to = layerOf(reaches);
      if (allowed === 'anything' || (to !== undefined && (to === from || allowed.includes(to)))) continue;
      found.push({ file, imports: specifier, reaches });
    }
  }
  const described = found.map(({ file, imports, reaches }) => {
    const from = layerOf(file);
    const to = layerOf(reaches);
    const bounds =
      from === undefined
        ? 'it is in no layer'
        : `${shown(from)} may import only from ${[from, ...(mayImport(from) as Layer[])].map(shown).join(', ')}`;
    return `${file} imports '${imports}' (${to === undefined ? reaches : shown(to)}): ${bounds}`;
  });
  return { crossings: described };
}

/** Each set of files that reach one another through their imports, as `a <-> b <-> ...`. */
function importCircles(files: Record<string, string>): string[] {
  const imports = new Map(
    Object.entries(files).map(([file, source]) => [
      file,
      importedPaths(source).map((specifier) =>
        normalize(join(dirname(file), specifier))
          .split('\\')
          .join('/'),
      ),
    ]),
  );
  const reachable = (from: string) => {
    const seen = new Set<string>();
    const next = [...(imports.get(from) ?? [])];
    while (next.length > 0) {
      const file = next.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      next.push(...(imports.get(file) ?? []));
    }
    return seen;
  };
  const reach = new Map([...imports.keys()].map((file) => [file, reachable(file)]));
  const circles = [...reach].filter(([file, seen]) => seen.has(file));
  const described = circles.map(([file, seen]) =>
    circles
      .map(([other]) => other)
      .filter((other) => other === file || (seen.has(other) && reach.get(other)!.has(file)))
      .sort()
      .join(' <-> '),
  );
  return [...new Set(described)].sort();
}

const tree = Object.fromEntries(sourceFiles().map((file) => [file, readFileSync(join(projectRoot, file), 'utf8')]));

describe('the import scan', () => {
  test('reads every form of import the tree uses', () => {
    const source = [
      "import { a } from './one.ts';",
      "import type { B } from '../two.ts';",
      'import {\n  c,\n  d,\n} from "./three.ts";',
      "import './four.ts';",
      "export { e } from './five.ts';",
      "const six = await import('./six.ts');",
      "import { readFileSync } from 'node:fs';",
    ].join('\n');
    expect(importedPaths(source)).toEqual([
      './one.ts',
      '../two.ts',
      './three.ts',
      './four.ts',
      './five.ts',
      './six.ts',
    ]);
  });

  test('sees the whole tree, so a pass is not a scan of nothing', () => {
    for (const folder of [
      'suites',
      'reference',
      'bin',
      'selftest',
      ...HELPER_FOLDERS.map((name) => `helpers/${name}`),
    ]) {
      expect(Object.keys(tree).filter((file) => file.startsWith(`${folder}/`)).length, folder).toBeGreaterThan(0);
    }
    const suiteImports = Object.entries(tree)
      .filter(([file]) => file.startsWith('suites/'))
      .flatMap(([, source]) => importedPaths(source));
    expect(suiteImports).toContain('../helpers/harness/rule-test.ts');
  });

  test('fails a suite that imports the launcher and a reference that imports a helper', () => {
    const found = crossings({
      'suites/auth.test.ts': "import { certify } from '../helpers/runner/certify.ts';",
      'reference/server.ts': "import { parseJson } from '../helpers/json.ts';",
      'helpers/harness/rule-test.ts': "import { writeJunit } from '../report/junit.ts';",
    }).crossings;
    expect(found).toHaveLength(3);
    expect(found[0]).toContain("suites/auth.test.ts imports '../helpers/runner/certify.ts'");
    expect(found[1]).toContain("reference/server.ts imports '../helpers/json.ts'");
    expect(found[2]).toContain("helpers/harness/rule-test.ts imports '../report/junit.ts'");
  });

  test('finds files that import each other, directly or through others', () => {
    expect(
      importCircles({
        'helpers/config.ts': "import { SETTABLE_FIELDS } from './client/records.ts';",
        'helpers/client/records.ts': "import type { TargetConfig } from '../config.ts';",
        'helpers/a.ts': "import { b } from './b.ts';",
        'helpers/b.ts': "import { c } from './c.ts';",
        'helpers/c.ts': "import type { A } from './a.ts';",
        'helpers/d.ts': "import { a } from './a.ts';",
      }),
    ).toEqual(['helpers/a.ts <-> helpers/b.ts <-> helpers/c.ts', 'helpers/client/records.ts <-> helpers/config.ts']);
  });
});

describe('the layers', () => {
  test('helpers/ holds only the layer folders and the modules every layer reads', () => {
    const elsewhere = Object.keys(tree).filter((file) => file.startsWith('helpers/') && layerOf(file) === undefined);
    const atRoot = Object.keys(tree).filter(
      (file) => layerOf(file) === 'helpers' && !ROOT_HELPERS.includes(file.slice('helpers/'.length)),
    );
    expect(
      [...elsewhere, ...atRoot],
      `put it in one of ${HELPER_FOLDERS.map((folder) => `${folder}/`).join(', ')}`,
    ).toEqual([]);
  });

  test('no import crosses a layer', () => {
    expect(crossings(tree).crossings).toEqual([]);
  });

  // A type two files take from each other lives in the wrong file.
  test('no files import each other, type-only imports included', () => {
    expect(importCircles(tree)).toEqual([]);
  });
});

/** The internal switches a file names (ZC_...): an input of a run that no reader of its command sees. */
function switchesNamed(source: string): string[] {
  return [...source.matchAll(/\bZC_[A-Z0-9_]+/g)].map((match) => match[0]);
}

describe('options, not switches', () => {
  test('the scan finds a switch however it is read', () => {
    const source = "const a = process.env.ZC_ONE;\nconst b = env['ZC_TWO'];\nconst NAME = 'ZC_THREE';";
    expect(switchesNamed(source)).toEqual(['ZC_ONE', 'ZC_TWO', 'ZC_THREE']);
  });

  test('no code of the suite, the harness or the launchers reads an environment switch named ZC_*', () => {
    // What changes a run is an option of the command that starts it (e.g. drift's --record-exchanges),
    // carried to the worker by provide/inject. The launchers' .mjs files are read as well as the tree's .ts.
    const scripts = readdirSync(join(projectRoot, 'bin')).filter((name) => name.endsWith('.mjs'));
    const sources: [string, string][] = [
      ...Object.entries(tree).filter(([file]) => /^(helpers|suites|bin)\//.test(file)),
      ...scripts.map((name): [string, string] => [`bin/${name}`, readFileSync(join(projectRoot, 'bin', name), 'utf8')]),
    ];
    const named = sources.flatMap(([file, source]) => switchesNamed(source).map((name) => `${file}: ${name}`));
    expect(named, 'make it an option of the run (CertifyOptions, provided to the worker)').toEqual([]);
  });
});
