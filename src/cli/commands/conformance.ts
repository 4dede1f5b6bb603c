import type { Command } from 'commander';
import { openSqliteStore } from '../../store/index.js';
import {
  CaseFileError,
  type ConformanceCase,
  readCaseFile,
  storeCaseRunner,
} from '../../testing/index.js';

import { withExamples } from '../presentation/examples.js';
import { ExitCode, printTo, type Terminal } from '../terminal.js';

export function registerConformance(program: Command, terminal: Terminal): void {
  const print = printTo(terminal);
  withExamples(
    program
      .command('conformance')
      .description('run conformance case files against the core; exits non-zero on any failure')
      .argument('<files...>', 'case files, each {description, cases: [...]}'),
    'evalflow conformance test/conformance/*.json',
  ).action(async (files: string[]) => {
    const failed = await runConformance(files, print);
    if (failed > 0) throw new ExitCode(1);
  });
}

/**
 * `evalflow conformance FILE...`: runs every case of each file on an in-memory SQLite store,
 * writes one line per case (and one per file that is not a case file), then the counts.
 *
 * @returns How many cases and files failed.
 */
export async function runConformance(
  files: string[],
  write: (line: string) => void,
): Promise<number> {
  const runner = storeCaseRunner((options) => openSqliteStore(':memory:', options));
  let failed = 0;
  let passed = 0;
  try {
    for (const file of files) {
      let cases: ConformanceCase[];
      try {
        cases = (await readCaseFile(file)).cases;
      } catch (error) {
        if (!(error instanceof CaseFileError)) throw error;
        failed += 1;
        write(`FAIL ${error.message}`);
        continue;
      }
      for (const [index, testCase] of cases.entries()) {
        const mismatches = await runner.run(testCase, `${file}#${index}`);
        if (mismatches.length === 0) {
          passed += 1;
          write(`ok   ${file} › ${testCase.name}`);
        } else {
          failed += 1;
          write(`FAIL ${file} › ${testCase.name}: ${mismatches.join('; ')}`);
        }
      }
    }
    write(`${passed} passed, ${failed} failed`);
  } finally {
    await runner.close();
  }
  return failed;
}
