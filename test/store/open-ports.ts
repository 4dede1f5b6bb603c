import type { StoreOptions } from '../../src/store/index.js';

/** A backend opened as some of its ports, and closed as a whole. */
export type Opened<Ports> = Ports & { close(): Promise<void> };

/**
 * How a contract suite opens a backend: as the ports it tests and nothing more, so the suite
 * cannot lean on a member of another port. Each backend's whole `Store` is one.
 */
export type OpenPorts<Ports> = (options: StoreOptions) => Promise<Opened<Ports>>;
