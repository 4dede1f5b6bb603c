// evalflow's file adapters, for running without Langfuse: scores and score configs kept in JSONL
// files that are appended to and replayed on read.
export { FileScoreConfigStore } from './config-store.js';
export { ScoreConfigFileError } from './errors.js';
export { JsonlScoreSink } from './jsonl-sink.js';
