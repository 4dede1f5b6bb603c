import { NativeConnection } from '@temporalio/worker';
import type { TemporalConnectionOptions } from '../config/index.js';
import { optionsOf, type WaitOptions, whenReady } from '../workflow-clients/temporal-ready.js';

/** The worker's connection to Temporal, retried while Temporal starts (as the API's client is). */
export const connectWorkerWhenReady = (
  temporal: string | TemporalConnectionOptions,
  options: WaitOptions = {},
): Promise<NativeConnection> =>
  whenReady(optionsOf(temporal), (o) => NativeConnection.connect(o), options);
