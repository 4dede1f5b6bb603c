import { readFileSync, writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import {
  CORE_SECTION_END,
  CORE_SECTION_START,
  coreReference,
} from '../../scripts/core-reference/index.js';
import { Command, rejectionTypes } from '../../src/core/index.js';

// docs/commands.md's reference of commands, events, actors and rejections is written from
// src/core's schemas and types and from `decide` itself. `npm run docs:core`
// (EVALFLOW_WRITE_DOCS=1) writes it; otherwise this checks it is current.

const file = 'docs/commands.md';

it('documents every command, event, actor and rejection exactly as src/core defines them', {
  timeout: 60_000,
}, () => {
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf(CORE_SECTION_START);
  const end = text.indexOf(CORE_SECTION_END);
  expect(start, `${file} marks its core reference section`).toBeGreaterThanOrEqual(0);
  expect(end).toBeGreaterThan(start);
  const written = `${CORE_SECTION_START}\n${coreReference()}${CORE_SECTION_END}`;
  const current = text.slice(start, end + CORE_SECTION_END.length);
  if (process.env.EVALFLOW_WRITE_DOCS === '1' && current !== written) {
    writeFileSync(file, text.replace(current, written));
    return;
  }
  expect(current, 'run npm run docs:core').toBe(written);
});

it('has a section for each command and each rejection type', () => {
  const text = readFileSync(file, 'utf8');
  for (const schema of Command.options) {
    expect(text).toContain(`#### \`${schema.shape.type.value}\``);
  }
  for (const type of rejectionTypes) expect(text).toMatch(new RegExp(`^\\| \`${type}\` \\|`, 'm'));
  for (const event of ['run_started', 'feedback_given', 'score_recorded']) {
    expect(text).toContain(`#### \`${event}\``);
  }
});
