// Put before the module's code (--extern-pre-js): Emscripten 3.1.6's ES
// module output calls require() and reads __dirname under Node, which an ES
// module does not have. Made from import.meta.url in Node; in a browser or
// worker nothing is imported and neither name is read.
var penkUnderNode = typeof process === 'object' && process.versions != null && process.versions.node != null;
var require = penkUnderNode ? (await import('node:module')).createRequire(import.meta.url) : undefined;
var __dirname = penkUnderNode ? require('node:path').dirname(require('node:url').fileURLToPath(import.meta.url)) : '';
