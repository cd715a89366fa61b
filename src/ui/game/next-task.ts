// Work deferred to a task of its own, after the tasks already queued: entries arrive one network
// message per task, and when the phone is busy several are queued at once, so a reduction scheduled
// this way sees all of them (one reduction per burst, where a microtask would run one per message).
// Where the browser has a prioritised scheduler (scheduler.postTask: Chromium), the task has
// background priority: it runs once no other task is waiting, so messages that arrive while it
// waits (a round's LOCKs or REVEALs come within milliseconds of each other) are taken in first and
// one reduction sees them all; a page with nothing else to do runs it at once. Elsewhere, a message to itself rather than a timer: timers in a
// hidden page are throttled to once a second.

type PostTask = (f: () => void, options: { readonly priority: 'background' }) => Promise<unknown>;

/** Runs `f` once, in a new task. */
export function nextTask(f: () => void): void {
  const scheduler = (globalThis as { scheduler?: { postTask?: PostTask } }).scheduler;
  if (typeof scheduler?.postTask === 'function') {
    // A throw from f rejects postTask's promise: handed to the page's error reporting, as an
    // exception in any other task would be.
    scheduler.postTask(f, { priority: 'background' }).catch((e: unknown) => reportError(e));
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
