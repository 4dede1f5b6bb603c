// The package's public surface: each module's index names what it exports.
export * from './core/index.js';
export * from './evaluators/index.js';
export * from './scores/index.js';
