// Text folding shared by the province look-up and the order tokenizer. Players type on phones,
// with or without accents, capitals and dots ('Moscú', 'moscu', 'St. Petersburg'), so every
// comparison happens on folded text.

/** Anything but printable ASCII, tab and line ends: the only text fold must decompose. */
const NON_ASCII = /[^ -~\t\n\r]/;

/** Lower case, accents removed ('Moscú' -> 'moscu', 'ñ' -> 'n'). Other characters are kept.
 *  Plain ASCII, most of what players type, skips the Unicode decomposition: it has nothing to remove. */
export function fold(text: string): string {
  if (!NON_ASCII.test(text)) return text.toLowerCase();
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

/** Folded words: letters and digits only ('St. Petersburg' -> ['st', 'petersburg']). */
export function words(text: string): string[] {
  return fold(text)
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

/** Folded text with every non-alphanumeric character removed: the key names are compared by. */
export function compact(text: string): string {
  // The same as words(text).join(''), in one pass.
  return fold(text).replace(/[^a-z0-9]+/g, '');
}

/** Optimal-string-alignment distance (Levenshtein plus adjacent transposition), capped: returns
 *  `cap + 1` as soon as the distance is known to exceed `cap`, which keeps look-ups cheap. */
export function editDistance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) > cap) return cap + 1;
  if (a === b) return 0;
  // Three rows of the table, reused: the look-ups call this for many names in a row.
  const width = b.length + 1;
  let prev2 = new Int32Array(width);
  let prev = new Int32Array(width);
  let row = new Int32Array(width);
  for (let j = 0; j < width; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    let rowMin = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const bj = b.charCodeAt(j - 1);
      const cost = ai === bj ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj) {
        d = Math.min(d, prev2[j - 2]! + 1);
      }
      row[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > cap) return cap + 1;
    const spare = prev2;
    prev2 = prev;
    prev = row;
    row = spare;
  }
  const d = prev[b.length]!;
  return d > cap ? cap + 1 : d;
}
