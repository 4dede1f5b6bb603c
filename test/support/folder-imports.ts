import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Each import in a source folder's files that `allowed` does not match, as `{file} imports
 * {target}`; and how many files were read, so a test can tell an empty folder from a pure one.
 */
export function importsOutside(
  folder: string,
  allowed: RegExp,
): { files: number; outside: string[] } {
  const files = readdirSync(folder).filter((file) => file.endsWith('.ts'));
  const outside = files.flatMap((file) =>
    [
      ...readFileSync(join(folder, file), 'utf8').matchAll(
        /\bfrom\s+'([^']+)'|import\(\s*'([^']+)'/g,
      ),
    ]
      .map((match) => match[1] ?? match[2] ?? '')
      .filter((target) => !allowed.test(target))
      .map((target) => `${file} imports ${target}`),
  );
  return { files: files.length, outside };
}
