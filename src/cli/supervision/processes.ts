import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

// Looking at processes this one did not start (a leftover of an earlier run) and at ports.

/**
 * A process's command line, arguments joined by spaces; null when no such process runs (a zombie
 * counts as gone). Linux reads /proc; elsewhere `ps`.
 */
export function commandLineOf(pid: number): string | null {
  if (existsSync('/proc/self/cmdline')) {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      return args.length > 0 ? args.join(' ') : null;
    } catch {
      return null;
    }
  }
  try {
    const line = execFileSync('ps', ['-o', 'command=', '-p', String(pid)], {
      stdio: ['ignore', 'pipe', 'ignore'],
    })
      .toString()
      .trim();
    return line || null;
  } catch {
    return null;
  }
}

/** Whether a process runs, by pid alone (`kill -0`). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return commandLineOf(pid) !== null;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Sends a signal to a process group (a detached child leads its own), else to the process. */
function signal(pid: number, name: NodeJS.Signals): void {
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, name);
      return;
    } catch {
      // No such group: try the process itself.
    }
  }
}

async function exited(pid: number, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (isAlive(pid)) {
    if (Date.now() >= deadline) return false;
    await sleep(50);
  }
  return true;
}

/**
 * Stops a process that is not this one's child: SIGTERM, then SIGKILL if it still runs after
 * `graceMs`. Resolves once it is gone; throws if even SIGKILL did not end it within 5 s.
 */
export async function terminate(pid: number, graceMs: number): Promise<void> {
  signal(pid, 'SIGTERM');
  if (await exited(pid, graceMs)) return;
  signal(pid, 'SIGKILL');
  if (!(await exited(pid, 5_000))) throw new Error(`process ${pid} did not end after SIGKILL`);
}

/** Whether nothing listens on `host:port`: it binds the port for a moment to find out. */
export async function portIsFree(port: number, host: string): Promise<boolean> {
  const server = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port, host, exclusive: true }, resolve);
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') return false;
    throw error;
  }
  await new Promise((resolve) => server.close(resolve));
  return true;
}

/**
 * Waits until nothing listens on any of `ports`; false if one is still held after `withinMs`.
 * A process that exited may hold its sockets a moment longer: Linux drops its command line (which
 * is how `isAlive` sees it gone) before it closes its files, and other threads may outlive it.
 */
export async function portsReleased(
  ports: readonly number[],
  host: string,
  withinMs: number,
): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  for (const port of ports) {
    while (!(await portIsFree(port, host))) {
      if (Date.now() >= deadline) return false;
      await sleep(50);
    }
  }
  return true;
}
