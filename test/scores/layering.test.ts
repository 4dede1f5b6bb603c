import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../src/scores/', import.meta.url));

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/** The adapter folders: each may do I/O and load its SDK. The others are the pure mapping. */
const ADAPTERS = ['langfuse/', 'otel/', 'file/'];
function isAdapter(path: string): boolean {
  return ADAPTERS.some((folder) => path.startsWith(folder));
}

function imports(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  return [...source.matchAll(/^\s*(?:import|export)[^'"]*from\s+'([^']+)'/gm)].map(
    (m) => m[1] as string,
  );
}

describe('the scores module', () => {
  it('is pure: outside its adapter folders it imports only zod, uuid and itself', () => {
    const outside: string[] = [];
    for (const file of files(root)) {
      const path = relative(root, file);
      if (isAdapter(path)) continue;
      for (const specifier of imports(file)) {
        const local = specifier.startsWith('.') && !isAdapter(specifier.replace(/^(\.\.?\/)+/, ''));
        if (!(specifier === 'zod' || specifier === 'uuid' || local)) {
          outside.push(`${path} imports ${specifier}`);
        }
      }
    }
    expect(outside).toEqual([]);
  });

  it('keeps each adapter to its own SDK, and adapters apart', () => {
    const crossed: string[] = [];
    for (const file of files(root)) {
      const path = relative(root, file);
      for (const specifier of imports(file)) {
        if (
          path.startsWith('langfuse/') &&
          (specifier.startsWith('@opentelemetry') || specifier.includes('otel/'))
        ) {
          crossed.push(`${path} imports ${specifier}`);
        }
        if (
          path.startsWith('otel/') &&
          (specifier.startsWith('@langfuse') || specifier.includes('langfuse/'))
        ) {
          crossed.push(`${path} imports ${specifier}`);
        }
      }
    }
    expect(crossed).toEqual([]);
  });
});
