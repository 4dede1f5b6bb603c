import { readFileSync, renameSync, writeFileSync } from 'node:fs';

// A small state file kept whole (the dev server's pid record, a cached workflow bundle): written
// aside and renamed over, so a crash never leaves half of one; read as null when there is none.

/** The file's text, or null when it cannot be read (most often: it is not there). */
export function readWholeFile(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** Writes `text` to a file beside `file`, then renames it over `file`. */
export function writeWholeFile(file: string, text: string): void {
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, text);
  renameSync(partial, file);
}
