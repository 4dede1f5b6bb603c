// The workflows' messages (`evalflow/workflows`): inputs, states, signals, queries and updates that
// clients and tests use to talk to evalflow's workflows. The workflow functions themselves stay in
// `./index.ts`, the worker's bundle entry.
export * from './evaluate-run-messages.js';
export * from './evaluate-thread-messages.js';
export * from './mirror-messages.js';
export * from './reevaluate-messages.js';
export * from './review-messages.js';
