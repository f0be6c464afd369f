// node-onnxruntime-reuse-workers: node-onnxruntime-reuse's call, its callers
// (contract 4) each a worker_thread with a session of its own: the way to use
// the cores when onnxruntime-node's run blocks the event loop while it runs.

import { driverMain } from '../kit/main.js';
import { reuseLoad } from '../ortsupport/reuse.js';

await driverMain('node-onnxruntime-reuse-workers', reuseLoad, { callers: 'workers' });
