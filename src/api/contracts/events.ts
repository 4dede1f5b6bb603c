import { z } from 'zod';
import { READERS } from './callers.js';
import { defineRoutes } from './contract.js';
import { ThreadParams } from './params.js';

// The log as server-sent events: each event's `id` is its seq, so a client that reconnects with
// Last-Event-ID resumes after the last one it saw. Each `data` is the envelope as stored.

const tags = ['events'];
const Resume = z.object({
  /** Resume after this seq (Last-Event-ID, when both are given, wins). */
  after: z.coerce.number().int().min(0).optional(),
});

// Only the stream itself is text/event-stream: a refusal is JSON, as on every other route.
// Before OpenAPI 3.2 (no itemSchema), a stream's `schema` describes each of its events.
const ServerSentEvent = z.object({
  id: z.string().regex(/^\d+$/).describe("The event's seq, to resume from with Last-Event-ID"),
  event: z.string().describe('The event type'),
  data: z.string().describe('The event envelope, as JSON'),
});
const eventStream = {
  description: 'The events, as server-sent events (one envelope each)',
  content: { 'text/event-stream': { schema: ServerSentEvent } },
};

export const eventRoutes = defineRoutes({
  events: {
    method: 'GET',
    path: '/v1/events',
    allow: READERS,
    tags,
    summary: "The workspace's events as server-sent events, resumable with Last-Event-ID",
    query: Resume,
    answers: { 200: eventStream },
  },
  threadEvents: {
    method: 'GET',
    path: '/v1/threads/:threadId/events',
    allow: READERS,
    tags,
    summary: "One thread's events (its feedback included) as server-sent events",
    params: ThreadParams,
    query: Resume,
    answers: { 200: eventStream },
  },
});
