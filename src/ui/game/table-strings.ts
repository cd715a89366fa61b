// Every word of table mode (pairing phones by QR codes, no internet) in Spanish and English.
import type { Lang } from '../i18n';

const es = {
  kind: 'En la mesa (sin internet)',
  kindHint: 'Los teléfonos se emparejan con códigos QR y juegan sin internet ni servidor. Cada teléfono necesita ya la aplicación.',
  joinAtTable: 'Unirse en la mesa',
  title: 'Teléfonos en la mesa',
  hint: 'Sin internet: cada teléfono se empareja mostrando su código QR a la cámara del otro. Deben estar en la misma wifi o en el punto de acceso de un teléfono.',
  installTitle: 'Paso 1: instala la aplicación',
  installText:
    'Sin internet, cada teléfono necesita la aplicación ya guardada: ábrela una vez con internet (queda guardada en el teléfono) o instálala (menú del navegador → Añadir a la pantalla de inicio).',
  install: 'Instalar la aplicación',
  installed: 'La aplicación está guardada en este teléfono: funciona sin internet.',
  notCached: 'Esta página aún no está guardada para usarse sin internet. Recárgala con internet antes de ir a la mesa.',
  pair: 'Emparejar un teléfono',
  pairHint: 'Muestra este código al teléfono que se une («Unirse en la mesa», o «Escanear el código de otro teléfono» si ya está en la partida).',
  scanAnswer: 'Escanear su respuesta',
  scanOffer: 'Escanear el código de otro teléfono',
  scanHost: 'Escanea el código QR del teléfono que te invita.',
  showAnswer: 'Muestra este código al teléfono que te invitó para que lo escanee.',
  camera: 'Escanear con la cámara',
  stopCamera: 'Parar la cámara',
  typeCode: 'O escribe o pega el código',
  useCode: 'Usar el código',
  codeText: 'Código en texto',
  qr: 'Código QR de emparejamiento',
  connecting: 'Conectando…',
  linked: 'conectado',
  dropped: 'desconectado',
  droppedHint: 'Para volver a conectarlo: «Emparejar un teléfono» aquí y «Escanear el código de otro teléfono» en el suyo.',
  noPhones: 'Aún no hay teléfonos emparejados.',
  unknownPhone: 'Teléfono',
  paired: 'Emparejado.',
  cancel: 'Cancelar',
  cameraDenied: 'No se pudo usar la cámara (permiso denegado). Permítela en los ajustes del navegador, o escribe el código.',
  noCamera: 'Este teléfono no tiene cámara disponible: escribe o pega el código.',
  cameraFailed: 'La cámara falló',
  otherGame: 'Ese código QR es de otra partida.',
  notPacto: 'Ese código no es un código de mesa de Pacto.',
  wrongKind: 'Ese código no es el que toca: escanea el del otro teléfono.',
  unreachable: 'El emparejamiento falló: los teléfonos no se alcanzan. ¿Están en la misma wifi o en el mismo punto de acceso?',
  failed: 'El emparejamiento falló',
  joining: 'Abriendo la partida…',
};

export type TableStrings = typeof es;

const en: TableStrings = {
  kind: 'At the table (no internet)',
  kindHint: 'Phones pair by QR codes and play with no internet and no server. Every phone must already have the app.',
  joinAtTable: 'Join at the table',
  title: 'Phones at the table',
  hint: "No internet: each phone pairs by showing its QR code to the other phone's camera. They must be on the same Wi-Fi or on one phone's hotspot.",
  installTitle: 'Step 1: install the app',
  installText:
    'With no internet, every phone needs the app already kept: open it once while online (it then stays on the phone) or install it (browser menu → Add to Home screen).',
  install: 'Install the app',
  installed: 'The app is kept on this phone: it works with no internet.',
  notCached: 'This page is not kept for offline use yet. Reload it while online before going to the table.',
  pair: 'Pair a phone',
  pairHint: 'Show this code to the joining phone ("Join at the table", or "Scan another phone\'s code" if it is already in the game).',
  scanAnswer: 'Scan their answer',
  scanOffer: "Scan another phone's code",
  scanHost: 'Scan the QR code of the phone that invites you.',
  showAnswer: 'Show this code to the phone that invited you, for it to scan.',
  camera: 'Scan with the camera',
  stopCamera: 'Stop the camera',
  typeCode: 'Or type or paste the code',
  useCode: 'Use the code',
  codeText: 'Code as text',
  qr: 'Pairing QR code',
  connecting: 'Connecting…',
  linked: 'linked',
  dropped: 'dropped',
  droppedHint: 'To link it again: "Pair a phone" here and "Scan another phone\'s code" on that phone.',
  noPhones: 'No phones paired yet.',
  unknownPhone: 'Phone',
  paired: 'Paired.',
  cancel: 'Cancel',
  cameraDenied: "The camera could not be used (permission refused). Allow it in the browser's settings, or type the code.",
  noCamera: 'This phone has no camera available: type or paste the code.',
  cameraFailed: 'The camera failed',
  otherGame: 'That QR code is of another game.',
  notPacto: 'That is not a Pacto table code.',
  wrongKind: "That is not the code expected here: scan the other phone's code.",
  unreachable: 'Pairing failed: the phones cannot reach each other. Are they on the same Wi-Fi or the same hotspot?',
  failed: 'Pairing failed',
  joining: 'Opening the game…',
};

export const TABLE_STRINGS: Record<Lang, TableStrings> = { es, en };

/** A clear sentence for whatever pairing threw. */
export function tableError(e: unknown, lang: Lang): string {
  const t = TABLE_STRINGS[lang];
  const err = e as { name?: string; problem?: string; message?: string; code?: string };
  if (err?.name === 'NotAllowedError' || err?.name === 'SecurityError') return t.cameraDenied;
  if (err?.name === 'NotFoundError' || err?.name === 'OverconstrainedError' || err?.name === 'NotReadableError') return t.noCamera;
  if (err?.name === 'TicketError') return err.problem === 'other-game' ? t.otherGame : err.problem === 'wrong-kind' ? t.wrongKind : t.notPacto;
  // simple-peer: ICE gave up (no candidate pair works: different networks, client isolation), or
  // our own connect timeout (peer.ts) fired first.
  if (
    err?.code === 'ERR_ICE_CONNECTION_FAILURE' ||
    err?.code === 'ERR_CONNECTION_FAILURE' ||
    (typeof err?.message === 'string' && /could not reach|closed before connecting|Connection failed/.test(err.message))
  )
    return t.unreachable;
  if (typeof navigator !== 'undefined' && navigator.mediaDevices === undefined && err?.name === 'TypeError') return t.noCamera;
  return `${t.failed}: ${err?.message ?? String(e)}`;
}
