import { z } from 'zod';
import { Actor, Target } from '../../core/index.js';

// The conformance case file: the core's rules as data. docs/conformance.md documents every field
// here; keep the two in step.

const GivenThread = z.looseObject({
  id: z.string(),
  title: z.string().optional(),
  /** Ended by its host (`end_thread`), after everything else of the lifecycle is given. */
  ended: z.boolean().default(false),
});

const GivenRun = z.looseObject({
  id: z.string(),
  thread_id: z.string(),
  /** Where the run stands: started, then paused or ended with this status. */
  status: z.enum(['running', 'paused', 'completed', 'stopped', 'failed']).default('running'),
});

const GivenArtifact = z.looseObject({
  id: z.string(),
  kind: z.string(),
  /** How many versions were put (each with `data`). */
  version: z.int().min(1).default(1),
  data: z.json().optional(),
  archived: z.boolean().default(false),
  /** Put by this thread's agent, which makes it the thread's; by the system when absent. */
  thread_id: z.string().optional(),
});

const GivenMessage = z.looseObject({
  id: z.string(),
  thread_id: z.string(),
  run_id: z.string().nullable().optional(),
  role: z.enum(['user', 'assistant', 'system', 'tool']),
});

/** An earlier rating, by the user `rater`. */
const GivenRating = z.object({
  rater: z.string(),
  thread_id: z.string(),
  message_id: z.string(),
  feedback_type: z.string(),
  value: z.record(z.string(), z.unknown()),
});

/** Earlier feedback by any actor: given, then withdrawn when `withdrawn`. */
const GivenFeedback = z.object({
  actor: Actor,
  feedback_type: z.string(),
  target: Target,
  value: z.record(z.string(), z.unknown()).default({}),
  withdrawn: z.boolean().default(false),
});

/** The provider's score configs, by name, for the rules about HUMAN sources. */
const GivenScoreConfig = z.object({ name: z.string(), archived: z.boolean().default(false) });

/**
 * What exists before the case's command runs, each list built through commands in this order
 * (`givenCommands`); runs pause or end after the messages. A thread that a run, artifact or
 * message names is created when not listed.
 */
export const Given = z.object({
  threads: z.array(GivenThread).default([]),
  runs: z.array(GivenRun).default([]),
  artifacts: z.array(GivenArtifact).default([]),
  messages: z.array(GivenMessage).default([]),
  ratings: z.array(GivenRating).default([]),
  feedback: z.array(GivenFeedback).default([]),
  score_configs: z.array(GivenScoreConfig).default([]),
});
export type Given = z.output<typeof Given>;

const Fields = z.record(z.string(), z.unknown());

/**
 * Either a rejection, or a recorded outcome with (optionally) the appended events' bodies and
 * their whole envelopes. One object with a check, rather than a union, so a wrong field gets its
 * own message instead of "matches neither form".
 */
export const Expectation = z
  .strictObject({
    rejection: Fields.optional(),
    outcome: Fields.optional(),
    events: z.array(z.unknown()).optional(),
    envelopes: z.array(z.unknown()).optional(),
  })
  .superRefine((expect, ctx) => {
    if ((expect.rejection === undefined) === (expect.outcome === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'needs exactly one of "rejection" or "outcome"' });
    } else if (expect.rejection !== undefined) {
      for (const key of ['events', 'envelopes'] as const) {
        if (expect[key] !== undefined) {
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: `goes with "outcome"; a rejection appends nothing`,
          });
        }
      }
    }
  })
  .transform(
    ({ rejection, outcome, events, envelopes }): ExpectedOutcome =>
      rejection !== undefined ? { rejection } : { outcome: outcome ?? {}, events, envelopes },
  );

export type ExpectedOutcome =
  | { rejection: Record<string, unknown> }
  | {
      outcome: Record<string, unknown>;
      /** The appended events' bodies, in order. */
      events?: unknown[] | undefined;
      /** The appended events' whole envelopes, in order. */
      envelopes?: unknown[] | undefined;
    };

export const ConformanceCase = z.object({
  /** The rule, as a sentence. */
  name: z.string(),
  /** Left for the core to read: a malformed actor or command is itself a case. */
  actor: z.unknown(),
  given: Given.default(Given.parse({})),
  command: z.unknown(),
  expect: Expectation,
});
export type ConformanceCase = z.output<typeof ConformanceCase>;

export const CaseFile = z.object({
  description: z.string(),
  cases: z.array(ConformanceCase).min(1),
});
export type CaseFile = z.output<typeof CaseFile>;
