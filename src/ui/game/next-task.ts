// Work deferred to a task of its own, after the tasks already queued: entries arrive one network
// message per task, and when the phone is busy several are queued at once, so a reduction scheduled
// this way sees all of them (one reduction per burst, where a microtask would run one per message).
// A message to itself rather than a timer: timers in a hidden page are throttled to once a second.

/** Runs `f` once, in a new task. */
export function nextTask(f: () => void): void {
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
