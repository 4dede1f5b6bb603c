import { type Client, WorkflowNotFoundError } from '@temporalio/client';
import { v7 as uuidv7 } from 'uuid';
import {
  type EvaluatorCatalog,
  EvaluatorId,
  idProblem,
  nanosOf,
  parseEvaluatorId,
} from '../core/index.js';
import type {
  ArtifactVersionSelector,
  BackfillSelection,
  JudgeVersions,
  StoreIdentity,
} from '../store/index.js';
import type { reevaluate } from '../workflows/reevaluate.js';
import {
  batchProgressQuery,
  cancelBatchSignal,
  pauseBatchSignal,
  type ReevaluateProgress,
  reevaluateWorkflowId,
  resumeBatchSignal,
  setBatchBudgetSignal,
} from '../workflows/reevaluate-messages.js';
import { InvalidRequestError } from './errors.js';
import { checkTargets } from './selection.js';

export interface ReevaluationRequest {
  /** The artifact versions to judge again (a request names this or `selection`). */
  selector?: ArtifactVersionSelector;
  /** A backfill: the runs (turns), messages or threads to judge. */
  selection?: BackfillSelection;
  /** The batch's budget: it pauses when its spend reaches this. */
  maxCostUsd?: number;
  /** The evaluator versions to judge them with, as `name@version`. */
  evaluators: readonly string[];
  /** The batch's id and its verdicts' generation (default: a new UUIDv7). Reusing one skips what it settled. */
  batchId?: string;
  /** Evaluations in flight at once (default 8). */
  concurrency?: number;
  /** Targets per page, each page one run of the workflow (default 100). */
  pageSize?: number;
}

/** A batch re-evaluation of artifact versions: started, watched, paused, resumed, cancelled. */
export class ReevaluationClient {
  constructor(
    private readonly client: Client,
    /** The store whose artifact versions are judged (its id scopes the workflow ids). */
    private readonly store: StoreIdentity,
    private readonly taskQueue: string,
    /** The app's evaluators: with them, a batch naming an undeployed version is refused at once. */
    private readonly evaluators?: EvaluatorCatalog,
    /** Limited evaluators' own task queues, by name (`evaluatorTaskQueues`). */
    private readonly evaluatorTaskQueues: Readonly<Record<string, string>> = {},
    /** The workspaces' judge versions recorded as data, which a batch names like deployed ones. */
    private readonly recorded?: Pick<JudgeVersions, 'get'>,
  ) {}

  /** Starts a batch; starting the same batch id again while it runs is refused by Temporal. */
  async start(workspaceId: string, request: ReevaluationRequest): Promise<{ batchId: string }> {
    const evaluators = await Promise.all(
      request.evaluators.map((id) => this.checkedEvaluator(workspaceId, id)),
    );
    if (evaluators.length === 0) throw new InvalidRequestError('name at least one evaluator');
    const concurrency = request.concurrency ?? 8;
    if (!Number.isInteger(concurrency) || concurrency < 1) {
      throw new InvalidRequestError(`concurrency is a whole number from 1, not ${concurrency}`);
    }
    const batchId = request.batchId ?? uuidv7();
    // The batch id keys the ledger's verdicts (their generation), so it follows the id rule.
    const badBatch = idProblem(batchId);
    if (badBatch !== null) throw new InvalidRequestError(`batchId: ${badBatch}`);
    const badWorkspace = idProblem(workspaceId);
    if (badWorkspace !== null) throw new InvalidRequestError(`workspaceId: ${badWorkspace}`);
    if ((request.selector === undefined) === (request.selection === undefined)) {
      throw new InvalidRequestError('name artifact versions (selector) or a backfill (selection)');
    }
    const fraction = request.selection?.sampleFraction;
    if (fraction !== undefined && !(fraction > 0 && fraction <= 1)) {
      throw new InvalidRequestError(`sampleFraction is above 0 and at most 1, not ${fraction}`);
    }
    checkTargets(request.selection);
    checkBudget(request.maxCostUsd);
    await this.client.workflow.start<typeof reevaluate>('reevaluate', {
      workflowId: reevaluateWorkflowId(this.store.id, workspaceId, batchId),
      taskQueue: this.taskQueue,
      args: [
        {
          workspaceId,
          batchId,
          ...(request.selector !== undefined ? { selector: request.selector } : {}),
          ...(request.selection !== undefined ? { selection: request.selection } : {}),
          ...(request.maxCostUsd !== undefined
            ? { maxCostNanos: nanosOf(request.maxCostUsd) }
            : {}),
          evaluators,
          concurrency,
          ...(request.pageSize !== undefined ? { pageSize: request.pageSize } : {}),
        },
      ],
    });
    return { batchId };
  }

  /** The batch's progress now; null for a batch that does not exist. */
  async progress(workspaceId: string, batchId: string): Promise<ReevaluateProgress | null> {
    try {
      return await this.handle(workspaceId, batchId).query(batchProgressQuery);
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return null;
      throw error;
    }
  }

  /**
   * Whether the batch's workflow has completed (the progress alone cannot say: before it counts
   * its versions, and after a cancel, `done` is short of `total`); null for no such batch.
   */
  async finished(workspaceId: string, batchId: string): Promise<boolean | null> {
    try {
      const { status } = await this.handle(workspaceId, batchId).describe();
      return status.name !== 'RUNNING' && status.name !== 'CONTINUED_AS_NEW';
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return null;
      throw error;
    }
  }

  /**
   * Reports progress every `intervalMs` until the batch completes, then returns its result; or
   * returns the first progress read of which `until` holds (`waitingOnBudget`, say), while the
   * batch goes on.
   */
  async watch(
    workspaceId: string,
    batchId: string,
    onProgress: (progress: ReevaluateProgress) => void,
    intervalMs = 1000,
    until?: (progress: ReevaluateProgress) => boolean,
  ): Promise<ReevaluateProgress> {
    const handle = this.handle(workspaceId, batchId);
    const result = handle.result() as Promise<ReevaluateProgress>;
    let done = false;
    void result
      .finally(() => {
        done = true;
      })
      .catch(() => {});
    while (!done) {
      const progress = await this.progress(workspaceId, batchId).catch(() => null);
      if (progress !== null && !done) {
        onProgress(progress);
        if (until?.(progress)) return progress;
      }
      await Promise.race([result, new Promise((resolve) => setTimeout(resolve, intervalMs))]);
    }
    return result;
  }

  pause(workspaceId: string, batchId: string): Promise<void> {
    return this.handle(workspaceId, batchId).signal(pauseBatchSignal);
  }
  resume(workspaceId: string, batchId: string): Promise<void> {
    return this.handle(workspaceId, batchId).signal(resumeBatchSignal);
  }
  /**
   * Sets the batch's budget (a batch started without one keeps none); a batch paused by its
   * budget resumes when the new one is above its spend.
   */
  async setBudget(workspaceId: string, batchId: string, maxCostUsd: number): Promise<void> {
    checkBudget(maxCostUsd);
    await this.handle(workspaceId, batchId).signal(setBatchBudgetSignal, nanosOf(maxCostUsd));
  }
  /** Stops scheduling; evaluations in flight finish, and the batch completes with its progress. */
  cancel(workspaceId: string, batchId: string): Promise<void> {
    return this.handle(workspaceId, batchId).signal(cancelBatchSignal);
  }

  private handle(workspaceId: string, batchId: string) {
    return this.client.workflow.getHandle(
      reevaluateWorkflowId(this.store.id, workspaceId, batchId),
    );
  }

  private async checkedEvaluator(workspaceId: string, id: string) {
    if (!EvaluatorId.safeParse(id).success) {
      throw new InvalidRequestError(`an evaluator version is written name@version, not ${id}`);
    }
    if (this.evaluators && this.evaluators.targetsOf(id) === undefined) {
      const recorded = await this.recorded?.get(workspaceId, id);
      if (recorded == null) throw new InvalidRequestError(`evaluator ${id} is not deployed`);
    }
    const ref = parseEvaluatorId(id);
    const taskQueue = this.evaluatorTaskQueues[ref.name];
    return taskQueue === undefined ? ref : { ...ref, taskQueue };
  }
}

/**
 * Whether a batch waits on its budget: paused by it with nothing in flight, it starts nothing more
 * until `setBudget` raises the budget above its spend (or it is cancelled).
 */
export const waitingOnBudget = (progress: ReevaluateProgress): boolean =>
  progress.paused &&
  progress.pausedBy === 'budget' &&
  progress.inFlight === 0 &&
  !progress.cancelled;

function checkBudget(maxCostUsd: number | undefined) {
  if (maxCostUsd !== undefined && !(Number.isFinite(maxCostUsd) && maxCostUsd > 0)) {
    throw new InvalidRequestError(`maxCostUsd is a positive amount, not ${maxCostUsd}`);
  }
  // Spend is counted in nano-dollars: a budget below half of one would be $0, spent at once.
  if (maxCostUsd !== undefined && nanosOf(maxCostUsd) < 1) {
    throw new InvalidRequestError(
      `maxCostUsd is at least a nano-dollar (0.000000001), not ${maxCostUsd}`,
    );
  }
}
