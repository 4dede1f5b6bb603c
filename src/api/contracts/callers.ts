// The sets of keys routes of several groups allow, named once so a route says whom it serves.

/** Every key that reads the workspace's records: the system's, its admins', agents', reviewers'. */
export const READERS = ['system', 'admin', 'agent', 'reviewer'] as const;
/** The keys that run the workspace: the system's and its admins'. */
export const OPERATORS = ['system', 'admin'] as const;
