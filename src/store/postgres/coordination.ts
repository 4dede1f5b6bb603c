import type { Backend } from '../backend.js';
import type { Coordination } from '../coordination.js';
import type { PostgresOptions } from './backend.js';
import { serverOf } from './connection-failures.js';
import { advisoryLeases } from './lease.js';
import { appendNotifications } from './notifications.js';

/**
 * Many processes on one Postgres store: leases as advisory locks (lease.ts), appends announced
 * by NOTIFY and heard by LISTEN (notifications.ts), each on a session of its own, opened when
 * first needed (a host that only writes opens neither).
 */
export function postgresCoordination(options: PostgresOptions, backend: Backend): Coordination {
  // Locks and channels are the database's, not a schema's: the store id scopes them instead.
  const config = { connectionString: options.databaseUrl };
  const leases = advisoryLeases(config, backend.storeId, serverOf(options.databaseUrl));
  const notifications = appendNotifications(config, backend.storeId, backend);
  return {
    leases,
    announce: (workspace_id) => notifications.announce(workspace_id),
    listen: (wakeups) => notifications.listen(wakeups),
    get listening() {
      return notifications.listening;
    },
    async close() {
      await Promise.all([leases.close(), notifications.close()]);
    },
  };
}
