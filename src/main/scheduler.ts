/** A running periodic job. */
export interface Scheduler {
  /** Stops scheduling and waits for a run in progress to finish. */
  stop(): Promise<void>;
}

export type StartSchedulerParameters = {
  /** Time between the end of one run and the start of the next. */
  intervalMs: number;
  /** One run. Its errors are reported through `onError`; the schedule goes on. */
  run: () => Promise<void>;
  onError: (error: unknown) => void;
};

/**
 * Runs `run` every `intervalMs`, never two at once (the next run is scheduled when the previous one ends).
 *
 * @param {@link StartSchedulerParameters}
 * @returns a {@link Scheduler}.
 */
export function startScheduler({ intervalMs, run, onError }: StartSchedulerParameters): Scheduler {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = null;
      running = run()
        .catch(onError)
        .finally(() => {
          running = null;
          schedule();
        });
    }, intervalMs);
  };
  schedule();

  return {
    async stop() {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      if (running) await running;
    },
  };
}
