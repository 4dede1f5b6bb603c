import { existsSync } from 'node:fs';
import { findOrInstall } from './debian-package.js';

// The browser tests' Chromium: Debian's `chromium` package, driven by playwright-core through
// its executable path (a browser tool's own download cannot run everywhere the tests do).
// `npm run setup` installs it when it is missing and apt-get can (as root).

export const CHROMIUM_PATH = '/usr/bin/chromium';

export const CHROMIUM_MISSING = `evalflow setup: no Chromium for the browser tests at ${CHROMIUM_PATH}: install Debian's chromium package (apt-get install chromium)`;

/** The installed Chromium's path, if any. */
export function findChromium(): string | undefined {
  return existsSync(CHROMIUM_PATH) ? CHROMIUM_PATH : undefined;
}

/** Says where the browser tests' Chromium comes from, installing Debian's package when it has to. */
export function ensureChromium(env: NodeJS.ProcessEnv = process.env): string {
  const { found: path, installed } = findOrInstall(findChromium, 'chromium', env);
  if (path === undefined) throw new Error(CHROMIUM_MISSING);
  return `chromium: ${path} (${installed ? "installed from Debian's chromium" : "Debian's chromium"}; for the browser tests)`;
}
