// The bridge's work queue: one FIFO per conversation (its messages run one at a time, in order) and up to
// `concurrency` conversations at once, the one whose next message has waited longest first. In memory: the
// journal is what survives a restart.

export interface QueueItem {
  key: string;
}

export interface WorkQueue<T extends QueueItem> {
  push(item: T): void;
  /** Items waiting (not running), in all conversations and in one. */
  waiting(key?: string): number;
  running(): number;
  /** Resolves when nothing waits or runs. */
  idle(): Promise<void>;
  /** Stops starting work; resolves when running work has finished or after `graceMs`, with what still runs. */
  stop(graceMs: number): Promise<number>;
}

export function createWorkQueue<T extends QueueItem>(options: {
  concurrency: number;
  run: (item: T) => Promise<void>;
  onError: (item: T, error: unknown) => void;
}): WorkQueue<T> {
  const queues = new Map<string, { items: T[]; seq: number[] }>();
  const active = new Set<string>();
  let sequence = 0;
  let waitingCount = 0;
  let stopping = false;
  let idleWaiters: (() => void)[] = [];

  const settleIdle = () => {
    if (waitingCount > 0 || active.size > 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  };

  const pump = () => {
    while (!stopping && active.size < options.concurrency) {
      let bestKey: string | null = null;
      let bestSeq = Number.POSITIVE_INFINITY;
      for (const [key, queue] of queues) {
        if (active.has(key)) continue;
        const head = queue.seq[0];
        if (head !== undefined && head < bestSeq) {
          bestSeq = head;
          bestKey = key;
        }
      }
      if (bestKey === null) return;
      const queue = queues.get(bestKey) as { items: T[]; seq: number[] };
      const item = queue.items.shift() as T;
      queue.seq.shift();
      if (queue.items.length === 0) queues.delete(bestKey);
      waitingCount -= 1;
      active.add(bestKey);
      const key = bestKey;
      void options
        .run(item)
        .catch((error: unknown) => options.onError(item, error))
        .finally(() => {
          active.delete(key);
          pump();
          settleIdle();
        });
    }
  };

  return {
    push(item) {
      const queue = queues.get(item.key) ?? { items: [], seq: [] };
      queue.items.push(item);
      queue.seq.push(sequence++);
      queues.set(item.key, queue);
      waitingCount += 1;
      pump();
    },
    waiting: (key) => (key === undefined ? waitingCount : (queues.get(key)?.items.length ?? 0)),
    running: () => active.size,
    idle: () =>
      waitingCount === 0 && active.size === 0 ? Promise.resolve() : new Promise((resolve) => idleWaiters.push(resolve)),
    async stop(graceMs) {
      stopping = true;
      if (active.size === 0) return 0;
      const drained = new Promise<void>((resolve) => {
        const check = setInterval(() => {
          if (active.size === 0) {
            clearInterval(check);
            resolve();
          }
        }, 20);
        setTimeout(() => {
          clearInterval(check);
          resolve();
        }, graceMs).unref();
      });
      await drained;
      return active.size;
    },
  };
}
