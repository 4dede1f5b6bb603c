import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltUi, describeBuild } from '../../scripts/build-ui.js';
import { FAVICON_PATH } from '../../src/api/plugins/favicon.js';

// The page as a fresh clone gets it: `npm install` runs `prepare`, which builds it (the same
// script `npm run build` ends with), and the API serves what it built. Built here by that very
// command into a folder of the test's own.

const run = promisify(execFile);
const out = mkdtempSync(join(tmpdir(), 'evalflow-ui-build-'));
let built: BuiltUi;
let html: string;

beforeAll(async () => {
  const { stdout } = await run('npm', ['run', '--silent', 'prepare'], {
    env: { ...process.env, EVALFLOW_UI_OUT_DIR: out },
  });
  expect(stdout).toContain("the reviewers' page built into");
  built = describeBuild(out);
  html = readFileSync(join(out, 'index.html'), 'utf8');
}, 120_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("the page's build", () => {
  it('is what npm install runs in a checkout, and what npm run build ends with', () => {
    const { scripts } = JSON.parse(readFileSync('package.json', 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(scripts.prepare).toBe('npm run build:ui');
    expect(scripts.build).toMatch(/ && npm run build:ui$/);
  });

  it('is one HTML file, and scripts and styles of its own under /ui/assets/, and the API’s icon', () => {
    const names = built.files.map((file) => file.name);
    expect(names).toContain('index.html');
    const assets = names.filter((name) => name !== 'index.html');
    expect(assets.length).toBeGreaterThan(0);
    for (const name of assets) expect(name).toMatch(/^assets\/[\w-]+\.(js|css)$/);
    const referenced = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    // The icon is the API's own (/favicon.ico, served to every page), not a file of the build.
    expect(referenced.sort()).toEqual(
      [...assets.map((name) => `/ui/${name}`), FAVICON_PATH].sort(),
    );
  });

  it('has no inline script or style and fetches nothing from anywhere else', () => {
    for (const tag of html.match(/<script\b[^>]*>/g) ?? []) expect(tag).toMatch(/ src="\/ui\//);
    expect(html).not.toMatch(/<style\b|\sstyle="|\son\w+="/i);
    const code = built.files
      .filter((file) => file.name.endsWith('.js') || file.name.endsWith('.css'))
      .map((file) => readFileSync(join(out, file.name), 'utf8'))
      .join('\n');
    // No address of another origin to load from (Preact's and marked's sources name none).
    expect(code).not.toMatch(/(?:import|fetch)\(\s*["'`]https?:/);
    expect(code).not.toMatch(/url\(\s*["']?(?:https?:|\/\/)/);
    expect(code).not.toMatch(/\bdata:(?:image|font|text)/);
  });

  it('keeps the page’s JavaScript and CSS within 150 KB gzipped', () => {
    expect(built.scriptAndStyleGzipKb).toBeGreaterThan(1);
    expect(built.scriptAndStyleGzipKb).toBeLessThanOrEqual(150);
  });
});
