// Reading a pairing code with the phone's camera: frames from getUserMedia, scaled down (jsqr's
// time grows with pixels; a code held up to the camera fills much of the frame anyway) and
// decoded until one holds a code the caller accepts. Other QR codes in view are ignored.
import { readQr } from './qr';
import { decodePairingCode } from './pairing-code';

export interface CameraScanOptions {
  /** Shows the live picture while scanning; a hidden one is made otherwise. */
  readonly video?: HTMLVideoElement;
  /** Which codes end the scan: pairing codes of this type (a host wants answers, a guest offers). */
  readonly want?: 'offer' | 'answer';
  /** Which codes end the scan, instead of `want` (the app's tickets wrap the pairing code). */
  readonly accept?: (code: Uint8Array) => boolean;
  readonly intervalMs?: number;
  /** Frames are scaled so that their longer side is at most this. */
  readonly maxSide?: number;
  readonly signal?: AbortSignal;
}

function isPairingCode(code: Uint8Array, want: 'offer' | 'answer' | undefined): boolean {
  try {
    return want === undefined || decodePairingCode(code).type === want;
  } catch {
    return false;
  }
}

/** Resolves with the first accepted code; the camera is released however the scan ends. */
export async function scanWithCamera(options: CameraScanOptions = {}): Promise<Uint8Array> {
  const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false });
  const video = options.video ?? document.createElement('video');
  video.muted = true;
  video.playsInline = true;
  video.srcObject = stream;
  const release = (): void => {
    stream.getTracks().forEach((t) => t.stop());
    video.srcObject = null;
  };
  try {
    await video.play();
    const canvas = document.createElement('canvas');
    const ctx = canvas.getContext('2d', { willReadFrequently: true });
    if (!ctx) throw new Error('no 2D canvas');
    const maxSide = options.maxSide ?? 800;
    return await new Promise<Uint8Array>((resolve, reject) => {
      const abort = (): void => reject(options.signal?.reason ?? new Error('scan aborted'));
      if (options.signal?.aborted) return abort();
      options.signal?.addEventListener('abort', abort, { once: true });
      const look = (): void => {
        if (options.signal?.aborted) return;
        const { videoWidth: w, videoHeight: h } = video;
        if (w > 0 && h > 0) {
          const k = Math.min(1, maxSide / Math.max(w, h));
          canvas.width = Math.round(w * k);
          canvas.height = Math.round(h * k);
          ctx.drawImage(video, 0, 0, canvas.width, canvas.height);
          const code = readQr(ctx.getImageData(0, 0, canvas.width, canvas.height));
          if (code && (options.accept ? options.accept(code) : isPairingCode(code, options.want))) {
            options.signal?.removeEventListener('abort', abort);
            return resolve(code);
          }
        }
        setTimeout(look, options.intervalMs ?? 120);
      };
      look();
    });
  } finally {
    release();
  }
}
