import type { RunEndStatus, RunSteps } from '../core/index.js';
import { inputMessages, newUserInput, outputText } from './messages.js';
import { roleOf, type SpanRole } from './roles.js';
import { byStartThenEnd, compareNs, errorOf, type SpanRecord } from './span.js';
import { stepsOf } from './steps.js';

// A trace's spans into the runs they tell of: pure, and the same answer however the spans were
// batched or ordered, so that translating again after more spans came records nothing twice.
//
// A run is one top-level agent span (no agent span above it) with everything under it; nested
// agent spans (handoffs, sub-agents) belong to it. A trace with no agent span is one run: its
// root span's. A run ends when that span has arrived. With `idle` (the trace's spans stopped
// coming), spans whose run's span never came make a `stopped` run of their own, named by the
// span id they all hang from, so a late agent span names the same run.

export interface TraceRun {
  /** `{traceId}-{spanId}` of the run's span: re-sent spans name the same run. */
  runId: string;
  threadId: string;
  traceId: string;
  status: RunEndStatus;
  /** Why the run failed, or null. */
  failure: string | null;
  /** The turn's new user input, oldest first. */
  input: string[];
  /** The agent's final answer, or null. */
  output: string | null;
  /** Its model and tool calls, in the order they started. */
  steps: RunSteps;
  spanCount: number;
  /**
   * When the run started and ended (ns since the epoch, decimal): its span's start and end, or
   * for a run whose span never came the earliest start and latest end of its spans. The input
   * was sent at the start.
   */
  startNs: string;
  endNs: string;
  /** When the answer was given: the end of the span it was read from; null with no answer. */
  outputNs: string | null;
}

export interface TraceTranslation {
  runs: TraceRun[];
  /** Kept spans under no run yet: their run's span has not arrived. */
  waiting: number;
}

export interface TranslateOptions {
  /** The trace's spans stopped coming: runs whose span never came end `stopped`. */
  idle: boolean;
  /**
   * Where else a conversation id may be: an attribute the workspace names (the Vercel AI SDK
   * carries the app's own as `ai.telemetry.metadata.<key>`).
   */
  conversationAttribute?: string;
}

/** The attributes that name a conversation, in the order they are read. */
export const CONVERSATION_ATTRIBUTES = [
  'gen_ai.conversation.id',
  'session.id',
  'langfuse.session.id',
] as const;

/** The attribute that makes agent spans of several traces one run (as a resumed run). */
export const RUN_ID_ATTRIBUTE = 'evalflow.run.id';

export function translateTrace(
  spans: readonly SpanRecord[],
  options: TranslateOptions,
): TraceTranslation {
  const byId = new Map(spans.map((span) => [span.spanId, span]));
  const roles = new Map(spans.map((span) => [span.spanId, roleOf(span)]));
  const anyAgent = [...roles.values()].includes('agent');
  const chains = chainsOf(spans, byId, roles);
  /**
   * The span a span's run is named by: its top agent span, or (with no agent span in the trace)
   * the trace's root; a span that has not come yet when the chain stops short of either; null
   * for a span outside every run (an HTTP root above an agent span).
   */
  const runSpanOf = (span: SpanRecord): { id: string; present: boolean } | null => {
    const chain = chains.get(span.spanId);
    if (!chain) return null;
    if (chain.top) return { id: chain.top, present: true };
    if (chain.missing) return { id: chain.end, present: false };
    return anyAgent ? null : { id: chain.end, present: true };
  };

  const members = new Map<string, { present: boolean; spans: SpanRecord[] }>();
  for (const span of spans) {
    const run = runSpanOf(span);
    if (run === null) continue;
    const group = members.get(run.id) ?? { present: run.present, spans: [] };
    group.spans.push(span);
    members.set(run.id, group);
  }

  const runs: TraceRun[] = [];
  let waiting = 0;
  for (const [spanId, group] of members) {
    // A root with nothing of GenAI under it (a health check) is no run.
    if (group.spans.every((span) => roles.get(span.spanId) === 'other')) continue;
    const runSpan = group.present ? byId.get(spanId) : undefined;
    if (runSpan === undefined && !options.idle) {
      waiting += group.spans.length;
      continue;
    }
    runs.push(runOf(spanId, runSpan, group.spans, roles, options));
  }
  return { runs, waiting };
}

/** Where a span's chain of parents leads: its top agent span, and where the chain ends. */
interface Chain {
  /** The agent span nearest the root on the way up, the span itself included; null for none. */
  top: string | null;
  /** The root's id, or (`missing`) the id of the first parent that has not come. */
  end: string;
  missing: boolean;
}

/**
 * Every span's chain, each parent's computed once (a 10,000-span trace nested deep would take
 * quadratic time walked span by span); a parent chain that loops ends where it loops, as missing.
 */
function chainsOf(
  spans: readonly SpanRecord[],
  byId: ReadonlyMap<string, SpanRecord>,
  roles: ReadonlyMap<string, SpanRole>,
): Map<string, Chain> {
  const chains = new Map<string, Chain>();
  const own = (span: SpanRecord, above: Chain): Chain => ({
    ...above,
    top: above.top ?? (roles.get(span.spanId) === 'agent' ? span.spanId : null),
  });
  for (const start of spans) {
    const path: SpanRecord[] = [];
    const onPath = new Set<string>();
    let at: SpanRecord | undefined = start;
    let above: Chain | undefined;
    while (at && !above) {
      const known = chains.get(at.spanId);
      if (known) {
        above = known;
        break;
      }
      path.push(at);
      onPath.add(at.spanId);
      const parentId: string | null = at.parentSpanId;
      if (parentId === null) {
        above = { top: null, end: at.spanId, missing: false };
        path.pop();
        chains.set(at.spanId, own(at, above));
        above = chains.get(at.spanId);
        break;
      }
      const parent = byId.get(parentId);
      if (parent === undefined || onPath.has(parentId)) {
        above = { top: null, end: parentId, missing: true };
        break;
      }
      at = parent;
    }
    for (let i = path.length - 1; i >= 0; i--) {
      const span = path[i] as SpanRecord;
      above = own(span, above as Chain);
      chains.set(span.spanId, above);
    }
  }
  return chains;
}

function runOf(
  spanId: string,
  runSpan: SpanRecord | undefined,
  spans: readonly SpanRecord[],
  roles: ReadonlyMap<string, SpanRole>,
  options: TranslateOptions,
): TraceRun {
  const traceId = spans[0]?.traceId ?? '';
  const byStart = [...spans].sort(byStartThenEnd);
  const modelCalls = byStart.filter((span) => roles.get(span.spanId) === 'model');
  const agents = byStart.filter((span) => roles.get(span.spanId) === 'agent');
  const failure = failureOf(runSpan, modelCalls);
  const history = [...agents, ...modelCalls]
    .map(inputMessages)
    .find((messages) => messages.length > 0);
  const lastModelCall = [...modelCalls].sort(
    (a, b) => compareNs(b.endNs, a.endNs) || byStartThenEnd(b, a),
  );
  const answered = [...(runSpan ? [runSpan] : []), ...lastModelCall].find(
    (span) => outputText(span) !== null,
  );
  const output = answered ? outputText(answered) : null;
  const named = spans
    .map((span) => span.attributes[RUN_ID_ATTRIBUTE])
    .find((value): value is string => typeof value === 'string' && value !== '');
  const runId = named ?? `${traceId}-${spanId}`;
  return {
    runId,
    threadId: conversationOf(spans, options.conversationAttribute) ?? `trace-${traceId}`,
    traceId,
    status: runSpan === undefined ? 'stopped' : failure ? 'failed' : 'completed',
    failure: runSpan === undefined ? null : failure,
    input: history ? newUserInput(history) : [],
    output,
    steps: stepsOf(byStart, roles),
    spanCount: spans.length,
    ...timesOf(runSpan, byStart),
    outputNs: answered?.endNs ?? null,
  };
}

/** A run's start and end: its span's, or (none) the earliest start and latest end of `byStart`. */
function timesOf(runSpan: SpanRecord | undefined, byStart: readonly SpanRecord[]) {
  if (runSpan) return { startNs: runSpan.startNs, endNs: runSpan.endNs };
  const ends = byStart.map((span) => span.endNs);
  return {
    startNs: byStart[0]?.startNs ?? '0',
    endNs: ends.reduce((latest, end) => (compareNs(latest, end) < 0 ? end : latest), '0'),
  };
}

function conversationOf(spans: readonly SpanRecord[], extra?: string): string | null {
  const keys = [...CONVERSATION_ATTRIBUTES, ...(extra ? [extra] : [])];
  for (const key of keys) {
    for (const span of spans) {
      const value = span.attributes[key];
      if (typeof value === 'string' && value !== '') return value;
      if (typeof value === 'number') return String(value);
    }
  }
  return null;
}

/**
 * Why a run failed: its own span's error, or a model call's (the OpenAI Agents SDK leaves its
 * agent span OK when a model call fails). A failed tool call alone does not fail a run: agents
 * read tool errors and go on, and the built-in heuristics judge those.
 */
function failureOf(
  runSpan: SpanRecord | undefined,
  modelCalls: readonly SpanRecord[],
): string | null {
  for (const span of [...(runSpan ? [runSpan] : []), ...modelCalls]) {
    const error = errorOf(span);
    if (error !== null) return `${span.name || span.spanId}: ${error}`;
  }
  return null;
}
