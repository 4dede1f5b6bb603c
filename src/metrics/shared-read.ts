/**
 * One read for every gauge a scrape collects from it (and for scrapes that overlap it): the
 * store is asked once per scrape, however many gauges show its figures.
 */
export function sharedRead<T>(read: () => Promise<T>): () => Promise<T> {
  let reading: Promise<T> | null = null;
  return () => {
    reading ??= read().finally(() => {
      reading = null;
    });
    return reading;
  };
}
