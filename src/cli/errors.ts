// The CLI's own errors: each message says what is wrong and what to do about it.

/**
 * Thrown when a port the dev server needs is held by a program that is not a dev server this
 * `.evalflow` folder started (that one would have been stopped instead).
 */
export class DevServerPortInUseError extends Error {
  override readonly name = 'DevServerPortInUseError';
  constructor(
    readonly port: number,
    /** The `evalflow start` option that picks another port. */
    readonly option: '--port' | '--ui-port',
  ) {
    super(
      `port ${port} is in use by another program, not a Temporal dev server evalflow started ` +
        `here; stop that program, or pick another port with ${option} <port>` +
        (option === '--port'
          ? `, or set TEMPORAL_ADDRESS=127.0.0.1:${port} to use a Temporal server running there`
          : ''),
    );
  }
}

/**
 * Thrown when the dev server of this state file belongs to an `evalflow start` that is still
 * running: two engines on one state file would corrupt it, and stopping the other's server
 * would break it.
 */
export class DevServerInUseError extends Error {
  override readonly name = 'DevServerInUseError';
  constructor(
    /** The dev server's state file. */
    readonly stateFile: string,
    readonly serverPid: number,
    /** The process that started it and still runs. */
    readonly ownerPid: number,
  ) {
    super(
      `another evalflow start (pid ${ownerPid}) is running its Temporal dev server (pid ` +
        `${serverPid}) on ${stateFile}; stop it first, or start from another folder`,
    );
  }
}

/** Thrown when a command's arguments or flags cannot work; the CLI prints it on one line. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Thrown when Temporal does not answer at the address a command was given. */
export class TemporalUnreachableError extends Error {
  override readonly name = 'TemporalUnreachableError';
  constructor(
    readonly address: string,
    options?: ErrorOptions,
  ) {
    super(
      `Temporal at ${address} did not answer; start the engine (evalflow start), or set ` +
        'TEMPORAL_ADDRESS to a running Temporal frontend',
      options,
    );
  }
}
