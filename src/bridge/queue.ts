// The bridge's work queue: one FIFO per conversation (its messages run one at a time, in order) and up to
// `concurrency` conversations at once, the one whose next message has waited longest first. An item whose run
// answers `{ retryInMs }` (a reply the chat would not take yet) goes back to the head of its conversation and gives
// up its slot: that conversation waits that long, the others go on. A wait that is for the chat (`forChat`) ends
// early on `wake()`: the chat took a post, so what waited on it goes now, not when its own backoff says (issue 31).
// In memory: the journal survives a restart.

export interface QueueItem {
  key: string;
}

/** A run's answer for an item that is not finished: run it again after `retryInMs`, first in its conversation. */
export interface RetryLater {
  retryInMs: number;
  /** The wait is for the chat to take posts again: `wake()` ends it (a wait for the disk is not ended early). */
  forChat?: boolean;
}

export interface WorkQueue<T extends QueueItem> {
  push(item: T): void;
  /** Items waiting (not running; those waiting to be retried included), in all conversations and in one. */
  waiting(key?: string): number;
  running(): number;
  /** Ends every wait for the chat now (each conversation still runs in order); `woken` sees each item whose wait
   *  ended; returns how many were waiting. */
  wake(woken?: (item: T) => void): number;
  /** Resolves when nothing waits or runs. */
  idle(): Promise<void>;
  /** Stops starting work (items waiting to be retried stay where they are); resolves when running work has
   *  finished or after `graceMs`, with what still runs. */
  stop(graceMs: number): Promise<number>;
}

export function createWorkQueue<T extends QueueItem>(options: {
  concurrency: number;
  run: (item: T) => Promise<RetryLater | undefined>;
  onError: (item: T, error: unknown) => void;
}): WorkQueue<T> {
  // `readyAt`: a conversation whose head waits to be retried is skipped until then (epoch ms); `forChat`: that wait
  // is for the chat, and wake() ends it.
  const queues = new Map<string, { items: T[]; seq: number[]; readyAt: number; forChat: boolean }>();
  const timers = new Set<NodeJS.Timeout>();
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
      const now = Date.now();
      for (const [key, queue] of queues) {
        if (active.has(key) || queue.readyAt > now) continue;
        const head = queue.seq[0];
        if (head !== undefined && head < bestSeq) {
          bestSeq = head;
          bestKey = key;
        }
      }
      if (bestKey === null) return;
      const queue = queues.get(bestKey) as { items: T[]; seq: number[]; readyAt: number; forChat: boolean };
      const item = queue.items.shift() as T;
      const seq = queue.seq.shift() as number;
      if (queue.items.length === 0) queues.delete(bestKey);
      waitingCount -= 1;
      active.add(bestKey);
      const key = bestKey;
      void options
        .run(item)
        .then(
          (answer) => {
            if (answer !== undefined) retryLater(item, seq, answer.retryInMs, answer.forChat === true);
          },
          (error: unknown) => options.onError(item, error),
        )
        .finally(() => {
          active.delete(key);
          pump();
          settleIdle();
        });
    }
  };

  /** Back to the head of its conversation, which waits `ms` (a timer wakes the pump; it keeps no process alive). */
  const retryLater = (item: T, seq: number, ms: number, forChat: boolean) => {
    const queue = queues.get(item.key) ?? { items: [], seq: [], readyAt: 0, forChat: false };
    queue.items.unshift(item);
    queue.seq.unshift(seq);
    const readyAt = Date.now() + Math.max(0, ms);
    queue.readyAt = readyAt;
    queue.forChat = forChat;
    queues.set(item.key, queue);
    waitingCount += 1;
    const timer = setTimeout(
      () => {
        timers.delete(timer);
        // Ready now, whatever the clock says (a timer may fire a millisecond before Date.now() reaches readyAt).
        const waiting = queues.get(item.key);
        if (waiting !== undefined && waiting.readyAt === readyAt) {
          waiting.readyAt = 0;
          waiting.forChat = false;
        }
        pump();
      },
      Math.max(0, ms),
    );
    timer.unref();
    timers.add(timer);
  };

  return {
    push(item) {
      const queue = queues.get(item.key) ?? { items: [], seq: [], readyAt: 0, forChat: false };
      queue.items.push(item);
      queue.seq.push(sequence++);
      queues.set(item.key, queue);
      waitingCount += 1;
      pump();
    },
    waiting: (key) => (key === undefined ? waitingCount : (queues.get(key)?.items.length ?? 0)),
    running: () => active.size,
    wake(woken) {
      // The timers stay: one that fires after a wake finds its readyAt gone and only pumps.
      let count = 0;
      for (const queue of queues.values()) {
        if (!queue.forChat || queue.readyAt === 0) continue;
        queue.readyAt = 0;
        queue.forChat = false;
        count += 1;
        const head = queue.items[0];
        if (head !== undefined) woken?.(head);
      }
      if (count > 0) pump();
      return count;
    },
    idle: () =>
      waitingCount === 0 && active.size === 0 ? Promise.resolve() : new Promise((resolve) => idleWaiters.push(resolve)),
    async stop(graceMs) {
      stopping = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
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
