import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { builtinApp } from './builtin-app.js';
import { type AppDefinition, defineConfig, isAppDefinition } from './define-config.js';
import { type Config, DEFAULTS } from './environment.js';
import { ConfigFileError } from './errors.js';

/** What `loadApp` says it loaded when there is no config file. */
export const BUILT_IN = 'the built-in evaluators';

/**
 * The app the processes run: the file given (`--config`, else EVALFLOW_CONFIG), else
 * `./evalflow.config.ts` when present, else the built-in evaluators. A file that fails to load
 * or to define a valid app is a `ConfigFileError` naming the file and the problem in one line.
 */
export async function loadApp(
  config: Config,
  options: { file?: string | undefined; cwd?: string } = {},
): Promise<{ app: AppDefinition; source: string; path: string | null }> {
  const cwd = options.cwd ?? process.cwd();
  const named = options.file ?? config.configFile ?? undefined;
  const file = named ?? DEFAULTS.configFile;
  const path = resolve(cwd, file);
  if (!existsSync(path)) {
    if (named !== undefined) throw new ConfigFileError(file, 'no such file');
    return { app: builtinApp(config.judge), source: BUILT_IN, path: null };
  }
  return { app: await loadConfigFile(path, file), source: file, path };
}

/** Loads a TypeScript or JavaScript config file; its default export is the app. */
export async function loadConfigFile(path: string, shownAs = path): Promise<AppDefinition> {
  let loaded: { default?: unknown };
  try {
    loaded = (await importWithTypeScript(path)) as { default?: unknown };
  } catch (error) {
    throw new ConfigFileError(shownAs, transformProblem(error, path) ?? firstLine(error), {
      cause: error,
    });
  }
  const exported = defaultExport(loaded);
  if (exported === undefined) {
    throw new ConfigFileError(shownAs, 'has no default export: export default defineConfig({...})');
  }
  if (isAppDefinition(exported)) return exported;
  try {
    return defineConfig(exported as Parameters<typeof defineConfig>[0]);
  } catch (error) {
    throw new ConfigFileError(shownAs, firstLine(error), { cause: error });
  }
}

/** tsx's main entry, which registers its hooks when imported; it declares no types to check. */
const TSX: string = 'tsx';

/**
 * Imports a config file, TypeScript or not, on any Node. tsx's hooks are registered for the
 * process (importing `tsx` again is free where they already are, as `npm start` runs), and the
 * file is imported as itself, so `evalflow` and whatever else it imports that the process has
 * loaded is not loaded a second time (tsx's `tsImport` namespaces every module under it, which
 * doubled the start of a worker). The file's modification time in its URL reads it anew when
 * it changed since the process last loaded it.
 */
async function importWithTypeScript(path: string): Promise<unknown> {
  await import(TSX);
  const url = pathToFileURL(path);
  url.searchParams.set('mtime', String(Math.trunc(statSync(path).mtimeMs)));
  return import(url.href);
}

/**
 * The module's default export. A TypeScript file outside an ESM package loads as CommonJS,
 * whose `default` is its `exports`, marked `__esModule`, with the real default inside.
 */
function defaultExport(loaded: { default?: unknown }): unknown {
  const outer = loaded.default as { __esModule?: unknown; default?: unknown } | undefined;
  if (outer !== null && typeof outer === 'object' && outer.__esModule === true)
    return outer.default;
  return outer;
}

/**
 * esbuild's error (tsx's transform) as one line: where and what. Its message puts the count on
 * the first line ("Transform failed with 1 error:") and each error on one of its own,
 * `file:line:column: ERROR: text`, with a 0-based column; editors count columns from 1.
 */
function transformProblem(error: unknown, path: string): string | undefined {
  if (!(error instanceof Error) || !error.message.startsWith('Transform failed')) return undefined;
  const errors = error.message
    .split('\n')
    .slice(1)
    .flatMap((line) => {
      const found = /^(.*):(\d+):(\d+): ERROR: (.*)$/.exec(line);
      return found ? [found.slice(1) as [string, string, string, string]] : [];
    });
  const [first] = errors;
  if (first === undefined) return undefined;
  const [file, line, column, text] = first;
  const where = `line ${line}, column ${Number(column) + 1}`;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  // The file as imported carries its modification time as a query (importWithTypeScript).
  const named = file.split('?')[0];
  return `${named === path ? where : `${named} ${where}`}: ${text}${more}`;
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
}
