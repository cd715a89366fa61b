// Text folding shared by the province look-up and the order tokenizer. Players type on phones,
// with or without accents, capitals and dots ('Moscú', 'moscu', 'St. Petersburg'), so every
// comparison happens on folded text.

/** Lower case, accents removed ('Moscú' -> 'moscu', 'ñ' -> 'n'). Other characters are kept. */
export function fold(text: string): string {
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
  return words(text).join('');
}

/** Optimal-string-alignment distance (Levenshtein plus adjacent transposition), capped: returns
 *  `cap + 1` as soon as the distance is known to exceed `cap`, which keeps look-ups cheap. */
export function editDistance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) > cap) return cap + 1;
  let prev2: number[] = [];
  let prev: number[] = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row: number[] = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, (prev2[j - 2] ?? 0) + 1);
      }
      row.push(d);
      rowMin = Math.min(rowMin, d);
    }
    if (rowMin > cap) return cap + 1;
    prev2 = prev;
    prev = row;
  }
  const d = prev[b.length] ?? cap + 1;
  return d > cap ? cap + 1 : d;
}
