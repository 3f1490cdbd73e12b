const LATE = Symbol('late');

/**
 * What `work` settles with, or else what `onLate` returns (or throws) once `ms` have passed: a time
 * limit on a promise. The timer is cleared as soon as either side wins; `work` itself runs on, as a
 * promise cannot be cancelled, and a later rejection of it is handled (ignored).
 */
export async function withinTime<T, L>(work: PromiseLike<T>, ms: number, onLate: () => L): Promise<T | L> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<typeof LATE>((resolve) => {
    timer = setTimeout(resolve, ms, LATE);
  });
  try {
    const outcome = await Promise.race([work, late]);
    return outcome === LATE ? onLate() : outcome;
  } finally {
    clearTimeout(timer);
  }
}
