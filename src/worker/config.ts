/**
 * Every environment variable evalflow reads, with what it does. Tests check the README's
 * configuration table and the docker-compose worker's environment against this list.
 */
export const ENVIRONMENT = {
  TEMPORAL_ADDRESS:
    'a Temporal frontend (`host:port`); without it `npm start` runs the CLI dev server',
  TEMPORAL_NAMESPACE: 'the Temporal namespace (default `default`)',
  EVALFLOW_TASK_QUEUE: 'the task queue workers poll (default `evalflow`)',
  TEMPORAL_CLI_PATH: 'the `temporal` CLI executable (else PATH, else `.evalflow/bin`, else PyPI)',
  TEMPORAL_TEST_SERVER_PATH: 'the `temporal-test-server` executable, for time-skipping tests',
  DATABASE_URL:
    'Postgres for the event log and ledger; without it, SQLite at `.evalflow/evalflow.db`',
  LANGFUSE_BASE_URL: 'Langfuse to mirror scores into, with the two keys below',
  LANGFUSE_PUBLIC_KEY: "the Langfuse project's public key (`pk-lf-...`)",
  LANGFUSE_SECRET_KEY: "the Langfuse project's secret key (`sk-lf-...`)",
  EVALFLOW_SCORES_FILE:
    'without Langfuse, the JSONL file scores go to (default `.evalflow/scores.jsonl`)',
  EVALFLOW_JUDGE_BASE_URL: 'an OpenAI-compatible API root for the LLM judge, with the model below',
  EVALFLOW_JUDGE_MODEL: "the LLM judge's model",
  EVALFLOW_JUDGE_API_KEY: "the LLM judge's API key, when its endpoint needs one",
} as const;

export type EnvironmentVariable = keyof typeof ENVIRONMENT;
export type Environment = Partial<Record<EnvironmentVariable, string>>;

export interface Config {
  temporalAddress: string | null;
  namespace: string;
  taskQueue: string;
  databaseUrl: string | null;
  langfuse: { baseUrl: string; publicKey: string; secretKey: string } | null;
  scoresFile: string;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export function loadConfig(env: Environment = process.env): Config {
  const {
    LANGFUSE_BASE_URL: baseUrl,
    LANGFUSE_PUBLIC_KEY: publicKey,
    LANGFUSE_SECRET_KEY: secretKey,
  } = env;
  const langfuseSet = [baseUrl, publicKey, secretKey].filter(Boolean).length;
  if (langfuseSet > 0 && langfuseSet < 3) {
    throw new ConfigError(
      'set all of LANGFUSE_BASE_URL, LANGFUSE_PUBLIC_KEY and LANGFUSE_SECRET_KEY, or none',
    );
  }
  return {
    temporalAddress: env.TEMPORAL_ADDRESS || null,
    namespace: env.TEMPORAL_NAMESPACE || 'default',
    taskQueue: env.EVALFLOW_TASK_QUEUE || 'evalflow',
    databaseUrl: env.DATABASE_URL || null,
    langfuse: baseUrl && publicKey && secretKey ? { baseUrl, publicKey, secretKey } : null,
    scoresFile: env.EVALFLOW_SCORES_FILE || '.evalflow/scores.jsonl',
  };
}
