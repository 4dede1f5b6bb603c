import { readFileSync, writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import {
  CLIENT_TABLE_FILE,
  clientRouteTable,
  ROUTE_LIST_END,
  ROUTE_LIST_START,
  routeList,
} from '../../scripts/route-table/index.js';

// The HTTP client's table of methods and paths and docs/api.md's list of routes are written from
// the route table (src/api/routes/table.ts). `npm run docs:routes` (EVALFLOW_WRITE_DOCS=1) writes
// them; otherwise this checks they are current.

const writing = process.env.EVALFLOW_WRITE_DOCS === '1';

it("writes the client's table of methods and paths from the route table", () => {
  const current = readFileSync(CLIENT_TABLE_FILE, 'utf8');
  const written = clientRouteTable();
  if (writing && current !== written) {
    writeFileSync(CLIENT_TABLE_FILE, written);
    return;
  }
  expect(current, 'run npm run docs:routes').toBe(written);
});

it("writes docs/api.md's list of routes from the route table", () => {
  const file = 'docs/api.md';
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf(ROUTE_LIST_START);
  const end = text.indexOf(ROUTE_LIST_END);
  expect(start, `${file} marks its route list`).toBeGreaterThanOrEqual(0);
  expect(end).toBeGreaterThan(start);
  const current = text.slice(start, end + ROUTE_LIST_END.length);
  const written = `${ROUTE_LIST_START}\n${routeList()}${ROUTE_LIST_END}`;
  if (writing && current !== written) {
    writeFileSync(file, text.replace(current, written));
    return;
  }
  expect(current, 'run npm run docs:routes').toBe(written);
});
