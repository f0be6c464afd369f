// batcher: contract 7's dynamic batcher. A paced round's arrivals (paced.js) are
// gathered into calls of up to B (--batch) as a service's batcher gathers them
// (Triton's dynamic_batching, TorchServe's batch_size and max_batch_delay): it
// takes every arrival already due, up to B; with fewer than B it waits until B
// have arrived or the oldest it holds has waited D (--max-delay), then calls
// once. It knows the schedule, not the future: it waits for an arrival only
// while the oldest may still wait, and waits out D when the next comes later, as
// a batcher that cannot see it does. Arrival j takes sample j mod S (S: the
// samples the run's inputs hold for its calls, --calls x B) and its outputs go to
// sample slot j mod S; the call runs at B over arrays of its own, the places no
// arrival took padded with the samples they last held (a fixed-shape runtime
// pays for padding, as in a service). Each arrival keeps contract 6's three
// times: taken (when the batcher turned to it, negative when it was waiting for
// it), started (its call's start, the copying of its samples in included) and
// ended (the call's end, its outputs copied out included).
//
// The batcher is Node's one caller on the event loop, and waits as that caller
// does (waitInThread: nothing else of the round is on the loop while it waits,
// so it blocks the loop, a sleep then a spin); a runtime whose call resolves on
// the loop (onnxruntime-node's session.run) is awaited as in any round.

import { Pacing, since, waitInThread } from './paced.js';
import { DTYPES, poison, sampleSize } from './tensors.js';

/** What --max-delay refuses beside --callers N > 1: one gatherer, over its own schedule. */
export const ONE_GATHERER = '--max-delay takes one caller: the batcher gathers for one';
/** What --gathered answers without --max-delay. */
export const GATHERED_ALONE = "--gathered takes --max-delay: it sizes the batcher's calls";
/** What --gathered answers from a driver whose model has no callGathered (its call takes a fixed batch). */
export const FIXED_BATCH = "--gathered is not supported: this driver's call takes a fixed batch";

/** The one caller's rounds (Rounds), its paced rounds served by the batcher. */
export class Batcher {
  /**
   * `rounds` are the one caller's over `model` and `inputs` (each {values, count}), at `batch`;
   * `gathered`: each call at the size it gathered (the model's callGathered(inputs, outputs, n)).
   */
  constructor(rounds, model, inputs, maxCalls, batch, maxDelayUs, gathered = false) {
    const signature = model.signature();
    this.rounds = rounds;
    this.model = model;
    this.batch = batch;
    this.slots = maxCalls * batch; // S: the samples the run's inputs hold for its calls
    this.maxDelayNs = maxDelayUs * 1000;
    this.gathered = gathered;
    this.inputs = inputs.map((samples) => samples.values);
    this.inSample = signature.inputs.map(sampleSize); // each tensor's values a sample
    this.outSample = signature.outputs.map(sampleSize);
    this.dtypes = signature.outputs.map((t) => t.dtype);
    // The call's places start as the first B samples: padding is always a sample.
    this.callIn = this.inputs.map((values, k) => values.slice(0, batch * this.inSample[k]));
    this.callOut = signature.outputs.map((t, k) => new DTYPES[t.dtype].Array(batch * this.outSample[k]));
    this.served = signature.outputs.map((t, k) => new DTYPES[t.dtype].Array(this.slots * this.outSample[k]));
    this.pacedSlots = 0; // the sample slots the last paced round filled (0: a round's outputs are the last)
  }

  warmUp(calls, seconds = 0) {
    return this.rounds.warmUp(calls, seconds);
  }

  round(k) {
    this.pacedSlots = 0;
    return this.rounds.round(k);
  }

  latencies(k) {
    return this.rounds.latencies(k);
  }

  /**
   * Serves the arrivals of `offsets` from `startNs` (a BigInt, or null: PACED_LEAD_NS after
   * the set-up) through the batcher.
   * @returns {Promise<Pacing>} the round, done
   */
  async paced(offsets, startNs) {
    const pacing = Pacing.create(offsets, 1, this.slots);
    this.served.forEach((values, o) => poison(values, this.dtypes[o]));
    this.pacedSlots = pacing.filled;
    pacing.begin(startNs);
    await this.gather(pacing);
    return pacing;
  }

  /** Serves every arrival of `pacing` as the one batcher. */
  async gather(pacing) {
    const { offsets, times } = pacing;
    const { batch, maxDelayNs, slots } = this;
    const start = pacing.clock[0];
    const count = offsets.length;
    const sizes = new Array(batch).fill(0); // sizes[k - 1]: the calls that took k arrivals
    const which = [];
    let end = -Infinity;
    try {
      let j = 0;
      while (j < count) {
        let now = since(start);
        const first = offsets[j];
        times[j] = now - first;
        if (now < first) now = waitInThread(start, first);
        const deadline = first + maxDelayNs;
        let held = j + 1;
        while (held - j < batch) {
          const due = held < count ? offsets[held] : Infinity;
          if (due <= now) { // already arrived: taken now
            times[held] = now - due;
          } else if (due <= deadline) { // wait for it: the oldest may
            times[held] = now - due;
            now = waitInThread(start, due);
          } else { // none before the oldest has waited D: wait that out, then call
            if (now < deadline) waitInThread(start, deadline);
            break;
          }
          held += 1;
        }
        which.length = 0;
        for (let i = j; i < held; i++) which.push(i % slots);
        const begin = since(start);
        await this.call(which);
        end = since(start);
        for (let i = j; i < held; i++) {
          times[count + i] = begin - offsets[i];
          times[2 * count + i] = end - offsets[i];
        }
        sizes[held - j - 1] += 1;
        j = held;
      }
    } finally {
      pacing.callerCalls[0] = count;
      pacing.ends[0] = end;
      pacing.batchSizes = sizes;
    }
  }

  /** One call of the arrivals whose sample slots are `slots` (1 to B of them). */
  async call(slots) {
    this.callIn.forEach((place, k) => {
      const size = this.inSample[k];
      const values = this.inputs[k];
      slots.forEach((slot, i) => place.set(values.subarray(slot * size, (slot + 1) * size), i * size));
    });
    if (this.gathered) await this.model.callGathered(this.callIn, this.callOut, slots.length);
    else await this.model.call(this.callIn, this.callOut);
    this.callOut.forEach((out, o) => {
      const size = this.outSample[o];
      slots.forEach((slot, i) => this.served[o].set(out.subarray(i * size, (i + 1) * size), slot * size));
    });
  }

  /** A paced round's outputs by sample slot, or the last closed round's. */
  lastOutputs() {
    if (this.pacedSlots === 0) return this.rounds.lastOutputs();
    return this.served.map((values, o) => values.subarray(0, this.pacedSlots * this.outSample[o]));
  }
}
