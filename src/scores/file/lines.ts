import { readFile } from 'node:fs/promises';

/** A JSONL file's lines, empty ones left out; none when the file does not exist yet. */
export async function readLines(path: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return text.split('\n');
}
