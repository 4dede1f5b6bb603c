import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The core is pure so workflow code can import it: zod and its own files only. The store builds
// on the core and never reaches past it into other modules.

const importsOf = (folder: string) =>
  readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .flatMap((file) =>
      [...readFileSync(join(folder, file), 'utf8').matchAll(/from '([^']+)'/g)].map((m) => ({
        file,
        from: m[1] ?? '',
      })),
    );

describe('layering', () => {
  it('keeps src/core free of everything but zod and itself', () => {
    const outside = importsOf('src/core').filter(
      ({ from }) => from !== 'zod' && !from.startsWith('./'),
    );
    expect(outside).toEqual([]);
  });

  it('keeps Date.now and random numbers out of src/core', () => {
    // Reading the clock is impure; turning a given instant into a date (`new Date(ms)`) is not.
    const impure = readdirSync('src/core').filter((file) =>
      /Date\.now|new Date\(\)|Math\.random|crypto/.test(
        readFileSync(join('src/core', file), 'utf8'),
      ),
    );
    expect(impure).toEqual([]);
  });

  it('lets src/store import the core and its drivers, nothing else of evalflow', () => {
    const allowed = /^(\.\.?\/|\.\.\/\.\.\/core\/|\.\.\/core\/|node:|better-sqlite3$|pg$|uuid$)/;
    const outside = importsOf('src/store').filter(
      ({ from }) =>
        !allowed.test(from) || (from.startsWith('.') && /scores|workflows|worker|cli/.test(from)),
    );
    expect(outside).toEqual([]);
  });
});
