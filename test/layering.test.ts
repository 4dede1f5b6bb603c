import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

// The arrows of docs/architecture.md: which evalflow folders each folder may import. Read top to
// bottom, each folder names only folders above it, so no arrow can point back up; the test below
// checks that the table itself has no circle, and that the code follows the table.
const allowed: Record<string, string[]> = {
  core: [],
  agreement: [],
  scores: [],
  // Prometheus's one reader: the observers (plain ports) the parts below tell, and the endpoint.
  metrics: ['core'],
  store: ['core'],
  // Tuning a judge from reviewers' verdicts: the split, the examples, a version as data. Pure.
  tuning: ['core', 'agreement'],
  // A judge running a tuned version builds its prompt with tuning's.
  evaluators: ['core', 'tuning'],
  // An agent's spans read from OTLP and translated into runs: pure.
  traces: ['core'],
  config: ['core', 'scores', 'evaluators'],
  activities: ['core', 'scores', 'store', 'evaluators', 'metrics', 'traces'],
  // Workflow code takes only types from activities and evaluators (checked below).
  workflows: ['core', 'evaluators', 'activities'],
  // A tuned version's preview measures its prompt with tuning's.
  'workflow-clients': ['core', 'store', 'evaluators', 'config', 'workflows', 'tuning'],
  relay: ['core', 'store', 'evaluators', 'workflows', 'metrics'],
  // Agreement over stored verdicts, promotions' evidence and tuning a judge from its reviewers:
  // the statistics over the store (a reviewed target's text read as the judge reads its subject).
  evidence: ['core', 'agreement', 'scores', 'store', 'evaluators', 'tuning', 'activities'],
  worker: [
    'core',
    'scores',
    'store',
    'evaluators',
    'config',
    'activities',
    'workflows',
    'workflow-clients',
    'relay',
    'metrics',
  ],
  // The shapes the API answers with and the CLI and the clients read, and the readers that build
  // them from the store: they belong to neither side.
  wire: ['core', 'scores', 'store', 'config', 'evidence'],
  api: [
    'wire',
    'core',
    'traces',
    'scores',
    'store',
    'evaluators',
    'config',
    'workflow-clients',
    'metrics',
    'evidence',
  ],
  // The HTTP SDK takes the API's route schemas and the core's words as types only (checked
  // below): its requests and answers are the API's own, and it loads nothing of the server.
  client: ['core', 'wire', 'api'],
  testing: ['core', 'scores', 'store', 'evaluators'],
  // The processes the command line hosts: the API alone, or the engine and the API in one.
  processes: ['api', 'worker'],
  // The reviewers' page talks to the API only, through the HTTP SDK (its types and values), and
  // writes money and counts as everything else does, with core files that import nothing.
  ui: ['client', 'core'],
  cli: [
    'core',
    'traces',
    'scores',
    'store',
    'evaluators',
    'config',
    'activities',
    'workflows',
    'workflow-clients',
    'relay',
    'worker',
    // It hosts the API through `processes` and reads its shapes from `wire`, never `api`.
    'processes',
    'wire',
    'client',
    'testing',
    'metrics',
    'evidence',
    'tuning',
  ],
};

/** Folders whose every import of another evalflow folder is of types alone. */
const typesOnly: Record<string, string[]> = {
  workflows: ['activities', 'evaluators'],
  client: ['core', 'wire', 'api'],
};

interface Import {
  /** The importing file, relative to src (`api/routes/reviews.ts`). */
  file: string;
  folder: string;
  /** The imported file, relative to src, as written with `.js` mapped to `.ts` (or `.tsx`). */
  imported: string;
  target: string;
  typeOnly: boolean;
}

const sources = readdirSync('src', { recursive: true, encoding: 'utf8' }).filter((file) =>
  /\.tsx?$/.test(file),
);
const known = new Set(sources);

const imports: Import[] = sources.flatMap((file) => {
  const text = readFileSync(join('src', file), 'utf8');
  return [...text.matchAll(/^(import|export) (type )?[^;]*? from '(\.[^']+)';/gms)].map((m) => {
    const written = normalize(join(dirname(file), m[3] ?? '')).replace(/\.js$/, '.ts');
    // The page's components are .tsx, imported as .js like every other file.
    const imported = known.has(`${written}x`) ? `${written}x` : written;
    return {
      file,
      folder: folderOf(file),
      imported,
      target: folderOf(imported),
      typeOnly: m[2] !== undefined,
    };
  });
});

function folderOf(file: string): string {
  return file.includes('/') ? (file.split('/')[0] as string) : '(root)';
}

/** A circle in `edges`, as the list of its nodes, or null. */
function circleIn(edges: ReadonlyMap<string, readonly string[]>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string): string[] | null => {
    if (state.get(node) === 'done') return null;
    if (state.get(node) === 'open') return [...path.slice(path.indexOf(node)), node];
    state.set(node, 'open');
    path.push(node);
    for (const next of edges.get(node) ?? []) {
      const circle = visit(next);
      if (circle) return circle;
    }
    path.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of edges.keys()) {
    const circle = visit(node);
    if (circle) return circle;
  }
  return null;
}

describe('layering', () => {
  it('knows every folder under src', () => {
    expect(imports.length).toBeGreaterThan(100);
    const folders = new Set(imports.map((i) => i.folder).filter((f) => f !== '(root)'));
    for (const folder of folders) expect(Object.keys(allowed)).toContain(folder);
  });

  it('has no circle in its own table: no folder can reach itself', () => {
    expect(circleIn(new Map(Object.entries(allowed)))).toBeNull();
  });

  it('points every import one way, as the architecture says', () => {
    const wrong = imports
      .filter(({ folder }) => folder !== '(root)')
      .filter(({ folder, target }) => target !== folder && !allowed[folder]?.includes(target))
      .map(({ file, target }) => `${file} imports ${target}`);
    expect(wrong).toEqual([]);
  });

  it('lets the workflows and the HTTP SDK take only types from the folders below them', () => {
    const values = imports
      .filter((i) => typesOnly[i.folder]?.includes(i.target) && !i.typeOnly)
      .map(({ file, target }) => `${file} imports values from ${target}`);
    expect(values).toEqual([]);
  });

  it('lets the page take from the core only files that import nothing (no zod in its bundle)', () => {
    const importing = new Set(imports.map((i) => i.file));
    const heavy = imports
      .filter((i) => i.folder === 'ui' && i.target === 'core' && !i.typeOnly)
      .filter((i) => i.imported.endsWith('index.ts') || importing.has(i.imported))
      .map(({ file, imported }) => `${file} imports ${imported}`);
    expect(heavy).toEqual([]);
  });

  it('has no circle of files: every file can be read after the files it imports', () => {
    const edges = new Map<string, string[]>();
    for (const { file, imported } of imports) {
      edges.set(file, [...(edges.get(file) ?? []), imported]);
    }
    expect(circleIn(edges)).toBeNull();
  });

  it('finds a circle when there is one (the check can fail)', () => {
    const edges = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
    ]);
    expect(circleIn(edges)).toEqual(['a', 'b', 'c', 'a']);
  });
});
