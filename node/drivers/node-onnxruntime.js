// node-onnxruntime: onnxruntime-node (the native addon) called the plain way
// (ortsupport/plain.js): a new ort.Tensor over each call's samples, await
// session.run({x}), y's data copied out.

import { driverMain } from '../kit/main.js';
import { plainLoad } from '../ortsupport/plain.js';
import * as native from '../ortsupport/session.js';

await driverMain('node-onnxruntime', plainLoad(native), { callers: 'in-flight' });
