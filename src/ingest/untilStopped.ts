import { throwIfStopped, type PassFence } from "../storage/leaderLease";

/** `work`, or the fence's stop error as soon as its signal aborts (the abandoned work's outcome is ignored). */
export async function untilStopped<T>(work: Promise<T>, fence: PassFence | undefined): Promise<T> {
  const signal = fence?.signal;
  if (!signal) return work;
  work.catch(() => undefined);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      try {
        throwIfStopped(fence);
      } catch (error) {
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- throwIfStopped throws only its stop errors (LeaseLostError, PassAbortedError)
        reject(error);
      }
    };
    signal.addEventListener("abort", onAbort, { once: true });
    if (signal.aborted) onAbort();
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
