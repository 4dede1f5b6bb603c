/**
 * Every environment variable evalflow reads, with what it does. The README's configuration table
 * and the docker-compose test are checked against this list.
 */
export const ENVIRONMENT = {
  TEMPORAL_ADDRESS: 'A Temporal frontend (host:port); without it `start` runs the CLI dev server.',
  TEMPORAL_NAMESPACE: 'The Temporal namespace (default `default`).',
  EVALFLOW_TASK_QUEUE: 'The task queue workers poll (default `evalflow`).',
  TEMPORAL_CLI_PATH: 'The `temporal` CLI executable, used for the dev server.',
  TEMPORAL_TEST_SERVER_PATH: 'The `temporal-test-server` executable, used by time-skipping tests.',
} as const;

export type EnvironmentVariable = keyof typeof ENVIRONMENT;

export interface Config {
  temporalAddress: string | null;
  namespace: string;
  taskQueue: string;
}

export function loadConfig(
  env: Partial<Record<EnvironmentVariable, string>> = process.env,
): Config {
  return {
    temporalAddress: env.TEMPORAL_ADDRESS || null,
    namespace: env.TEMPORAL_NAMESPACE || 'default',
    taskQueue: env.EVALFLOW_TASK_QUEUE || 'evalflow',
  };
}
