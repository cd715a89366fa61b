// The README documents the command line's JSON interface with an example; this keeps the example
// true: the documented input, run through the real command, gives exactly the documented output.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { CLIS } from './clis';
import { readmeExample } from './readme-example';

it.each(CLIS)('the README JSON example is what pacto adjudicate --json prints (%s)', async (_name, main) => {
  const { input, output } = readmeExample();
  const file = join(mkdtempSync(join(tmpdir(), 'pacto-readme-')), 'in.json');
  writeFileSync(file, JSON.stringify(input));
  let out = '';
  expect(await main(['adjudicate', file, '--json'], (s) => (out += s))).toBe(0);
  expect(JSON.parse(out)).toEqual(output);
});
