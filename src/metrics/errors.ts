// The metrics' errors.

/** Thrown when the metrics endpoint's port is taken by another program (or another evalflow). */
export class MetricsPortInUseError extends Error {
  override readonly name = 'MetricsPortInUseError';
  constructor(
    readonly host: string,
    readonly port: number,
  ) {
    super(
      `the metrics port ${host}:${port} is in use; pick another with --metrics-port or EVALFLOW_METRICS_PORT`,
    );
  }
}
