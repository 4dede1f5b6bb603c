// A part of the page that could not be read or done, with the words of the error that stopped
// it: shown in that part's place, while the rest of the page shows.

export type Refused = { refused: string };

export const refusedBy = (error: unknown): Refused => ({
  refused: error instanceof Error ? error.message : String(error),
});
