/* The MLP's forward pass in plain C, over the raw weights of mlp_weights.f32.
 *
 * Built by scripts/build_python.py into build/python/libcallbench_mlp.so and
 * called once per call by the python-cffi and python-ctypes drivers.
 */
#ifndef CALLBENCH_MLP_FORWARD_H
#define CALLBENCH_MLP_FORWARD_H

#include <stdint.h>

/* 16 + 8 + 64 + 8 + 8 + 1 floats: a.weight [8,2], a.bias, b.weight [8,8], b.bias,
 * c.weight [1,8], c.bias, each weight row-major [out, in] (docs/contract.md). */
#define CALLBENCH_MLP_WEIGHTS 105

/* y[s] = mlp(x[2s], x[2s+1]) for s in [0, batch). */
void callbench_mlp_forward(const float *weights, const float *x, float *y, int64_t batch);

#endif
