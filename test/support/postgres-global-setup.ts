import type { TestProject } from 'vitest/node';
import { startThrowawayCluster } from './postgres-cluster.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The Postgres every store test uses; each test file works in a fresh schema of it. */
    databaseUrl: string;
  }
}

/** DATABASE_URL when set, else a throwaway cluster for this run, stopped at teardown. */
export default async function setup(project: TestProject) {
  const given = process.env.DATABASE_URL;
  if (given) {
    project.provide('databaseUrl', given);
    return;
  }
  const cluster = await startThrowawayCluster();
  project.provide('databaseUrl', cluster.url);
  return () => cluster.stop();
}
