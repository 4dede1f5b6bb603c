// `npm run build:ui` (run by `npm install` in a checkout through `prepare`, and by `npm run
// build`): the reviewers' page, src/ui, built by Vite into dist/ui, which the API serves at /ui/.
// Preact's JSX goes through esbuild's automatic runtime, so no plugin is needed. Every asset is
// a file of its own (nothing inlined as a data: URI), so the page's Content-Security-Policy can
// take scripts and styles from the page's own origin only. Prints each file with its gzipped size.
//
// EVALFLOW_UI_OUT_DIR builds somewhere else (the tests build a fresh copy of their own). The
// page is built beside its folder and swapped in, so an API serving it (a test's, while another
// test packs the package) never finds it half written; `npm run build` empties dist/ but for it.
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

export const UI_SOURCE = fileURLToPath(new URL('../src/ui/', import.meta.url));
export const UI_OUT = fileURLToPath(new URL('../dist/ui/', import.meta.url));

export interface BuiltFile {
  /** Relative to the output folder, with `/` (`assets/index-abc123.js`). */
  name: string;
  bytes: number;
  gzipBytes: number;
}

export interface BuiltUi {
  outDir: string;
  files: BuiltFile[];
  /** The page's JavaScript and CSS, gzipped, in KB (1,000 bytes), what a browser downloads. */
  scriptAndStyleGzipKb: number;
}

/** Builds the page into `outDir`, replacing what was there. */
export async function buildUi(outDir: string = UI_OUT): Promise<BuiltUi> {
  const target = resolve(outDir);
  const building = `${target}.building-${process.pid}`;
  await build({
    configFile: false,
    root: UI_SOURCE,
    base: '/ui/',
    logLevel: 'warn',
    // The page is a browser program: nothing of Node's (its `process.env`) may be left in it.
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
    build: {
      outDir: building,
      emptyOutDir: true,
      target: 'es2022',
      assetsInlineLimit: 0,
      // One chunk: no preload helper (an inline script) is needed.
      modulePreload: { polyfill: false },
      reportCompressedSize: false,
      sourcemap: false,
    },
  });
  const old = `${target}.old-${process.pid}`;
  if (existsSync(target)) renameSync(target, old);
  renameSync(building, target);
  rmSync(old, { recursive: true, force: true });
  return describeBuild(target);
}

/** The files of a built page and their sizes. */
export function describeBuild(outDir: string): BuiltUi {
  const files = (readdirSync(outDir, { recursive: true, encoding: 'utf8' }) as string[])
    .filter((name) => statSync(join(outDir, name)).isFile())
    .sort()
    .map((name) => {
      const content = readFileSync(join(outDir, name));
      return {
        name: name.split('\\').join('/'),
        bytes: content.length,
        gzipBytes: gzipSync(content, { level: 9 }).length,
      };
    });
  const assets = files.filter((file) => /\.(js|css)$/.test(file.name));
  const gzip = assets.reduce((sum, file) => sum + file.gzipBytes, 0);
  return { outDir, files, scriptAndStyleGzipKb: Math.round(gzip / 100) / 10 };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const built = await buildUi(process.env.EVALFLOW_UI_OUT_DIR || UI_OUT);
  for (const file of built.files) {
    console.log(
      `  ${file.name.padEnd(36)} ${(file.bytes / 1000).toFixed(1).padStart(7)} KB  gzip ${(file.gzipBytes / 1000).toFixed(1).padStart(6)} KB`,
    );
  }
  console.log(
    `evalflow: the reviewers' page built into ${relative(process.cwd(), built.outDir) || '.'} (JavaScript and CSS ${built.scriptAndStyleGzipKb} KB gzipped)`,
  );
}
