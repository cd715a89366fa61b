// Work deferred to a task of its own, after the tasks already queued: entries arrive one network
// message per task, and when the phone is busy several are queued at once, so a reduction scheduled
// this way sees all of them (one reduction per burst, where a microtask would run one per message).
// Where the browser has a prioritised scheduler (scheduler.postTask: Chromium), the task has
// background priority: it runs once no other task is waiting, so messages that arrive while it
// waits (a round's LOCKs or REVEALs come within milliseconds of each other) are taken in first and
// one reduction sees them all; a page with nothing else to do runs it at once. Elsewhere, a message to itself rather than a timer: timers in a
// hidden page are throttled to once a second.
// A background task may wait for ever while other tasks keep coming (the API bounds nothing), and
// anyone with the invite can keep a phone's queue full (a stream of frames the gate refuses, each a
// task): the reduction would never run, the phone never see the others' LOCKs nor REVEAL, and the
// phase stall for everyone. So the same run is also posted at the default priority, delayed by
// STARVED_MS: whichever comes first runs it, the other does nothing (tests/ui/attack-next-task).

type PostTask = (f: () => void, options: { readonly priority: 'background' | 'user-visible'; readonly delay?: number }) => Promise<unknown>;

/** How long a background task may wait behind other tasks before it runs at the default priority. */
export const STARVED_MS = 250;

/** Runs `f` once, in a new task. */
export function nextTask(f: () => void): void {
  const scheduler = (globalThis as { scheduler?: { postTask?: PostTask } }).scheduler;
  if (typeof scheduler?.postTask === 'function') {
    // A throw from f rejects postTask's promise: handed to the page's error reporting, as an
    // exception in any other task would be.
    let ran = false;
    const once = () => {
      if (ran) return;
      ran = true;
      f();
    };
    for (const options of [{ priority: 'background' } as const, { priority: 'user-visible', delay: STARVED_MS } as const])
      scheduler.postTask(once, options).catch((e: unknown) => reportError(e));
    return;
  }
  if (typeof MessageChannel === 'undefined') {
    setTimeout(f, 0);
    return;
  }
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    channel.port1.close();
    f();
  };
  channel.port2.postMessage(null);
}
