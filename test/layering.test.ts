import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// The arrows of docs/architecture.md: which evalflow folders each folder may import.
const allowed: Record<string, string[]> = {
  core: [],
  agreement: [],
  scores: [],
  store: ['core'],
  evaluators: ['core'],
  config: ['core', 'scores', 'evaluators'],
  activities: ['core', 'scores', 'store', 'evaluators'],
  workflows: ['core', 'evaluators', 'activities'],
  // The HTTP client takes the API's route schemas as types only (below): its requests and answers
  // are the API's own, and it loads nothing of the server. The API uses the Temporal-side clients.
  client: ['core', 'store', 'evaluators', 'workflows', 'activities', 'api'],
  worker: ['core', 'scores', 'store', 'evaluators', 'config', 'activities', 'workflows'],
  api: ['core', 'scores', 'store', 'evaluators', 'config', 'client'],
  testing: ['core', 'scores', 'store', 'evaluators'],
  cli: [
    'core',
    'scores',
    'store',
    'evaluators',
    'config',
    'activities',
    'workflows',
    'client',
    'worker',
    'api',
    'testing',
  ],
};

const imports = readdirSync('src', { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts') && file.includes('/'))
  .flatMap((file) => {
    const text = readFileSync(join('src', file), 'utf8');
    return [...text.matchAll(/^import (type )?[^;]*? from '(\.[^']+)';/gms)].map((m) => ({
      file,
      folder: file.split('/')[0] as string,
      typeOnly: m[1] !== undefined,
      target: relative('src', join('src', dirname(file), m[2] ?? '')).split('/')[0] as string,
    }));
  });

describe('layering', () => {
  it('knows every folder under src', () => {
    expect(imports.length).toBeGreaterThan(100);
    const folders = new Set(imports.map((i) => i.folder));
    for (const folder of folders) expect(Object.keys(allowed)).toContain(folder);
  });

  it('points every import one way, as the architecture says', () => {
    const wrong = imports
      .filter(({ folder, target }) => target !== folder && !allowed[folder]?.includes(target))
      .map(({ file, target }) => `${file} imports ${target}`);
    expect(wrong).toEqual([]);
  });

  it('lets workflow code take only types from activities and evaluators', () => {
    const values = imports
      .filter(
        (i) =>
          i.folder === 'workflows' &&
          ['activities', 'evaluators'].includes(i.target) &&
          !i.typeOnly,
      )
      .map(({ file, target }) => `${file} imports values from ${target}`);
    expect(values).toEqual([]);
  });

  it('lets the client take only types from the api, and only in the HTTP client', () => {
    const fromApi = imports.filter((i) => i.folder === 'client' && i.target === 'api');
    expect(fromApi.length).toBeGreaterThan(0);
    const wrong = fromApi
      .filter((i) => !i.typeOnly || !i.file.startsWith('client/http/'))
      .map(({ file }) => `${file} imports values from api, or is not the HTTP client`);
    expect(wrong).toEqual([]);
  });
});
