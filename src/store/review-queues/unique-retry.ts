const UNIQUE_VIOLATION = '23505';
const ATTEMPTS = 3;

/**
 * Runs `work` again when Postgres refuses it for a unique index (a reviewer's second slot of an
 * item, taken by a concurrent claim or verdict): the next attempt sees what the other one wrote.
 */
export async function retryOnUniqueViolation<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code !== UNIQUE_VIOLATION || attempt >= ATTEMPTS) throw error;
    }
  }
}
