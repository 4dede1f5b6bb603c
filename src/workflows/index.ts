// The worker's workflow bundle: every workflow evalflow runs, and nothing that does I/O.
export { evaluateRun } from './evaluate-run.js';
export { evaluateThread } from './evaluate-thread.js';
export { ingestTrace } from './ingest-trace.js';
export { mirror } from './mirror.js';
export { reevaluate } from './reevaluate.js';
export { review } from './review.js';
