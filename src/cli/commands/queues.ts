import { type Command, type InvalidArgumentError, Option } from 'commander';
import type { AppDefinition } from '../../config/index.js';
import {
  MessageRole,
  participantOf,
  queuesInForce,
  type ReviewQueue,
  RunEndStatus,
  type RunStatus,
  type Target,
} from '../../core/index.js';
import type { ReviewTargetFilter, Store } from '../../store/index.js';
import { wireTarget } from '../../wire/entities.js';
import { wireProgress, wireReviewerProgress, wireReviewQueue } from '../../wire/review-queues.js';
import {
  appOf,
  CONFIG_OPTION,
  commaList,
  identifier,
  usage,
  wholeNumber,
  withStore,
} from '../context.js';
import { withExamples } from '../presentation/examples.js';
import { renderTable } from '../presentation/table.js';
import { printTo, type Terminal } from '../terminal.js';
import { CLI_ACTOR } from './rules.js';

// `evalflow queues list|show|add`: review queues and their progress, read from the store as the
// API reads it, and targets put in a queue by hand (recorded as system:cli), each once per queue.

const runStatuses: readonly RunStatus[] = ['running', 'paused', ...RunEndStatus.options];

/** The queues in force in a workspace, each with its origin. */
async function queuesOf(store: Store, app: AppDefinition, workspace: string) {
  return queuesInForce(app.reviewQueues, await store.reviewQueues.definitions(workspace));
}

async function queueOf(store: Store, app: AppDefinition, workspace: string, queueId: string) {
  const queue = (await queuesOf(store, app, workspace)).find((q) => q.queue_id === queueId);
  if (queue === undefined) {
    usage(`no review queue ${queueId} in workspace ${workspace}: see evalflow queues list`);
  }
  return queue;
}

export function registerQueues(program: Command, terminal: Terminal): void {
  const print = printTo(terminal);
  const queues = program
    .command('queues')
    .description('review queues: their progress, and targets put in one by hand');

  withExamples(
    queues
      .command('list')
      .description('the review queues in force in a workspace, each with its progress')
      .requiredOption('--workspace <id>', 'the workspace', identifier)
      .option('--archived', 'archived queues too')
      .option(...CONFIG_OPTION)
      .option('--json', 'print one JSON array of queues (the API’s shape, with `progress`)'),
    'evalflow queues list --workspace acme',
  ).action(
    async (options: { workspace: string; archived?: boolean; config?: string; json?: boolean }) => {
      const { config, app } = await appOf(options, terminal);
      const listed = await withStore(
        config,
        async (store) => {
          const now = new Date();
          const all = (await queuesOf(store, app, options.workspace)).filter(
            (queue) => options.archived || !queue.archived,
          );
          return Promise.all(
            all.map(async (queue) => ({
              ...wireReviewQueue(queue),
              progress: wireProgress(
                await store.reviewQueues.counts(options.workspace, queue.queue_id, now),
              ),
            })),
          );
        },
        app,
      );
      if (options.json) return print(JSON.stringify(listed));
      if (listed.length === 0) return print(`no review queues in workspace ${options.workspace}`);
      const lines = renderTable(
        [
          'queue',
          'feedback type',
          'targets',
          'per item',
          'items',
          'items done',
          'pending',
          'leased',
          'done',
          'skipped',
          'last hour',
          'origin',
        ],
        listed.map((q) => [
          q.archived ? `${q.queueId} (archived)` : q.queueId,
          q.feedbackType,
          q.targetKinds.join(','),
          q.reviewersPerItem,
          q.progress.items,
          q.progress.itemsDone,
          q.progress.pending,
          q.progress.leased,
          q.progress.done,
          q.progress.skipped,
          q.progress.throughput.lastHour,
          q.origin,
        ]),
      );
      for (const line of lines) print(line);
    },
  );

  withExamples(
    queues
      .command('show')
      .description("a review queue's settings, its progress and each reviewer's")
      .argument('<queue>', 'the queue id', identifier)
      .requiredOption('--workspace <id>', 'the workspace', identifier)
      .option(...CONFIG_OPTION)
      .option('--json', 'print one JSON object {queue, progress, reviewers} (the API’s shape)'),
    'evalflow queues show triage --workspace acme',
  ).action(
    async (queueId: string, options: { workspace: string; config?: string; json?: boolean }) => {
      const { config, app } = await appOf(options, terminal);
      const shown = await withStore(
        config,
        async (store) => {
          const queue = await queueOf(store, app, options.workspace, queueId);
          const now = new Date();
          return {
            queue: wireReviewQueue(queue),
            progress: wireProgress(
              await store.reviewQueues.counts(options.workspace, queueId, now),
            ),
            reviewers: (
              await store.reviewQueues.reviewerCounts(options.workspace, queueId, now)
            ).map(wireReviewerProgress),
          };
        },
        app,
      );
      if (options.json) return print(JSON.stringify(shown));
      const { queue, progress, reviewers } = shown;
      print(
        `${queue.queueId}${queue.archived ? ' (archived)' : ''}: ${queue.feedbackType} on ${queue.targetKinds.join(', ')}, ` +
          `${queue.reviewersPerItem} reviewer${queue.reviewersPerItem === 1 ? '' : 's'} per item, ` +
          `${queue.blind ? 'blind' : 'not blind'}, leases of ${queue.leaseSeconds} s (${queue.origin})`,
      );
      for (const rule of queue.routing) print(`routing: ${JSON.stringify(rule)}`);
      print(
        `items ${progress.items} (${progress.itemsDone} done); slots pending ${progress.pending}, ` +
          `leased ${progress.leased}, done ${progress.done}; skipped ${progress.skipped}; ` +
          `verdicts in the last hour ${progress.throughput.lastHour}, last day ${progress.throughput.lastDay}`,
      );
      if (reviewers.length === 0) return print('no reviewer has taken an item yet');
      const lines = renderTable(
        ['reviewer', 'leased', 'done', 'skipped', 'last hour', 'last day'],
        reviewers.map((r) => [
          r.reviewer,
          r.leased,
          r.done,
          r.skipped,
          r.throughput.lastHour,
          r.throughput.lastDay,
        ]),
      );
      for (const line of lines) print(line);
    },
  );

  withExamples(
    queues
      .command('add')
      .description(
        'put targets in a review queue (recorded as system:cli): those named, or every target of a kind matching the filter flags; each is queued once',
      )
      .argument('<queue>', 'the queue id', identifier)
      .requiredOption('--workspace <id>', 'the workspace', identifier)
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
  ).action(async (queueId: string, options: AddOptions) => {
    const named = [options.runs, options.messages, options.artifacts, options.threads].some(
      Boolean,
    );
    if (named === (options.all !== undefined)) {
      usage(
        'name targets (--runs, --messages, --artifacts, --threads) or a filter (--all <kind>), one of the two',
      );
    }
    const filter = options.all === undefined ? undefined : filterOf(options.all, options);
    const targets = filter === undefined ? namedTargets(options) : [];
    const { config, app } = await appOf(options, terminal);
    const added = await withStore(
      config,
      async (store) => {
        const queue = await queueOf(store, app, options.workspace, queueId);
        checkQueue(queue, filter?.kind, targets);
        const common = {
          workspace_id: options.workspace,
          queue_id: queueId,
          feedback_type: queue.feedback_type,
          slots: queue.reviewers_per_item,
          enqueued_by: participantOf(CLI_ACTOR),
          now: new Date(),
        };
        if (filter !== undefined) {
          const counts = await store.reviewQueues.enqueueMatching({
            ...common,
            filter,
            ...(options.limit ? { limit: options.limit } : {}),
          });
          return { added: counts.added, alreadyQueued: counts.already_queued };
        }
        const items = await store.reviewQueues.enqueue({ ...common, targets });
        if (!Array.isArray(items)) usage(`${options.workspace}: ${items.message}`);
        const count = items.filter((item) => item.added).length;
        return {
          added: count,
          alreadyQueued: items.length - count,
          items: items.map((item) => ({
            itemId: item.item_id,
            target: wireTarget(item.target),
            added: item.added,
          })),
        };
      },
      app,
    );
    if (options.json) return print(JSON.stringify(added));
    print(
      `added ${added.added} to review queue ${queueId}; ${added.alreadyQueued} were queued already`,
    );
  });
}

interface AddOptions {
  workspace: string;
  runs?: string[];
  messages?: string[];
  artifacts?: string[];
  threads?: string[];
  all?: 'turn' | 'message' | 'artifact' | 'thread';
  status?: string[];
  role?: string[];
  artifactKind?: string[];
  latestOnly?: boolean;
  limit?: number;
  config?: string;
  json?: boolean;
}

const checkedId = (flag: string, value: string) => {
  try {
    return identifier(value);
  } catch (error) {
    return usage(`${flag}: ${(error as InvalidArgumentError).message}`);
  }
};

/** The targets the list flags name, each checked by the id rule. */
function namedTargets(options: AddOptions): Target[] {
  const targets: Target[] = [];
  for (const run of options.runs ?? [])
    targets.push({ kind: 'turn', run_id: checkedId('--runs', run) });
  for (const thread of options.threads ?? []) {
    targets.push({ kind: 'thread', thread_id: checkedId('--threads', thread) });
  }
  for (const message of options.messages ?? []) {
    const slash = message.indexOf('/');
    if (slash <= 0 || slash === message.length - 1) {
      usage(`--messages are thread/message, not ${message}`);
    }
    targets.push({
      kind: 'message',
      thread_id: checkedId('--messages', message.slice(0, slash)),
      message_id: checkedId('--messages', message.slice(slash + 1)),
      run_id: null,
    });
  }
  for (const artifact of options.artifacts ?? []) {
    const at = artifact.lastIndexOf('@');
    const version = Number(artifact.slice(at + 1));
    if (at <= 0 || !Number.isInteger(version) || version < 1) {
      usage(`--artifacts are id@version (a version from 1), not ${artifact}`);
    }
    targets.push({
      kind: 'artifact',
      artifact_id: checkedId('--artifacts', artifact.slice(0, at)),
      version,
    });
  }
  return targets;
}

/** The filter the flags describe; a flag of another kind's filter is refused. */
function filterOf(kind: NonNullable<AddOptions['all']>, options: AddOptions): ReviewTargetFilter {
  const only = (flag: string, given: unknown, of: string) => {
    if (given !== undefined && kind !== of)
      usage(`${flag} goes with --all ${of}, not --all ${kind}`);
  };
  only('--status', options.status, 'turn');
  only('--role', options.role, 'message');
  only('--artifact-kind', options.artifactKind, 'artifact');
  only('--latest-only', options.latestOnly, 'artifact');
  switch (kind) {
    case 'turn': {
      const statuses = options.status?.map((status) =>
        runStatuses.includes(status as RunStatus)
          ? (status as RunStatus)
          : usage(`--status is some of ${runStatuses.join(', ')}, not ${status}`),
      );
      return { kind, ...(statuses ? { statuses } : {}) };
    }
    case 'message': {
      const roles = (options.role ?? ['assistant']).map((role) => {
        const parsed = MessageRole.safeParse(role);
        return parsed.success
          ? parsed.data
          : usage(`--role is some of ${MessageRole.options.join(', ')}, not ${role}`);
      });
      return { kind, roles };
    }
    case 'artifact':
      return {
        kind,
        ...(options.artifactKind
          ? { artifact_kinds: options.artifactKind.map((k) => checkedId('--artifact-kind', k)) }
          : {}),
        ...(options.latestOnly ? { latest_only: true } : {}),
      };
    case 'thread':
      return { kind };
  }
}

function checkQueue(
  queue: ReviewQueue,
  filterKind: string | undefined,
  targets: readonly Target[],
) {
  if (queue.archived) usage(`review queue ${queue.queue_id} is archived: it takes no new items`);
  for (const kind of filterKind ? [filterKind] : targets.map((t) => t.kind)) {
    if (!(queue.target_kinds as readonly string[]).includes(kind)) {
      usage(
        `review queue ${queue.queue_id} takes ${queue.target_kinds.join(', ')} targets, not ${kind}`,
      );
    }
  }
}
