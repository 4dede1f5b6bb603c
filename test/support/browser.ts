import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { CHROMIUM_MISSING, CHROMIUM_PATH } from '../../src/cli/supervision/chromium-binary.js';

// The browser tests' browser: Debian's Chromium, driven by playwright-core through its
// executable path (playwright's own browser download is never used). Headless, sandbox off (the
// tests run as root), and nothing that reaches out to the network by itself.

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Launches Chromium, or fails saying what is missing and how to get it. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`${CHROMIUM_MISSING}, or run npm run setup as root, which installs it`);
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}
