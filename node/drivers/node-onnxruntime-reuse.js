// node-onnxruntime-reuse: every input's ort.Tensor and the feeds object are
// made once; each call copies its samples into the tensors' data, awaits
// session.run(feeds) and copies each output's bytes out (ortsupport/reuse.js).
// Its callers (contract 4) are async callers in flight on one event loop, one
// session shared, as an async server's handlers call it.

import { driverMain } from '../kit/main.js';
import { reuseLoad } from '../ortsupport/reuse.js';

await driverMain('node-onnxruntime-reuse', reuseLoad, { callers: 'in-flight' });
