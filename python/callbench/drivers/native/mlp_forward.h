/* The MLP's forward pass in plain C, over the raw weights of mlp_weights.f32.
 *
 * Built by scripts/build_python.py into build/python/libcallbench_mlp.so and
 * called once per call by the python-cffi and python-ctypes drivers.
 */
#ifndef CALLBENCH_MLP_FORWARD_H
#define CALLBENCH_MLP_FORWARD_H

#include <stdint.h>

/* A loaded model: its weights and their hidden width H. `weights` holds H*H + 5H + 1
 * floats in mlp_weights.f32's order (a.weight [H,2], a.bias, b.weight, b.bias,
 * c.weight [1,H], c.bias; docs/contract.md), except that b.weight is transposed to
 * [in, out] (raw_weights.RawWeights.for_loops). Made once at load, so a call passes
 * one pointer for the model, as it did when the width was fixed. */
typedef struct {
    const float *weights;
    int64_t hidden;
} callbench_mlp;

/* y[s] = mlp(x[2s], x[2s+1]) for s in [0, batch). */
void callbench_mlp_forward(const callbench_mlp *mlp, const float *x, float *y, int64_t batch);

#endif
