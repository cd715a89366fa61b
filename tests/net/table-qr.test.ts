// Reading pairing codes back from pictures: the QR code drawn by qrcode, photographed badly (small,
// tilted, blurred, noisy, washed out), must still decode with jsqr to the very same bytes.
import { describe, expect, it } from 'vitest';
import { decodePairingCode, encodePairingCode, parseSdp, qrModules, readQr, type RgbaFrame } from '../../src/net/table';
import { CHROME_OFFER_MDNS } from './table-sdp-fixtures';

interface Camera {
  /** Pixels per module. */
  readonly scale: number;
  readonly tiltDegrees: number;
  readonly noise: number;
  /** Grey levels of dark and light modules. */
  readonly dark: number;
  readonly light: number;
}

/** A deterministic pseudo-random sequence, so a failure can be replayed. */
function lcg(seed: number): () => number {
  let x = seed >>> 0;
  return () => (x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

function photograph(modules: boolean[][], cam: Camera): RgbaFrame {
  const quiet = 4;
  const n = modules.length;
  const side = Math.ceil((n + 2 * quiet) * cam.scale * 1.3);
  const rand = lcg(42);
  const a = (cam.tiltDegrees * Math.PI) / 180;
  const [cos, sin] = [Math.cos(a), Math.sin(a)];
  const grey = new Float64Array(side * side);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      // Where this pixel falls on the (tilted) code, in modules.
      const dx = x - side / 2;
      const dy = y - side / 2;
      const u = (cos * dx + sin * dy) / cam.scale + n / 2;
      const v = (-sin * dx + cos * dy) / cam.scale + n / 2;
      const dark = u >= 0 && v >= 0 && u < n && v < n && modules[Math.floor(v)]![Math.floor(u)]!;
      grey[y * side + x] = dark ? cam.dark : cam.light;
    }
  }
  const data = new Uint8ClampedArray(side * side * 4);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      // A 3x3 box blur for focus, then sensor noise.
      let sum = 0;
      let count = 0;
      for (let j = -1; j <= 1; j++)
        for (let i = -1; i <= 1; i++) {
          const g = grey[(y + j) * side + (x + i)];
          if (g !== undefined && x + i >= 0 && x + i < side) {
            sum += g;
            count++;
          }
        }
      const value = sum / count + (rand() - 0.5) * 2 * cam.noise;
      data.set([value, value, value, 255], (y * side + x) * 4);
    }
  }
  return { data, width: side, height: side };
}

describe('QR codes of pairing codes', () => {
  const offer = encodePairingCode({ ...parseSdp('offer', CHROME_OFFER_MDNS), slot: 3 });

  // 3 pixels a module is a 41-module code about 150 pixels wide in the frame: a 6 cm screen at
  // arm's length (about 50 cm) in a 1080p phone camera covers about 200 pixels.
  const cameras: Camera[] = [
    { scale: 3, tiltDegrees: 8, noise: 0, dark: 70, light: 190 },
    { scale: 4, tiltDegrees: 8, noise: 40, dark: 0, light: 255 },
  ];
  for (const cam of cameras) {
    it(`decode to the same bytes from a small, tilted, blurred, washed-out or noisy picture (${JSON.stringify(cam)})`, () => {
      const modules = qrModules(offer);
      expect(modules.length).toBe(41);
      const read = readQr(photograph(modules, cam));
      expect(read).toEqual(offer);
      expect(decodePairingCode(read!).slot).toBe(3);
    });
  }

  it('carry every byte value unchanged (byte mode, no text decoding on the way)', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    const read = readQr(photograph(qrModules(all), { scale: 4, tiltDegrees: 0, noise: 0, dark: 0, light: 255 }));
    expect(read).toEqual(all);
  });

  it('give nothing for a picture without a QR code', () => {
    const blank = photograph([[false]], { scale: 40, tiltDegrees: 0, noise: 30, dark: 0, light: 200 });
    expect(readQr(blank)).toBeUndefined();
  });
});
