// Pairing codes as QR codes: drawn with qrcode in byte mode, read back with jsqr from any RGBA frame
// (a camera frame in the app, a screenshot in the tests).
import * as QRCode from 'qrcode';
import jsQR from 'jsqr';

/** M recovers from about 15% damage: glare on a phone screen, a slightly unsteady hand. */
export const QR_ERROR_CORRECTION = 'M';

export interface QrSize {
  /** QR version 1..40; a version-v code is 17 + 4v modules wide. */
  readonly version: number;
  readonly modules: number;
}

function segments(bytes: Uint8Array): QRCode.QRCodeSegment[] {
  return [{ data: bytes, mode: 'byte' }];
}

export function qrSize(bytes: Uint8Array): QrSize {
  const qr = QRCode.create(segments(bytes), { errorCorrectionLevel: QR_ERROR_CORRECTION });
  return { version: qr.version, modules: qr.modules.size };
}

/** The modules, row by row (true = dark), for drawing some other way (SVG in the UI). */
export function qrModules(bytes: Uint8Array): boolean[][] {
  const { modules } = QRCode.create(segments(bytes), { errorCorrectionLevel: QR_ERROR_CORRECTION });
  return Array.from({ length: modules.size }, (_, r) => Array.from({ length: modules.size }, (_, c) => Boolean(modules.get(r, c))));
}

/** Draws on a canvas; `scale` pixels per module, with the standard quiet zone of 4 modules. */
export async function drawQr(canvas: HTMLCanvasElement, bytes: Uint8Array, scale = 8): Promise<void> {
  await QRCode.toCanvas(canvas, segments(bytes), { errorCorrectionLevel: QR_ERROR_CORRECTION, margin: 4, scale });
}

export interface RgbaFrame {
  readonly data: Uint8ClampedArray;
  readonly width: number;
  readonly height: number;
}

/** The bytes of the QR code seen in the frame, or undefined when none can be read. */
export function readQr(frame: RgbaFrame): Uint8Array | undefined {
  const found = jsQR(frame.data, frame.width, frame.height, { inversionAttempts: 'attemptBoth' });
  return found ? Uint8Array.from(found.binaryData) : undefined;
}
