// The peer processes run WebRTC through @roamhq/wrtc, a native module with a history of segfaults
// (node-webrtc/node-webrtc issues 259, 292, 308, 435). JavaScript cannot end a process by SIGSEGV,
// SIGBUS or SIGILL: such an exit is a crash inside native code, not a verdict on the code these
// tests judge (a fresh-clone run on 2026-11-26: one peer of tests/net/multiprocess died by SIGSEGV
// 4 s into a catch-up that passed in every other run). So a scenario whose peer dies that way runs once more, with fresh
// processes; a second native crash, or any other failure, fails the test as it is.

/** How `processes.ts` words the death of a peer process by a signal only native code raises. */
const NATIVE_CRASH = /^peer process \d+ exited \((SIGSEGV|SIGBUS|SIGILL)\)/;

/** Whether `e` says a peer process died inside native code. */
export function isNativeCrash(e: unknown): boolean {
  return e instanceof Error && NATIVE_CRASH.test(e.message);
}

/**
 * Runs `scenario(1)`; if a peer process crashed inside native code, `reset()` (stop its peers) and
 * runs `scenario(2)`, whose outcome stands. Every other failure is thrown at once. `log` hears of a
 * second attempt, so a run's output says it happened.
 */
export async function againAfterNativeCrash<T>(
  scenario: (attempt: number) => Promise<T>,
  reset: () => Promise<void>,
  log: (line: string) => void = (line) => console.warn(line),
): Promise<T> {
  try {
    return await scenario(1);
  } catch (e) {
    if (!isNativeCrash(e)) throw e;
    log(`a peer process crashed inside @roamhq/wrtc (${(e as Error).message}); the scenario runs once more with fresh processes`);
    await reset();
    return scenario(2);
  }
}
