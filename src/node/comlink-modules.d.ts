declare module 'comlink/dist/esm/comlink.mjs';
declare module 'comlink/dist/esm/node-adapter.mjs';
