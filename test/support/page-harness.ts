import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { buildUi } from '../../scripts/build-ui.js';
import type { AppDefinition } from '../../src/config/index.js';
import { type ApiHarness, startApi } from './api.js';
import { launchChromium } from './browser.js';
import { devServerEnvironment } from './temporal.js';

// What every browser test of the page stands on: the page built into a folder of its own, the
// API (and engine, on the dev server) serving it, and Debian's Chromium. `close` stops them all.

export interface PageHarness {
  h: ApiHarness;
  browser: Browser;
  close(): Promise<void>;
}

export async function startPageHarness(
  app: AppDefinition,
  options: Omit<Parameters<typeof startApi>[2], 'uiRoot'> = {},
): Promise<PageHarness> {
  const uiRoot = mkdtempSync(join(tmpdir(), 'evalflow-ui-'));
  const [env] = await Promise.all([devServerEnvironment(), buildUi(uiRoot)]);
  let h: ApiHarness | undefined;
  let browser: Browser | undefined;
  const close = async () => {
    await browser?.close();
    await h?.close();
    await env.teardown();
    rmSync(uiRoot, { recursive: true, force: true });
  };
  try {
    h = await startApi(env, app, { ...options, uiRoot });
    browser = await launchChromium();
    return { h, browser, close };
  } catch (error) {
    await close();
    throw error;
  }
}
