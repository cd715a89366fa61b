// Adversarial review of nextTask at background priority (src/ui/game/next-task.ts): the runner's
// reduction of arriving entries waits in a background task, which the browser runs only once no
// task of a higher priority waits. A hostile peer (or relay) that keeps this phone's queue full of
// messages (every frame is a task; the gate refuses garbage in well under a millisecond, so a
// stream of them costs the peer nothing) would then keep the reduction from ever running: the
// phone would never see the others' LOCKs, never REVEAL, and stall the phase for everyone. The
// reduction must still run, within a bound, while such a stream goes on. The scheduler here is a
// small model of the browser's (priorities, in order within one, `delay` on a virtual clock), so
// nothing is timed.
import { afterEach, describe, expect, it } from 'vitest';
import { nextTask } from '../../src/ui/game/next-task';

type Priority = 'user-blocking' | 'user-visible' | 'background';
interface Task {
  readonly f: () => void;
  readonly priority: Priority;
  readonly at: number;
  readonly order: number;
  readonly done: (v: unknown) => void;
  readonly fail: (e: unknown) => void;
}
const rank: Record<Priority, number> = { 'user-blocking': 0, 'user-visible': 1, background: 2 };

/** The browser's rule: of the tasks due (their delay passed), the highest priority first, in order within a priority. */
function fakeScheduler() {
  const queue: Task[] = [];
  let clock = 0;
  let order = 0;
  const postTask = (f: () => void, o: { priority?: Priority; delay?: number } = {}) =>
    new Promise((done, fail) => queue.push({ f, priority: o.priority ?? 'user-visible', at: clock + (o.delay ?? 0), order: order++, done, fail }));
  /** Runs one task (each takes `cost` ms of virtual time); false when none is due or queued. */
  const step = (cost = 1): boolean => {
    const due = queue.filter((t) => t.at <= clock);
    if (due.length === 0) {
      if (queue.length === 0) return false;
      clock = Math.min(...queue.map((t) => t.at));
      return true;
    }
    const next = due.sort((a, b) => rank[a.priority] - rank[b.priority] || a.order - b.order)[0]!;
    queue.splice(queue.indexOf(next), 1);
    clock += cost;
    try {
      next.f();
      next.done(undefined);
    } catch (e) {
      next.fail(e);
    }
    return true;
  };
  return { postTask, step, now: () => clock };
}

describe('nextTask under a stream of messages', () => {
  afterEach(() => {
    delete (globalThis as { scheduler?: unknown }).scheduler;
  });

  it('a reduction asked for while a peer keeps the queue full of messages still runs, within a bound', () => {
    const s = fakeScheduler();
    (globalThis as { scheduler?: unknown }).scheduler = { postTask: s.postTask };
    // The hostile stream: each message's task queues the next one (a frame arrives every millisecond).
    let messages = 0;
    const message = () => {
      messages++;
      void s.postTask(message, { priority: 'user-visible' });
    };
    void s.postTask(message, { priority: 'user-visible' });
    let reducedAt: number | null = null;
    nextTask(() => (reducedAt ??= s.now()));
    for (let i = 0; i < 10_000 && reducedAt === null; i++) s.step();
    expect(messages).toBeGreaterThan(0);
    expect(reducedAt, 'the reduction never ran while the stream went on').not.toBeNull();
    expect(reducedAt!).toBeLessThan(1_000);
  });

  it('runs once only, and, with nothing else queued, at once', () => {
    const s = fakeScheduler();
    (globalThis as { scheduler?: unknown }).scheduler = { postTask: s.postTask };
    let runs = 0;
    nextTask(() => runs++);
    s.step();
    expect(runs).toBe(1);
    while (s.step());
    expect(runs).toBe(1);
  });

  it('messages queued after it still go first when they do not starve it (the coalescing the background priority is for)', () => {
    const s = fakeScheduler();
    (globalThis as { scheduler?: unknown }).scheduler = { postTask: s.postTask };
    const order: string[] = [];
    nextTask(() => order.push('reduce'));
    void s.postTask(() => order.push('lock 1'));
    void s.postTask(() => order.push('lock 2'));
    while (s.step());
    expect(order).toEqual(['lock 1', 'lock 2', 'reduce']);
  });
});
