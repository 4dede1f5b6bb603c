import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { findOrInstall } from './debian-package.js';

// The tests' Postgres: DATABASE_URL, else a throwaway cluster from Debian's `postgresql` package,
// which `npm run setup` installs when it is missing and apt-get can (as root).

const ROOT = '/usr/lib/postgresql';

export const POSTGRES_MISSING =
  "evalflow setup: no Postgres for the tests: install Debian's postgresql package or set DATABASE_URL";

/** The newest installed server's bin folder (`/usr/lib/postgresql/{version}/bin`), if any. */
export function findPostgresBin(): string | undefined {
  const versions = existsSync(ROOT)
    ? readdirSync(ROOT)
        .filter((version) => existsSync(join(ROOT, version, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  return versions[0] === undefined ? undefined : join(ROOT, versions[0], 'bin');
}

/** Says where the tests' Postgres comes from, installing Debian's package when it has to. */
export function ensurePostgres(env: NodeJS.ProcessEnv = process.env): string {
  if (env.DATABASE_URL) return 'postgres: DATABASE_URL';
  const { found: bin, installed } = findOrInstall(findPostgresBin, 'postgresql', env);
  if (bin === undefined) throw new Error(POSTGRES_MISSING);
  return `postgres: ${bin} (${installed ? "installed from Debian's postgresql" : "Debian's postgresql"}; a throwaway cluster per test run)`;
}
