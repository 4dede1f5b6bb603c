import { type Command, InvalidArgumentError } from 'commander';
import { fraction, identifier, wholeNumber } from '../context.js';
import { withExamples } from '../presentation/examples.js';
import type { Terminal } from '../terminal.js';
import { backtestJudge } from './judges-backtest.js';
import { listJudges } from './judges-list.js';
import { tuneJudge } from './judges-tune.js';
import { withOneWorkspace } from './one-workspace.js';

// `evalflow judges list|tune|backtest`: LLM judges' versions as data. Each command's action is a function in a
// file named after it.

/** A seed: a whole number from 0. */
function seed(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < 0) {
    throw new InvalidArgumentError(`a seed is a whole number from 0, not ${value}`);
  }
  return n;
}

export function registerJudges(program: Command, terminal: Terminal): void {
  const judges = program
    .command('judges')
    .description("LLM judges' versions: new ones tuned from reviewers' verdicts, as data");

  withExamples(
    withOneWorkspace(
      judges
        .command('list')
        .description(
          'the LLM judges’ versions: those the app declares in code, and those recorded as data in the workspace',
        ),
    ).option('--json', 'print one JSON object {workspace, versions}'),
    'evalflow judges list --workspace acme',
  ).action((options) => listJudges(terminal, options));

  withExamples(
    withOneWorkspace(
      judges
        .command('tune')
        .description(
          'record a candidate version of an LLM judge (as system:cli) with few-shot examples chosen from the targets both it and the reviewers judged: a seeded split stratified by the reviewers’ label, the disagreements first, balanced across labels; the held-out part is kept for its backtest',
        )
        .argument(
          '<judge>',
          'the version to tune, name@version: declared in code, or recorded (its examples are kept, first)',
        )
        .requiredOption('--against <side>', 'the reviewers’ verdicts: reviewers:<type>.<field>')
        .option('--field <field>', "the judge's field (default: the reviewers' field's name)")
        .option(
          '--as <version>',
          'the candidate’s version (default: tuned-1, tuned-2, …)',
          identifier,
        )
        .option(
          '--held-out-share <share>',
          'the share held out for the backtest (default 0.3)',
          fraction,
        )
        .option('--seed <n>', 'the seed of the split and the examples (default 36)', seed)
        .option(
          '--max-examples <n>',
          'the most examples the candidate takes (default 8)',
          wholeNumber,
        ),
    ).option('--json', 'print one JSON object: the candidate, the split sizes, the examples'),
    'evalflow judges tune llm_judge@1 --against reviewers:review.passed --workspace acme',
  ).action((judge: string, options) => tuneJudge(terminal, judge, options));

  withExamples(
    withOneWorkspace(
      judges
        .command('backtest')
        .description(
          'a recorded version against its base on its held-out targets, from the verdicts stored on them: κ of each against the reviewers, the paired difference, McNemar’s test, the verdicts that changed',
        )
        .argument('<judge>', 'the recorded version, name@version')
        .requiredOption('--against <side>', 'the reviewers’ verdicts: reviewers:<type>.<field>')
        .option('--field <field>', "the judge's field (default: the reviewers' field's name)"),
    ).option('--json', 'print one JSON object {workspace, candidate, base, statistics}'),
    'evalflow judges backtest llm_judge@tuned-1 --against reviewers:review.passed --workspace acme',
  ).action((judge: string, options) => backtestJudge(terminal, judge, options));
}
