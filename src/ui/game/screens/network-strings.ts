// Words of the game's connection settings (GameTab → NetworkSettings), in both languages. Their own
// table, beside strings.ts, so the two grow without touching each other.
import type { Lang } from '../../i18n';

const es = {
  title: 'Conexión de esta partida',
  explain:
    'Relés y servidores STUN/TURN que usa este teléfono para esta partida. Llegaron con la invitación; cámbialos si uno deja de funcionar. Cada teléfono guarda su propia lista: si quitas un relé, asegúrate de que los demás jugadores y tú compartís al menos uno.',
  relays: 'Relés (ws:// o wss://, uno por línea, hasta 4; vacío: los del teléfono, si no el del servidor que sirvió la aplicación)',
  ice: 'Servidores STUN/TURN (uno por línea, hasta 4: "turn:servidor:3478 usuario clave"; vacío: los del teléfono)',
  save: 'Guardar conexión',
  saved: 'Guardado: la partida ya usa estos relés y servidores.',
  badRelays: 'Un relé no es válido: escribe direcciones que empiecen por ws:// o wss://, una por línea, hasta 4.',
  badIce: 'Un servidor STUN/TURN no es válido: una línea por servidor, "stun:…" o "turn:… usuario clave", hasta 4.',
  saveError: 'No se pudo guardar',
};

export type NetworkStrings = { readonly [K in keyof typeof es]: string };

const en: NetworkStrings = {
  title: "This game's connection",
  explain:
    'Relays and STUN/TURN servers this phone uses for this game. They came with the invite; change them if one stops working. Each phone keeps its own list: if you remove a relay, make sure you and the other players still share at least one.',
  relays: "Relays (ws:// or wss://, one per line, up to 4; empty: the phone's, else the one on the server that served the app)",
  ice: 'STUN/TURN servers (one per line, up to 4: "turn:server:3478 user secret"; empty: the phone\'s)',
  save: 'Save connection',
  saved: 'Saved: the game now uses these relays and servers.',
  badRelays: 'A relay is not valid: write addresses starting with ws:// or wss://, one per line, up to 4.',
  badIce: 'A STUN/TURN server is not valid: one line per server, "stun:…" or "turn:… user secret", up to 4.',
  saveError: 'Could not save',
};

export const NETWORK_STRINGS: Readonly<Record<Lang, NetworkStrings>> = { es, en };
