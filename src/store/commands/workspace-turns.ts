/**
 * Runs work for one workspace at a time in this process, in the order it arrives; work for
 * different workspaces runs side by side. Other processes are kept in order by the database
 * (the workspace's row and its seq), this only keeps one process's appends off each other's
 * warm state.
 */
export class WorkspaceTurns {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(workspace_id: string, work: () => Promise<T>): Promise<T> {
    const before = this.tails.get(workspace_id) ?? Promise.resolve();
    const result = before.then(work, work);
    const tail = result.then(
      () => {},
      () => {},
    );
    this.tails.set(workspace_id, tail);
    void tail.then(() => {
      if (this.tails.get(workspace_id) === tail) this.tails.delete(workspace_id);
    });
    return result;
  }
}
