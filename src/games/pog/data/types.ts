// The shapes of Paths of Glory's data: the map, the units, the strategy cards and the set-up.
// The facts are the game's (Paths of Glory, by Ted Raicer, GMT Games); the format is ours.

/** The two sides: the Allied Powers and the Central Powers. */
export type Side = 'ap' | 'cp';

/** Every nation or territory the map or the counters name.
 *  ap: br Britain, fr France, be Belgium, ru Russia, sb Serbia, mn Montenegro, it Italy, ro Romania,
 *  gr Greece, us United States. cp: ge Germany, ah Austria-Hungary, tu Turkey, bu Bulgaria, sn the
 *  Senussi. Territories with no units of their own: al Albania, pe Persia, ar Arabia, eg Egypt,
 *  none (the four MEF beach spaces). */
export type Nation =
  'br' | 'fr' | 'be' | 'ru' | 'sb' | 'mn' | 'it' | 'ro' | 'gr' | 'us' | 'ge' | 'ah' | 'tu' | 'bu' | 'sn' | 'al' | 'pe' | 'ar' | 'eg' | 'none';

export type Terrain = 'clear' | 'mountain' | 'forest' | 'desert' | 'swamp';

export interface Space {
  /** Our id: the English name in lower case with dashes ("bar-le-duc"). */
  readonly id: string;
  /** The name as printed on the map (English). */
  readonly name: string;
  /** Which map the space is on: Europe or the Near East inset. */
  readonly map: 'europe' | 'neareast';
  readonly nation: Nation;
  /** The side that controls the space at the start. */
  readonly side: Side;
  readonly terrain: Terrain;
  /** The fort's value (its combat and loss factor), absent when the space has no fort. */
  readonly fort?: number;
  /** A victory point space (red name on the map). */
  readonly vp?: boolean;
  /** A supply source (14.2). */
  readonly supplySource?: boolean;
  /** A port, and for which side. */
  readonly port?: Side;
  /** A national capital (star). */
  readonly capital?: boolean;
  /** The centre of the space on the source's board picture, in its pixels: only to lay out the
   *  project's own schematic drawing. */
  readonly x: number;
  readonly y: number;
}

/** Who alone may use a restricted connection (a dotted line on the map): the units of one nation,
 *  'mef' the MEF landing (the Allied units tracing supply through the MEF beachhead), 'ana' the
 *  British Arab Northern Army corps. */
export type Restriction = Nation | 'mef' | 'ana';

/** A connection between two spaces, in both directions; `only` restricts who may use it. */
export type Connection = readonly [a: string, b: string, only?: readonly Restriction[]];

/** Combat factor, loss factor, movement factor. */
export type Factors = readonly [combat: number, loss: number, movement: number];

/** Which replacement points rebuild a unit: a nation's own, or 'allied' (the "A" points of the minor
 *  Allies, 17.1.1.1). */
export type RpKind = 'br' | 'fr' | 'it' | 'ru' | 'us' | 'ge' | 'ah' | 'tu' | 'bu' | 'allied';

export interface Unit {
  /** Our id: nation, designation and kind ("ge-8-army", "br-bef-corps"); identical counters
   *  (generic corps) are numbered ("ah-corps-3"). */
  readonly id: string;
  readonly side: Side;
  readonly nation: Nation;
  readonly kind: 'army' | 'corps';
  /** The army number or the special unit's code ("8", "BEF", "ANA"); null for a generic corps. */
  readonly designation: string | null;
  readonly full: Factors;
  readonly reduced: Factors;
  /** Never takes replacements (the dot on the counter, 17.1.7). */
  readonly notReplaceable?: boolean;
  /** One of the four Allied Near East armies (9.5.3.4), or the Turkish special armies. */
  readonly nearEastOnly?: boolean;
  /** Which replacement points rebuild it; null when it cannot be rebuilt. */
  readonly rp: RpKind | null;
}

export type Commitment = 'mobilization' | 'limited' | 'total';

/** The replacement points a card gives when played for RP (9.4), by kind. */
export type CardRp = Readonly<Partial<Record<RpKind, number>>>;

export interface Text {
  readonly en: string;
  readonly es: string;
}

export interface Card {
  /** Our id: side and the card's number ("ap-13"). */
  readonly id: string;
  readonly side: Side;
  readonly number: number;
  /** The deck group the card belongs to (2.3). */
  readonly commitment: Commitment;
  readonly ops: number;
  readonly sr: number;
  /** Removed from the game after its event is played (the asterisk). */
  readonly removed?: boolean;
  /** A combat card (CC, 9.5.4). */
  readonly combat?: boolean;
  /** The war status number added when the event is played (9.5.1.3). */
  readonly warStatus?: number;
  readonly rp: CardRp;
  /** The event's key: what the rules run when the card is played as an event. Every
   *  reinforcement card has the key 'reinforcements' and lists its units. */
  readonly event: string;
  readonly reinforcements?: readonly string[];
  readonly name: Text;
  /** The event, in our own words. */
  readonly text: Text;
}

/** Where a unit may be at the start: a space, or one side's reserve box. */
export type Place = string | 'ap-reserve' | 'cp-reserve';

/** One line of a set-up: units placed at full strength, units placed reduced, and a trench. */
export interface Placement {
  readonly at: Place;
  readonly units?: readonly string[];
  readonly reduced?: readonly string[];
  readonly trench?: 1;
}
