// nextTask (src/ui/game/next-task.ts): one run, in a task after those already queued; with a
// prioritised scheduler (Chromium's scheduler.postTask), at background priority so messages that
// arrive meanwhile are taken in first. Node has no scheduler.postTask: the second test gives it a
// small one that runs background tasks only once no other task waits, as the browser's does.
import { afterEach, describe, expect, it } from 'vitest';
import { nextTask } from '../../src/ui/game/next-task';

type Task = { f: () => void; priority: string; done: (v: unknown) => void; fail: (e: unknown) => void };

describe('nextTask', () => {
  afterEach(() => {
    delete (globalThis as { scheduler?: unknown }).scheduler;
  });

  it('runs once, after a message queued before it', async () => {
    const order: string[] = [];
    const channel = new MessageChannel();
    const got = new Promise<void>((resolve) => {
      channel.port1.onmessage = () => {
        order.push('message');
        channel.port1.close();
        resolve();
      };
    });
    channel.port2.postMessage(null);
    const ran = new Promise<void>((resolve) =>
      nextTask(() => {
        order.push('task');
        resolve();
      }),
    );
    await Promise.all([got, ran]);
    await new Promise((r) => setTimeout(r, 10));
    expect(order).toEqual(['message', 'task']);
  });

  it('with scheduler.postTask: background priority, so tasks queued after it still run before it', async () => {
    const queue: Task[] = [];
    (globalThis as { scheduler?: unknown }).scheduler = {
      // A delayed task (nextTask's fallback against starvation) is due only once nothing else is queued.
      postTask: (f: () => void, o: { priority?: string; delay?: number } = {}) =>
        new Promise((done, fail) => queue.push({ f, priority: (o.delay ?? 0) > 0 ? 'delayed' : (o.priority ?? 'user-visible'), done, fail })),
    };
    const order: string[] = [];
    nextTask(() => order.push('reduce'));
    // Two "messages" arriving after the reduction was asked for.
    const post = (name: string) =>
      void (globalThis as unknown as { scheduler: { postTask: (f: () => void) => Promise<unknown> } }).scheduler.postTask(() => order.push(name));
    post('lock 1');
    post('lock 2');
    // The browser's rule: the highest priority first, in order within a priority.
    while (queue.length > 0) {
      const next = queue.find((t) => t.priority !== 'background' && t.priority !== 'delayed') ?? queue.find((t) => t.priority === 'background') ?? queue[0]!;
      queue.splice(queue.indexOf(next), 1);
      next.f();
      next.done(undefined);
    }
    expect(order).toEqual(['lock 1', 'lock 2', 'reduce']);
  });
});
