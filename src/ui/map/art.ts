// The shape of the board drawing data (map-data.ts is generated from the SVG by scripts/map-svg.ts).
export interface Point {
  readonly x: number;
  readonly y: number;
}

export interface ProvinceArt {
  /** Outline(s) as SVG path data; split-coast provinces are joined into one outline. */
  readonly paths: readonly string[];
  /** Straits and canals drawn inside a land province (Kiel, Denmark, Constantinople). */
  readonly water: readonly string[];
  readonly label: Point;
  /** Where a unit stands (an army, or a fleet on a single-coast province). */
  readonly unit: Point;
  /** Supply-centre marker, if the province is one. */
  readonly centre?: Point;
  /** Where a fleet stands on each coast of a split-coast province. */
  readonly coasts?: Readonly<Record<string, Point>>;
}
