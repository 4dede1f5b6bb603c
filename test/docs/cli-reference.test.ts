import { readFileSync, writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import {
  CLI_SECTION_END,
  CLI_SECTION_START,
  cliReference,
} from '../../src/cli/presentation/cli-reference.js';
import { buildProgram } from '../../src/cli/program.js';

// docs/commands.md's CLI section is written from commander's definitions, the ones --help
// prints. `npm run docs:cli` (EVALFLOW_WRITE_DOCS=1) writes it; otherwise this checks it is current.

const file = 'docs/commands.md';

it('documents every command, flag and example exactly as the CLI defines them', () => {
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf(CLI_SECTION_START);
  const end = text.indexOf(CLI_SECTION_END);
  expect(start, `${file} marks its CLI section`).toBeGreaterThanOrEqual(0);
  expect(end).toBeGreaterThan(start);
  const written = `${CLI_SECTION_START}\n${cliReference(buildProgram())}${CLI_SECTION_END}`;
  const current = text.slice(start, end + CLI_SECTION_END.length);
  if (process.env.EVALFLOW_WRITE_DOCS === '1' && current !== written) {
    writeFileSync(file, text.replace(current, written));
    return;
  }
  expect(current, 'run npm run docs:cli').toBe(written);
});

it('lists each command the program defines, with its flags', () => {
  const text = readFileSync(file, 'utf8');
  for (const heading of [
    '### `evalflow rules set <evaluator>`',
    '### `evalflow reevaluate start`',
    '### `evalflow ledger`',
    '### `evalflow scores summary`',
    '### `evalflow doctor`',
    '### `evalflow demo`',
  ]) {
    expect(text).toContain(heading);
  }
  expect(text).toContain('| `--sample-rate <rate>` |');
});
