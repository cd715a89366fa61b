// The README's command-line JSON example: the documented input and the documented output.
import { readFileSync } from 'node:fs';

function jsonBlockAfter(text: string, marker: string): unknown {
  const at = text.indexOf(marker);
  if (at < 0) throw new Error(`README has no "${marker}"`);
  const start = text.indexOf('```json\n', at) + '```json\n'.length;
  return JSON.parse(text.slice(start, text.indexOf('```', start)));
}

export function readmeExample(): { input: unknown; output: unknown } {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  return { input: jsonBlockAfter(readme, 'Input:'), output: jsonBlockAfter(readme, 'Output (`--json`):') };
}
