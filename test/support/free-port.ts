import { createServer } from 'node:net';

// Test files run side by side, and each hands ports to the servers it starts. A port the kernel
// picks (port 0) comes from the ephemeral range, which every outgoing connection on the machine
// also draws from, so it can be taken between the pick and the server's bind. These come from
// below that range (Linux's starts at 32768), from a block of the vitest worker's own, so two
// files running at once never pick the same one, and nothing outgoing takes it.
const FIRST_PORT = 20_000;
const BLOCK_SIZE = 600;
const BLOCKS = 20;
const pool = Number(process.env.VITEST_POOL_ID ?? 0) % BLOCKS;
// A new file on the same worker starts further on: the last file's servers may linger a moment.
let offset = Math.floor(Math.random() * BLOCK_SIZE);

/** A loopback port nothing listens on right now, from this worker's own block. */
export async function freePort(): Promise<number> {
  for (let tried = 0; tried < BLOCK_SIZE; tried += 1) {
    offset = (offset + 1) % BLOCK_SIZE;
    const port = FIRST_PORT + pool * BLOCK_SIZE + offset;
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port in block ${pool} (${FIRST_PORT + pool * BLOCK_SIZE}+)`);
}

function canListen(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
