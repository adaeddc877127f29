/**
 * The batches of a long read (an export), each next one asked for before the one in hand is handed on,
 * so that the database reads it while the caller makes this one into text and sends it. Read one after
 * the other, a PostgreSQL export's server sat idle for a third of its time, waiting on each batch.
 *
 * `following` asks for the batch after the one given, or says there is none. A caller that stops early
 * (a download cut off) leaves the batch on its way unawaited: its failure is handled, so that it cannot
 * stop the process, and still reaches a loop that awaits it.
 *
 * @example
 * ```ts
 * for await (const page of readAhead(read({}), (page) => page.next && read({ after: page.next }))) write(page);
 * ```
 */
export async function* readAhead<T>(
  first: Promise<T>,
  following: (batch: T) => Promise<T> | undefined,
): AsyncGenerator<T> {
  let next: Promise<T> | undefined = handled(first);
  while (next) {
    const batch = await next;
    const after = following(batch);
    next = after && handled(after);
    yield batch;
  }
}

function handled<T>(asked: Promise<T>): Promise<T> {
  asked.catch(() => undefined);
  return asked;
}
