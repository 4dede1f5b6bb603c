import { execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findPostgresBin, POSTGRES_MISSING } from '../../src/cli/supervision/postgres-binaries.js';
import { freePort } from './free-port.js';

// A throwaway Postgres cluster from Debian's binaries, for tests and the store benchmark when
// DATABASE_URL is not set: initdb in a temp dir, started on a free loopback port, stopped and
// removed by `stop()`. initdb refuses to run as root, so as root it runs as the `postgres` user.

export interface ThrowawayCluster {
  url: string;
  /** Stops the server and removes its folder. */
  stop(): void;
  /**
   * Stops the server the way a crash does (`pg_ctl stop -m immediate`: every backend ends at
   * once, no checkpoint), keeping its data for `restart`.
   */
  crash(): void;
  /** Starts the server again on the same data dir and port (after `crash`, it recovers first). */
  restart(): void;
}

function postgresBin(): string {
  const bin = findPostgresBin();
  if (bin === undefined) throw new Error(POSTGRES_MISSING);
  return bin;
}

export async function startThrowawayCluster(
  options: {
    /** Flush every commit to disk as a production server does (default off: tests want speed). */
    durable?: boolean;
  } = {},
): Promise<ThrowawayCluster> {
  const bin = postgresBin();
  const asRoot = process.getuid?.() === 0;
  const run = (tool: string, args: string[]) => {
    const [command, argv] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]]
      : [join(bin, tool), args];
    execFileSync(command, argv, { stdio: ['ignore', 'ignore', 'pipe'] });
  };
  const dir = mkdtempSync(join(tmpdir(), 'evalflow-postgres-'));
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const port = await freePort();
  let started = false;
  const startServer = () => {
    run('pg_ctl', [
      '-D',
      data,
      '-l',
      join(dir, 'server.log'),
      '-w',
      '-o',
      `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c max_connections=200` +
        (options.durable ? '' : ' -c fsync=off'),
      'start',
    ]);
    started = true;
  };
  const crash = () => {
    if (!started) return;
    try {
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } catch {
      // Already stopped: nothing left to end.
    }
    started = false;
  };
  const stop = () => {
    crash();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    startServer();
  } catch (error) {
    stop();
    throw error;
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop,
    crash,
    restart: () => {
      if (!started) startServer();
    },
  };
}
