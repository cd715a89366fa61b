// Words of the game's notification settings (GameTab → NotifySettings), in both languages.
import type { Lang } from '../../i18n';

const es = {
  title: 'Avisos de esta partida',
  why: 'Con los avisos activados, este teléfono abre los sobres y confirma las fases en segundo plano aunque la aplicación esté cerrada, y te avisa cuando te toca dar órdenes, cuando hay resultados o un mensaje. El navegador te pedirá permiso.',
  on: 'Activar avisos',
  off: 'Desactivar avisos',
  stateOn: 'Avisos activados en este teléfono.',
  stateOff: 'Avisos desactivados.',
  quiet: 'Horas de silencio (sin avisos)',
  quietFrom: 'desde',
  quietTo: 'hasta',
  quietNone: 'ninguna',
  ios: 'En iPhone y iPad los avisos solo funcionan con Pacto instalado en la pantalla de inicio: toca Compartir → «Añadir a pantalla de inicio» y abre Pacto desde allí.',
  problems: {
    unsupported: 'Este navegador no admite avisos push.',
    denied: 'El permiso de avisos está denegado: actívalo en los ajustes del navegador para este sitio.',
    'no-relay': 'Ningún relé de esta partida acepta avisos.',
    'subscribe-failed': 'El navegador no pudo suscribirse a los avisos',
  },
  skipped: (n: number) => `${n} relé(s) de la partida usan otra clave y no enviarán avisos a este teléfono.`,
  error: 'No se pudo cambiar',
};

export type NotifyStrings = Omit<{ readonly [K in keyof typeof es]: string }, 'problems' | 'skipped'> & {
  readonly problems: Readonly<Record<keyof typeof es.problems, string>>;
  readonly skipped: (n: number) => string;
};

const en: NotifyStrings = {
  title: "This game's notifications",
  why: 'With notifications on, this phone opens the sealed orders and confirms phases in the background even when the app is closed, and tells you when your orders are due, when results are in, or a message arrived. The browser will ask for your permission.',
  on: 'Turn notifications on',
  off: 'Turn notifications off',
  stateOn: 'Notifications are on on this phone.',
  stateOff: 'Notifications are off.',
  quiet: 'Quiet hours (no notifications)',
  quietFrom: 'from',
  quietTo: 'to',
  quietNone: 'none',
  ios: 'On iPhone and iPad notifications only work with Pacto installed to the home screen: tap Share → "Add to Home Screen" and open Pacto from there.',
  problems: {
    unsupported: 'This browser does not support push notifications.',
    denied: "Notifications are blocked: allow them for this site in the browser's settings.",
    'no-relay': "None of this game's relays accepts notifications.",
    'subscribe-failed': 'The browser could not subscribe to notifications',
  },
  skipped: (n: number) => `${n} of the game's relays use another key and will not notify this phone.`,
  error: 'Could not change it',
};

export const NOTIFY_STRINGS: Readonly<Record<Lang, NotifyStrings>> = { es, en };
