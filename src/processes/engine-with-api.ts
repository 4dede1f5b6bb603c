import { type ApiProcess, type ApiProcessOptions, startApi } from '../api/index.js';
import { type Engine, type EngineOptions, startEngine } from '../worker/index.js';

/** An engine and the API it serves, in one process. */
export interface EngineWithApi {
  engine: Engine;
  api: ApiProcess;
}

/**
 * Starts the engine, then the API on the engine's store: the API tells the engine when score
 * configs change and adds its figures to the engine's metrics registry, so the process has one
 * store, one metrics endpoint and one tracing. An API that fails to start stops the engine it started.
 */
export async function startEngineWithApi(
  engineOptions: EngineOptions,
  apiOptions: Pick<ApiProcessOptions, 'logRequests'> = {},
): Promise<EngineWithApi> {
  const engine = await startEngine(engineOptions);
  try {
    const api = await startApi({
      config: engineOptions.config,
      app: engineOptions.app,
      temporal: engineOptions.temporal,
      shared: {
        store: engine.deps.store,
        onScoreConfigsChanged: () => engine.deps.forgetScoreConfigs(),
        metrics: engine.metrics.registry,
      },
      ...apiOptions,
      // The workflows it starts or signals get spans of the engine's tracing.
      ...(engineOptions.tracing
        ? { clientInterceptors: engineOptions.tracing.clientInterceptors }
        : {}),
    });
    return { engine, api };
  } catch (error) {
    await engine.stop().catch(() => {});
    throw error;
  }
}
