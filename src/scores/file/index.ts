// evalflow's file adapter (`evalflow/scores/file`): scores as JSONL lines, for running without
// Langfuse.
export { JsonlScoreSink } from './jsonl-sink.js';
