import { type RouteContract, routeContracts } from '../../src/api/routes/table.js';

// What the route table (src/api/routes/table.ts) is written into: the HTTP client's table of
// methods and paths (src/client/route-table.ts, as the client loads nothing of the server at run
// time) and docs/api.md's list of routes. test/docs/route-table.test.ts checks both are current;
// `npm run docs:routes` writes them.

export const CLIENT_TABLE_FILE = 'src/client/route-table.ts';
export const ROUTE_LIST_START = '<!-- route list: written by npm run docs:routes -->';
export const ROUTE_LIST_END = '<!-- end of the route list -->';

const contracts: Record<string, RouteContract> = routeContracts;

/** The statuses besides 2xx a route answers with a body of its own (readiness's 503). */
function otherAnswers(contract: RouteContract): number[] {
  return Object.keys(contract.answers)
    .map(Number)
    .filter((status) => status < 200 || status >= 300);
}

/** src/client/route-table.ts: each route's method and path by name, checked against the types. */
export function clientRouteTable(): string {
  const rows = Object.entries(contracts).map(([name, contract]) => {
    const all = Object.keys(contract.answers).join(', ');
    const answers = otherAnswers(contract).length > 0 ? `, answers: [${all}]` : '';
    return `  ${name}: { method: '${contract.method}', path: '${contract.path}'${answers} },`;
  });
  return `import type { RouteContracts } from '../api/routes/table.js';

// Written by \`npm run docs:routes\` from the route table (src/api/routes/table.ts); do not edit.
// The client loads nothing of the server, so it reads each route's method and path from here; the
// type below makes the compiler check them against the contracts too.

type RouteTable = {
  [Name in keyof RouteContracts]: Pick<RouteContracts[Name], 'method' | 'path'> & {
    /** Statuses that are answers rather than refusals, when not only 2xx. */
    answers?: readonly number[];
  };
};

export const ROUTE_TABLE = {
${rows.join('\n')}
} as const satisfies RouteTable;
`;
}

/** `/v1/runs/:runId` → `/v1/runs/{runId}`, as the OpenAPI document writes it. */
export function documentPath(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}');
}

function callers(contract: RouteContract): string {
  if (contract.allow === 'public') return 'anyone, without a key';
  return contract.allow.map((kind) => `\`${kind}\``).join(', ');
}

/** docs/api.md's list: one line per route of the table, in its order. */
export function routeList(): string {
  const lines = Object.values(contracts).map(
    (contract) =>
      `| \`${contract.method}\` | \`${documentPath(contract.path)}\` | ${callers(contract)} | ${contract.summary} |`,
  );
  return [
    '| method | path | who may call it | what it does |',
    '|---|---|---|---|',
    ...lines,
    '',
  ].join('\n');
}
