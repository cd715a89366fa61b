// The README documents the command line's JSON interface with an example; this keeps the example
// true: the documented input, run through the real command, gives exactly the documented output.
import { readFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { main } from '../../src/cli/main';

function jsonBlockAfter(text: string, marker: string): unknown {
  const at = text.indexOf(marker);
  expect(at, `README has "${marker}"`).toBeGreaterThan(-1);
  const start = text.indexOf('```json\n', at) + '```json\n'.length;
  return JSON.parse(text.slice(start, text.indexOf('```', start)));
}

it('the README JSON example is what pacto adjudicate --json prints', async () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const input = jsonBlockAfter(readme, 'Input:');
  const documented = jsonBlockAfter(readme, 'Output (`--json`):');
  const file = join(mkdtempSync(join(tmpdir(), 'pacto-readme-')), 'in.json');
  writeFileSync(file, JSON.stringify(input));
  let out = '';
  expect(await main(['adjudicate', file, '--json'], (s) => (out += s))).toBe(0);
  expect(JSON.parse(out)).toEqual(documented);
});
