import { readFile } from 'node:fs/promises';
import { CaseFile } from './case-file.js';
import { describeCaseFileProblem } from './case-file-problems.js';
import { CaseFileError } from './errors.js';

/**
 * Reads the case file at `path`.
 *
 * @throws CaseFileError when it is missing, not JSON, or not a case file; its message is one line.
 */
export async function readCaseFile(path: string): Promise<CaseFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const problem = code === 'ENOENT' ? 'no such file' : `cannot be read: ${messageOf(error)}`;
    throw new CaseFileError(path, problem, { cause: error });
  }
  return parseCaseFile(text, path);
}

/**
 * Parses a case file's text; `file` names it in errors.
 *
 * @throws CaseFileError when the text is not JSON or not a case file; its message is one line.
 */
export function parseCaseFile(text: string, file: string): CaseFile {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new CaseFileError(file, `not JSON: ${messageOf(error)}`, { cause: error });
  }
  const parsed = CaseFile.safeParse(raw);
  if (!parsed.success) {
    throw new CaseFileError(file, describeCaseFileProblem(parsed.error, raw), {
      cause: parsed.error,
    });
  }
  return parsed.data;
}

/** An error's message on one line (V8 quotes the offending JSON, newlines and all). */
function messageOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s*\n\s*/g, ' ');
}
