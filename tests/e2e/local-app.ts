// What the table tests share: a built app (or test page) served on 127.0.0.1 by the app's own
// server, which can vanish as a phone sees it (AppServer.stop) and come back on the same port; and Chromium's fake camera, which plays one still picture.
import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createAppServer, type AppServer } from '../../src/server/app';

export class LocalApp {
  private server: AppServer | undefined;
  private port = 0;

  constructor(private readonly root: string) {}

  /** Serves the folder (on the port it had before, once it had one); resolves to its address. */
  async start(): Promise<string> {
    const s = createAppServer(this.root);
    this.server = s;
    await s.listen(this.port, '127.0.0.1');
    this.port = (s.http.address() as AddressInfo).port;
    return this.base;
  }

  get base(): string {
    return `http://127.0.0.1:${this.port}/`;
  }

  async stop(): Promise<void> {
    const s = this.server;
    if (!s) return;
    this.server = undefined;
    await s.stop();
  }
}

/** Chromium's fake camera: a Y4M file it reads whenever a page opens the camera. */
export class FakeCamera {
  constructor(readonly path: string) {
    this.show(320, 240, new Uint8Array(320 * 240).fill(200));
  }

  /** The flags that make a browser process film this file (and grant the camera without asking). */
  get flags(): string[] {
    return ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', `--use-file-for-fake-video-capture=${this.path}`];
  }

  /** One still picture (grey levels, 4:2:0) the camera plays in a loop. */
  show(width: number, height: number, y: Uint8Array): void {
    const chroma = new Uint8Array((width / 2) * (height / 2) * 2).fill(128);
    const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\nFRAME\n`);
    writeFileSync(this.path, Buffer.concat([header, y, chroma]));
  }
}
