// The package's public surface: each module's index names what it exports.
export {};
export * from './scores/index.js';
