// What the CLI's long-running commands share: run the services they started until a signal, or
// until one of them stops by itself, then stop them all, last started first.

/** A started service: the engine (`startEngine`), the API (`startApi`). */
export interface Service {
  /** Settles when the service has stopped, by `stop()` or by failing. */
  readonly done: Promise<void>;
  stop(): Promise<void>;
}

/** Stops the services, last started first, on SIGINT or SIGTERM, or when any stops by itself. */
export async function runUntilStopped(services: Service[]): Promise<void> {
  let stopping: Promise<void> | null = null;
  const stopAll = () => {
    stopping ??= (async () => {
      for (const service of [...services].reverse()) await service.stop();
    })();
    return stopping;
  };
  process.once('SIGINT', () => void stopAll());
  process.once('SIGTERM', () => void stopAll());
  await Promise.race(services.map((service) => service.done));
  await stopAll();
}
