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
  type Rejection,
  scopeOf,
  type ViewChange,
  validationFailed,
} from '../core/index.js';
import { asNumber, type Backend, parseJson, type Sql } from './backend.js';
import { envelopeIdFor } from './envelope-ids.js';
import { loadState } from './load-state.js';
import type { ExecuteInput, Outcome, ScoreConfigDirectory } from './port.js';
import { deleteStatement, upsertStatement } from './view-tables.js';

export interface ExecuteDeps {
  backend: Backend;
  feedbackTypes: FeedbackTypeRegistry;
  evaluators: EvaluatorCatalog | undefined;
  scoreConfigs: ScoreConfigDirectory;
  limits: Readonly<Limits>;
  now: () => Date;
  newId: () => string;
}

/** Thrown inside the transaction to roll a refused command back, and caught right outside it. */
class Refusal {
  constructor(readonly rejection: Rejection) {}
}

/**
 * Parses, decides and appends one command. Everything that can refuse the command without the
 * workspace's entities runs before the transaction; inside it the workspace row is locked, so
 * seq stays gap-free and a command id is looked up and recorded atomically with its events. A
 * refusal rolls the transaction back, so a workspace exists from its first event only.
 */
export async function execute(deps: ExecuteDeps, input: unknown): Promise<Outcome> {
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
  const fingerprint = JSON.stringify([participantOf(actor), withoutCommandId(admitted.command)]);
  const command = withMessageId(admitted.command, deps.newId);
  const needs = needsOf(actor, command, deps.feedbackTypes);
  const context: DecideContext = {
    feedbackTypes: deps.feedbackTypes,
    ...(deps.evaluators ? { evaluators: deps.evaluators } : {}),
    scoreConfigs:
      needs.scoreConfigs.length > 0
        ? await deps.scoreConfigs.statusOf(needs.scoreConfigs)
        : undefined,
  };

  try {
    return await deps.backend.transaction((sql) =>
      decideAndAppend(sql, deps, {
        workspace_id,
        actor,
        command,
        commandId,
        fingerprint,
        needs,
        context,
      }),
    );
  } catch (error) {
    if (error instanceof Refusal) return error.rejection;
    throw error;
  }
}

interface Decidable {
  workspace_id: string;
  actor: Actor;
  command: Command;
  commandId: string | undefined;
  fingerprint: string;
  needs: Needs;
  context: DecideContext;
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
      return parseJson<Outcome>(first[0].outcome);
    }
  }
  const state = await loadState(sql, workspace_id, needs);
  const decision = decideCommand(state, actor, command, context);
  if (decision.type !== 'recorded') throw new Refusal(decision);

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
  await appendEvents(sql, envelopes);
  await writeChanges(sql, workspace_id, changes);
  if (envelopes.length > 0) {
    await sql.run('UPDATE workspaces SET last_seq = ?, last_ts = ? WHERE workspace_id = ?', [
      head.last_seq + envelopes.length,
      ts,
      workspace_id,
    ]);
  }
  if (commandId !== undefined) {
    await sql.run(
      'INSERT INTO commands (workspace_id, command_id, fingerprint, outcome) VALUES (?, ?, ?, ?)',
      [workspace_id, commandId, fingerprint, JSON.stringify(outcome)],
    );
  }
  return outcome;
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

function withoutCommandId(command: Command): Omit<Command, 'command_id'> {
  const { command_id: _ignored, ...rest } = command;
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

async function appendEvents(sql: Sql, envelopes: readonly Envelope[]) {
  for (const e of envelopes) {
    await sql.run(
      `INSERT INTO events (workspace_id, seq, id, ts, type, thread_id, run_id, actor, event)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        e.workspace_id,
        e.seq,
        e.id,
        e.ts,
        e.event.type,
        e.thread_id,
        e.run_id,
        JSON.stringify(e.actor),
        JSON.stringify(e.event),
      ],
    );
  }
}

/** Writes each changed row once, as it stands after the last change to it. */
async function writeChanges(sql: Sql, workspace_id: string, changes: readonly ViewChange[]) {
  const last = new Map<string, ViewChange>();
  for (const change of changes) last.set(`${change.view} ${change.key}`, change);
  for (const change of last.values()) {
    if (change.value === null) {
      await sql.run(deleteStatement(change.view), [workspace_id, change.key]);
      continue;
    }
    const { text, extra } = upsertStatement(change.view, change.value);
    await sql.run(text, [workspace_id, change.key, JSON.stringify(change.value), ...extra]);
  }
}
