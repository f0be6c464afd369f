// node-onnxruntime-web: the same engine and the same plain call as
// node-onnxruntime (ortsupport/plain.js), through its WebAssembly build,
// onnxruntime-web, on one wasm thread with SIMD: what a page or an edge
// worker pays per call against the native addon. It takes contract 7's
// --gathered: the batcher's calls at the size they gathered.

import { driverMain } from '../kit/main.js';
import { plainLoad } from '../ortsupport/plain.js';
import * as web from '../ortsupport/web.js';

await driverMain('node-onnxruntime-web', plainLoad(web, { gathered: true }), { callers: 'in-flight' });
