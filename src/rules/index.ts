// The public face of the rules engine. Nothing outside src/rules imports anything else from it.
export * from './types';
export * from './map';
export * from './names';
export * from './notation';
export * from './movement';
export * from './adjudicate';
export * from './legal';
export * from './explain';
export * from './version';
export * from './variants';
