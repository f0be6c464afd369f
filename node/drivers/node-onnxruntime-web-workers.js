// node-onnxruntime-web-workers: node-onnxruntime-web's plain call, its callers
// (contract 4) each a worker_thread with a session of its own: onnxruntime-web's
// runs in flight on one session abort at 4 callers (run 20261202T001526Z-vm-83589a).

import { driverMain } from '../kit/main.js';
import { plainLoad } from '../ortsupport/plain.js';
import * as web from '../ortsupport/web.js';

await driverMain('node-onnxruntime-web-workers', plainLoad(web), { callers: 'workers' });
