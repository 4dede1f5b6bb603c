import type { InvalidArgumentError } from 'commander';
import {
  MessageRole,
  participantOf,
  type ReviewQueue,
  RunEndStatus,
  type RunStatus,
  type Target,
} from '../../core/index.js';
import type { ReviewTargetFilter } from '../../store/index.js';
import { wireTarget } from '../../wire/entities.js';
import { appOf, identifier, usage, withStore } from '../context.js';
import { printTo, type Terminal } from '../terminal.js';
import { queueOf } from './queues-in-force.js';
import { CLI_ACTOR } from './rules.js';

export const runStatuses: readonly RunStatus[] = ['running', 'paused', ...RunEndStatus.options];

/**
 * `evalflow queues add`: puts targets in a queue (recorded as system:cli), those named or every
 * target of a kind the filter flags select; each once.
 */
export async function addToQueue(terminal: Terminal, queueId: string, options: AddOptions) {
  const print = printTo(terminal);
  const named = [options.runs, options.messages, options.artifacts, options.threads].some(Boolean);
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
}

export interface AddOptions {
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
