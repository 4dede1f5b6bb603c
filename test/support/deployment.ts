import { type DeploymentOptions, startDeployment } from '../../bench/chaos/deployment.js';
import { freePort } from './free-port.js';
import { temporalBinaries } from './processes.js';

/** The chaos scenarios' deployment, on this run's `temporal` CLI and this worker's ports. */
export const startTestDeployment = (
  options: Omit<DeploymentOptions, 'temporalCli' | 'freePort'> = {},
) =>
  startDeployment({
    temporalCli: temporalBinaries().TEMPORAL_CLI_PATH ?? '',
    freePort,
    ...options,
  });
