// simple-peer's browser bundle (the one y-webrtc uses) carries its own Buffer and stream shims, so
// it runs in a vite build with no Node polyfills; its API is the package's.
declare module 'simple-peer/simplepeer.min.js' {
  import SimplePeer from 'simple-peer';
  export default SimplePeer;
}
