// The multi-process tests' one allowance: a second attempt after a crash inside native code, and
// nothing else (tests/net/helpers/native-crash.ts).
import { describe, expect, it } from 'vitest';
import { againAfterNativeCrash, isNativeCrash } from '../net/helpers/native-crash';

const crash = (signal: string) => new Error(`peer process 4376 exited (${signal})`);

describe('againAfterNativeCrash', () => {
  it('tells a native crash from every other way a peer or a test ends', () => {
    expect(isNativeCrash(crash('SIGSEGV'))).toBe(true);
    expect(isNativeCrash(crash('SIGBUS'))).toBe(true);
    expect(isNativeCrash(crash('SIGILL'))).toBe(true);
    for (const other of [crash('SIGTERM'), crash('SIGKILL'), crash('1'), crash('0'), new Error('not converged on 240 entries: []'), 'SIGSEGV', null])
      expect(isNativeCrash(other)).toBe(false);
    expect(isNativeCrash(new Error(`peer process 4376 exited (SIGSEGV) while waiting for state`))).toBe(true);
    expect(isNativeCrash(new Error(`expected peer process 4376 exited (SIGSEGV)`))).toBe(false);
  });

  it('runs the scenario again once after a native crash, with a reset between, and says so', async () => {
    const calls: string[] = [];
    const result = await againAfterNativeCrash(
      async (attempt) => {
        calls.push(`run ${attempt}`);
        if (attempt === 1) throw crash('SIGSEGV');
        return 'converged';
      },
      async () => void calls.push('reset'),
      (line) => calls.push(line.slice(0, 40)),
    );
    expect(result).toBe('converged');
    expect(calls).toEqual(['run 1', 'a peer process crashed inside @roamhq/wr', 'reset', 'run 2']);
  });

  it('fails at once on any other failure, and on a second native crash', async () => {
    let runs = 0;
    const assertion = new Error('expected 285 to be 280');
    await expect(
      againAfterNativeCrash(
        async () => {
          runs++;
          throw assertion;
        },
        async () => undefined,
        () => undefined,
      ),
    ).rejects.toBe(assertion);
    expect(runs).toBe(1);
    runs = 0;
    await expect(
      againAfterNativeCrash(
        async () => {
          runs++;
          throw crash('SIGSEGV');
        },
        async () => undefined,
        () => undefined,
      ),
    ).rejects.toThrow(/SIGSEGV/);
    expect(runs).toBe(2);
  });
});
