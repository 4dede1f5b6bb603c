/**
 * A Langfuse-compatible HTTP server for tests, on 127.0.0.1 and a free port. Every request and
 * response is validated against Langfuse's OpenAPI spec (`langfuse-openapi.yml`, compiled once per
 * process with openapi-backend and ajv-formats): a request that breaks it is answered 400, and an
 * answer of the server's that would break it becomes a 500 listed by `violations()`.
 *
 * The Langfuse behaviours it reproduces:
 * - Basic auth with the project's public and secret key; anything else is 401.
 * - `POST /api/public/ingestion` answers 207 with an entry per event: shape and score checks
 *   (value type per data type, BOOLEAN 1/0, TEXT 1–500 characters, one target, observation needs
 *   trace, environment) fail one event, not the batch. Envelope ids are de-duplicated, and an
 *   event without `body.id` is reported a success and lost (langfuse#14797). Over 3.5 MB is 413.
 *   The envelope timestamp becomes the score's.
 * - `POST /api/public/scores` stamps "now" (the server's clock) and answers 200 `{id}`.
 * - Upsert identity: a write replaces a row only when id, name and UTC date of the timestamp all
 *   match, keeping the first write's timestamp, trace, environment and creation time; otherwise
 *   it adds a row, and reads show both.
 * - Writes become visible only `lagMs` after acceptance, on an injectable clock (`now`).
 * - The worker silently drops a score whose config is missing or archived, whose data type
 *   differs from its config's, or whose value breaks the config (range, category labels), and
 *   gives a linked score its config's name. A drop fraction (by hash of the score id, so runs
 *   repeat) or predicate loses accepted scores too; `dropped()` says which and why.
 * - `GET /api/public/v3/scores`: filters (id, name, dataType, environment, configId, traceId,
 *   sessionId, observationId, source, time range), `limit` ≤ 100, `fields` groups, base64url
 *   cursor pages, newest first, BOOLEAN read back as true/false, metadata as string to string.
 * - `DELETE /api/public/scores/{id}` answers 202 and deletes after the lag (Langfuse's spec says
 *   204, which is why that answer is not checked against it); an id not visible is 404. A
 *   fraction (by hash of the id) or predicate makes accepted deletes do nothing, as Langfuse's
 *   sometimes do (langfuse#10692, #11070); `ignoredDeletes()` lists them.
 * - Score configs: create (name 1–35 of `[A-Za-z0-9_ .()-]`, categories only for CATEGORICAL,
 *   BOOLEAN categories generated, bounds only for NUMERIC with max > min), list with pages and
 *   archived included, get, and PATCH (archive). Names are not unique; there is no delete.
 * - Injected faults for the next requests: any status (5xx), 429 with `Retry-After` and the
 *   rate-limit headers and body, timeouts that hold the answer, and a 207 refusing every event
 *   with a given status; each may be `applied` first, as when only the answer is lost. Or such
 *   faults at random, for a fraction of all requests (`setRandomFaults`).
 *
 * Not reproduced: other event types are accepted and ignored, Bearer auth with the public key
 * alone, rate limits without injection, and the v3 value / queue / author / experiment filters
 * (refused with 400 rather than ignored).
 */
export {
  type Fault,
  LangfuseTestServer,
  type LangfuseTestServerOptions,
  type RandomFaults,
  type RequestRecord,
} from './server.js';
export {
  type DroppedScore,
  type DropRule,
  type IgnoreDeletesRule,
  idFraction,
  type StoredConfig,
  type StoredScore,
} from './store.js';
