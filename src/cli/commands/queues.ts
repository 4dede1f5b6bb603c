import { type Command, Option } from 'commander';
import { CONFIG_OPTION, commaList, identifier, wholeNumber } from '../context.js';
import { withExamples } from '../presentation/examples.js';
import type { Terminal } from '../terminal.js';
import { type AddOptions, addToQueue, runStatuses } from './queues-add.js';
import { listQueues } from './queues-list.js';
import { showQueue } from './queues-show.js';

// `evalflow queues list|show|add`: review queues and their progress, read from the store as the
// API reads it, and targets put in a queue by hand (recorded as system:cli), each once per queue.
// Each command's action is a function in a file named after it.

/** Each queue command's `--workspace`: queues are defined per workspace. */
const WORKSPACE = ['--workspace <id>', 'the workspace', identifier] as const;

export function registerQueues(program: Command, terminal: Terminal): void {
  const queues = program
    .command('queues')
    .description('review queues: their progress, and targets put in one by hand');

  withExamples(
    queues
      .command('list')
      .description('the review queues in force in a workspace, each with its progress')
      .requiredOption(...WORKSPACE)
      .option('--archived', 'archived queues too')
      .option(...CONFIG_OPTION)
      .option('--json', 'print one JSON array of queues (the API’s shape, with `progress`)'),
    'evalflow queues list --workspace acme',
  ).action((options) => listQueues(terminal, options));

  withExamples(
    queues
      .command('show')
      .description("a review queue's settings, its progress and each reviewer's")
      .argument('<queue>', 'the queue id', identifier)
      .requiredOption(...WORKSPACE)
      .option(...CONFIG_OPTION)
      .option('--json', 'print one JSON object {queue, progress, reviewers} (the API’s shape)'),
    'evalflow queues show triage --workspace acme',
  ).action((queueId: string, options) => showQueue(terminal, queueId, options));

  withExamples(
    queues
      .command('add')
      .description(
        'put targets in a review queue (recorded as system:cli): those named, or every target of a kind matching the filter flags; each is queued once',
      )
      .argument('<queue>', 'the queue id', identifier)
      .requiredOption(...WORKSPACE)
      .option('--runs <ids>', 'runs (turn targets), comma-separated', commaList)
      .option(
        '--messages <thread/message>',
        'messages, each thread/message, comma-separated',
        commaList,
      )
      .option(
        '--artifacts <id@version>',
        'artifact versions, each id@version, comma-separated',
        commaList,
      )
      .option('--threads <ids>', 'threads, comma-separated', commaList)
      .addOption(
        new Option('--all <kind>', 'every target of this kind the filter flags select').choices([
          'turn',
          'message',
          'artifact',
          'thread',
        ]),
      )
      .option(
        '--status <statuses>',
        `with --all turn: runs in these statuses (${runStatuses.join(', ')})`,
        commaList,
      )
      .option(
        '--role <roles>',
        `with --all message: messages of these roles (default assistant)`,
        commaList,
      )
      .option('--artifact-kind <kinds>', 'with --all artifact: versions of these kinds', commaList)
      .option('--latest-only', "with --all artifact: each artifact's current version only")
      .option('--limit <n>', 'with --all: at most this many targets', wholeNumber)
      .option(...CONFIG_OPTION)
      .option('--json', 'print one JSON object {added, alreadyQueued} (the API’s shape)'),
    'evalflow queues add triage --workspace acme --runs run-1,run-2',
    'evalflow queues add triage --workspace acme --all turn --status completed --limit 500',
  ).action((queueId: string, options: AddOptions) => addToQueue(terminal, queueId, options));
}
