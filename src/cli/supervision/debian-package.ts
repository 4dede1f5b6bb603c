import { execFileSync } from 'node:child_process';

// What `npm run setup` installs from Debian when a test needs it: the browser tests' Chromium and
// the tests' Postgres.

/**
 * What `find` finds; when it finds nothing and this process is root, Debian's `debianPackage` is
 * installed quietly with apt-get first. `installed` says whether apt-get ran to the end.
 */
export function findOrInstall(
  find: () => string | undefined,
  debianPackage: string,
  env: NodeJS.ProcessEnv,
): { found: string | undefined; installed: boolean } {
  const found = find();
  if (found !== undefined || process.getuid?.() !== 0) return { found, installed: false };
  let installed = false;
  try {
    const quiet = {
      stdio: 'ignore' as const,
      env: { ...env, DEBIAN_FRONTEND: 'noninteractive' },
    };
    execFileSync('apt-get', ['update', '-qq'], quiet);
    execFileSync('apt-get', ['install', '-y', '-qq', debianPackage], quiet);
    installed = true;
  } catch {
    // No apt-get, or no package: the caller reports what is still missing.
  }
  return { found: find(), installed };
}
