import {
  type Actor,
  admit,
  applyChanges,
  COMMAND_ID_MAX_LENGTH,
  type Command,
  changesOf,
  conflict,
  type DecideContext,
  decideCommand,
  type Envelope,
  type EvaluatorCatalog,
  type FeedbackTypeRegistry,
  idProblem,
  type Limits,
  limitViolation,
  type Needs,
  needsOf,
  participantOf,
  type Recorded,
  type Rejection,
  scopeOf,
  type ViewChange,
  validationFailed,
  type WorkspaceState,
} from '../../core/index.js';
import { type AppendPlan, asNumber, type Backend, parseJson, type Sql } from '../backend.js';
import type { VerdictSettlement } from '../evaluation-rows.js';
import type { ExecuteInput, ExecuteOptions, Outcome, ScoreConfigDirectory } from '../port.js';
import { appendInTransaction, lastChanges, writePlan, writeSettlement } from './append-plan.js';
import { envelopeIdFor } from './envelope-ids.js';
import type { WarmWorkspace, WarmWorkspaces } from './warm-workspaces.js';
import type { WorkspaceTurns } from './workspace-turns.js';

export interface ExecuteDeps {
  backend: Backend;
  feedbackTypes: FeedbackTypeRegistry;
  evaluators: EvaluatorCatalog | undefined;
  scoreConfigs: ScoreConfigDirectory;
  limits: Readonly<Limits>;
  now: () => Date;
  newId: () => string;
  /** The store's warm workspace states (one per store object). */
  warm: WarmWorkspaces;
  turns: WorkspaceTurns;
}

/** Thrown inside the transaction to roll a refused command back, and caught right outside it. */
class Refusal {
  constructor(readonly rejection: Rejection) {}
}

/**
 * Parses, decides and appends one command. Everything that can refuse the command without the
 * workspace's entities runs first; then, one command of a workspace at a time in this process,
 * the warm path (`appendWarm`) or else the locked one (`appendLocked`) decides and appends.
 */
export async function execute(
  deps: ExecuteDeps,
  input: unknown,
  options: ExecuteOptions = {},
): Promise<Outcome> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return validationFailed('execute takes { workspace_id, actor, command, command_id? }');
  }
  const {
    workspace_id,
    actor: wireActor,
    command: wireCommand,
    command_id,
  } = input as Partial<ExecuteInput>;
  const badWorkspace = idProblem(workspace_id);
  if (badWorkspace !== null || typeof workspace_id !== 'string') {
    return validationFailed(`workspace_id: ${badWorkspace}`, [
      { path: ['workspace_id'], message: badWorkspace },
    ]);
  }
  const admitted = admit(wireActor, wireCommand);
  if (!admitted.ok) return admitted.rejection;
  const { actor } = admitted;
  const commandId = resolveCommandId(command_id, admitted.command.command_id);
  if (typeof commandId === 'object') return commandId;
  const oversized = limitViolation(admitted.command, deps.limits);
  if (oversized !== null) return oversized;
  // The fingerprint is taken before the store fills in ids, so a replay of the same wire command
  // matches it.
  const fingerprint = JSON.stringify([participantOf(actor), identityOf(admitted.command)]);
  const command = withMessageId(admitted.command, deps.newId);
  const needs = needsOf(actor, command, deps.feedbackTypes);
  const context: DecideContext = {
    feedbackTypes: deps.feedbackTypes,
    ...(deps.evaluators ? { evaluators: deps.evaluators } : {}),
    scoreConfigs:
      needs.scoreConfigs.length > 0
        ? await deps.scoreConfigs.statusOf(needs.scoreConfigs)
        : undefined,
    now: deps.now().toISOString(),
  };

  const decidable: Decidable = {
    workspace_id,
    actor,
    command,
    commandId,
    fingerprint,
    needs,
    context,
    settles: options.settles,
  };
  return deps.turns.run(workspace_id, async () => {
    const warm = await appendWarm(deps, decidable);
    return warm ?? (await appendLocked(deps, decidable));
  });
}

interface Decidable {
  workspace_id: string;
  actor: Actor;
  command: Command;
  commandId: string | undefined;
  fingerprint: string;
  needs: Needs;
  context: DecideContext;
  settles: VerdictSettlement | undefined;
}

/**
 * The warm path: decides on the workspace's warm state, without reading the database (an
 * entity it does not know is taken to be absent), and writes the events only if the workspace
 * is still at the seq that state was taken at and those entities are still absent (one
 * statement on Postgres). Undefined when it cannot answer alone: no warm state, feedback it
 * does not know, a decision other than a recorded one with events (a refusal must be made on
 * the current state), a workspace that moved on (another process), an entity that exists or a
 * command id already used; the locked path then answers.
 */
async function appendWarm(deps: ExecuteDeps, decidable: Decidable): Promise<Outcome | undefined> {
  const { workspace_id, actor, command, needs, context } = decidable;
  const entry = deps.warm.latest(workspace_id);
  const absent = entry === undefined ? null : deps.warm.unknownEntities(entry, needs);
  if (entry === undefined || absent === null) return undefined;
  const decision = decideCommand(entry.state, actor, command, context);
  if (decision.type !== 'recorded' || decision.events.length === 0) return undefined;
  const head = { last_seq: entry.seq, last_ts: entry.ts };
  // From here the entry's state takes the changes before they are written: any failure drops it.
  try {
    const planned = planAppend(deps, decidable, decision, head, entry.state);
    const { outcome } = planned;
    const plan: AppendPlan = absent.length > 0 ? { ...planned.plan, absent } : planned.plan;
    const written = deps.backend.appendAt
      ? await deps.backend.appendAt(plan)
      : await appendInTransaction((work) => deps.backend.transaction(work), plan);
    if (!written) {
      deps.warm.drop(workspace_id);
      return undefined;
    }
    deps.warm.committed(workspace_id, entry, plan.last_seq, plan.last_ts, plan.changes, absent);
    return outcome;
  } catch (error) {
    deps.warm.drop(workspace_id);
    throw error;
  }
}

/**
 * The locked path: inside one transaction the workspace row is locked (created if new), so seq
 * stays gap-free and a command id is looked up and recorded atomically with its events; the
 * warm state is used if it is at the locked seq and filled with what the command needs. A
 * refusal rolls the transaction back, so a workspace exists from its first event only.
 */
async function appendLocked(deps: ExecuteDeps, decidable: Decidable): Promise<Outcome> {
  const { workspace_id } = decidable;
  let appended: { entry: WarmWorkspace; plan: AppendPlan } | undefined;
  try {
    const outcome = await deps.backend.transaction(async (sql) => {
      appended = undefined;
      const { outcome, entry, plan } = await decideAndAppend(sql, deps, decidable);
      if (plan !== undefined) appended = { entry, plan };
      return outcome;
    });
    if (appended !== undefined) {
      const { entry, plan } = appended;
      deps.warm.committed(workspace_id, entry, plan.last_seq, plan.last_ts, plan.changes);
    }
    return outcome;
  } catch (error) {
    if (error instanceof Refusal) return error.rejection;
    deps.warm.drop(workspace_id);
    throw error;
  }
}

async function decideAndAppend(sql: Sql, deps: ExecuteDeps, decidable: Decidable) {
  const { workspace_id, actor, command, commandId, fingerprint, needs, context } = decidable;
  const head = await lockWorkspace(sql, workspace_id);
  if (commandId !== undefined) {
    const first = await sql.all(
      'SELECT fingerprint, outcome FROM commands WHERE workspace_id = ? AND command_id = ?',
      [workspace_id, commandId],
    );
    if (first[0] !== undefined) {
      if (first[0].fingerprint !== fingerprint) {
        throw new Refusal(
          conflict(`command ${commandId} was already used for a different command`),
        );
      }
      const outcome = parseJson<Outcome>(first[0].outcome);
      // A verdict appended before settlements were written with it (an older worker) is settled
      // by its replay.
      if (decidable.settles !== undefined && outcome.type === 'recorded') {
        const at = deps.now().toISOString();
        await writeSettlement(sql, settlementOf(decidable, outcome.events[0]?.id ?? null, at));
      }
      return { outcome, entry: undefined, plan: undefined };
    }
  }
  const entry = await deps.warm.loaded(sql, workspace_id, head.last_seq, head.last_ts, needs);
  const decision = decideCommand(entry.state, actor, command, context);
  if (decision.type !== 'recorded') throw new Refusal(decision);
  const { outcome, plan } = planAppend(deps, decidable, decision, head, entry.state);
  await writePlan(sql, plan);
  return { outcome, entry, plan };
}

/**
 * The envelopes, outcome and rows of a recorded decision made at `head`; `state` takes the
 * events' changes.
 */
function planAppend(
  deps: ExecuteDeps,
  decidable: Decidable,
  decision: Recorded,
  head: { last_seq: number; last_ts: string },
  state: WorkspaceState,
): { outcome: Outcome; plan: AppendPlan } {
  const { workspace_id, actor, commandId, fingerprint } = decidable;
  // ts never decreases, even when the clock steps back.
  const ts = new Date(Math.max(deps.now().getTime(), Date.parse(head.last_ts) || 0)).toISOString();
  const envelopes: Envelope[] = decision.events.map((event, index) => ({
    seq: head.last_seq + 1 + index,
    id: commandId === undefined ? deps.newId() : envelopeIdFor(workspace_id, commandId, index),
    ts,
    workspace_id,
    ...scopeOf(event),
    actor,
    event,
  }));
  const changes: ViewChange[] = [];
  for (const envelope of envelopes) {
    const made = changesOf(state, envelope);
    applyChanges(state, made);
    changes.push(...made);
  }
  const outcome: Outcome = { ...decision, events: envelopes };
  const plan: AppendPlan = {
    workspace_id,
    expectedSeq: head.last_seq,
    last_seq: head.last_seq + envelopes.length,
    last_ts: envelopes.length > 0 ? ts : head.last_ts,
    events: envelopes,
    changes: lastChanges(changes),
    ...(commandId === undefined
      ? {}
      : { command: { command_id: commandId, fingerprint, outcome: JSON.stringify(outcome) } }),
    ...(decidable.settles === undefined
      ? {}
      : settlementOf(decidable, envelopes[0]?.id ?? null, ts)),
  };
  return { outcome, plan };
}

/** The ledger entry (recorded, with the verdict's event) and attempt a verdict settles. */
function settlementOf(
  decidable: Decidable,
  envelope_id: string | null,
  settled_at: string,
): Pick<AppendPlan, 'settles' | 'attempt'> {
  const { attempt, ...settles } = decidable.settles as VerdictSettlement;
  const workspace_id = decidable.workspace_id;
  const key = { workspace_id, ...settles };
  return {
    settles: { ...key, state: 'recorded', reason: null, envelope_id, settled_at },
    ...(attempt === undefined
      ? {}
      : {
          attempt: {
            workspace_id,
            generation: settles.generation,
            participant: settles.participant,
            target_key: settles.target_key,
            ...attempt,
            failed: false,
          },
        }),
  };
}

function resolveCommandId(
  given: unknown,
  inCommand: string | undefined,
): string | undefined | Rejection {
  if (given === undefined) return inCommand;
  const problem = idProblem(given, COMMAND_ID_MAX_LENGTH);
  if (problem !== null || typeof given !== 'string') {
    return validationFailed(`command_id: ${problem}`, [{ path: ['command_id'], message: problem }]);
  }
  if (inCommand !== undefined && inCommand !== given) {
    return validationFailed(`command_id ${given} differs from the command's own ${inCommand}`);
  }
  return given;
}

/**
 * What a command id names: the command without its id, and without a reported time, which is a
 * clock's reading (a retry that reads the clock again, or a trace translated again once an
 * earlier span came, is the same command; the first time stays).
 */
function identityOf(command: Command): Partial<Command> {
  const {
    command_id: _id,
    started_at: _started,
    ended_at: _ended,
    posted_at: _posted,
    ...rest
  } = command as Partial<Record<'started_at' | 'ended_at' | 'posted_at', string>> & Command;
  return rest;
}

function withMessageId(command: Command, newId: () => string): Command {
  if (command.type !== 'post_message' || command.message_id !== undefined) return command;
  return { ...command, message_id: newId() };
}

/**
 * Creates the workspace's row if needed and returns its head. The no-op update locks the row until
 * the transaction ends (in SQLite the transaction's write lock already holds the whole file), so
 * writers to one workspace take turns.
 */
async function lockWorkspace(sql: Sql, workspace_id: string) {
  const rows = await sql.all(
    `INSERT INTO workspaces (workspace_id, last_seq, last_ts) VALUES (?, 0, '')
     ON CONFLICT (workspace_id) DO UPDATE SET last_seq = workspaces.last_seq
     RETURNING last_seq, last_ts`,
    [workspace_id],
  );
  const row = rows[0] ?? { last_seq: 0, last_ts: '' };
  return { last_seq: asNumber(row.last_seq), last_ts: String(row.last_ts) };
}
