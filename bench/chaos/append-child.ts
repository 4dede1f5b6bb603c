// A process that appends to a store until it is killed, for the store-crash scenario: from
// command FROM on, each number n is two commands (a thread `t<n>`, a message `m<n>` in thread
// `main`), each under its own command id, so re-running a number after a crash must record
// nothing twice. It prints `ack t<n>` / `ack m<n>` once the store acknowledged a command, and
// keeps several appends in flight so a kill lands mid-transaction.
//
//   tsx bench/chaos/append-child.ts sqlite PATH FROM
//   tsx bench/chaos/append-child.ts postgres URL SCHEMA FROM
import { writeSync } from 'node:fs';
import { defineConfig } from '../../src/config/index.js';
import { openPostgresStore, openSqliteStore, type Store } from '../../src/store/index.js';

const [backend, where, ...rest] = process.argv.slice(2);
const app = defineConfig({});
const store: Store =
  backend === 'postgres'
    ? await openPostgresStore({ databaseUrl: where as string, schema: rest[0] }, app)
    : openSqliteStore(where as string, app);
let next = Number(rest.at(-1));
const ws = 'crash';
const system = { kind: 'system', name: 'crash' };

async function execute(command_id: string, command: object) {
  const outcome = await store.executeUnchecked({
    workspace_id: ws,
    actor: system,
    command,
    command_id,
  });
  if (outcome.type !== 'recorded') throw new Error(`${command_id}: ${JSON.stringify(outcome)}`);
}

await execute('main', { type: 'create_thread', thread_id: 'main' });
writeSync(1, 'ready\n');
await Promise.all(
  Array.from({ length: 4 }, async () => {
    for (;;) {
      const n = next++;
      await execute(`t${n}`, { type: 'create_thread', thread_id: `t${n}` });
      writeSync(1, `ack t${n}\n`);
      await execute(`m${n}`, {
        type: 'post_message',
        thread_id: 'main',
        message_id: `m${n}`,
        role: 'user',
        content: `message ${n}`,
      });
      writeSync(1, `ack m${n}\n`);
    }
  }),
);
