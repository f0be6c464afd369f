/* The MLP's forward pass: relu(x A^T + a) -> relu(. B^T + b) -> . C^T + c, one sample at a time. */
#include "mlp_forward.h"

enum { IN = 2, HIDDEN = 8 };

static float relu(float v) { return v > 0.0f ? v : 0.0f; }

void callbench_mlp_forward(const float *weights, const float *x, float *y, int64_t batch) {
    const float *w1 = weights;             /* [8, 2] */
    const float *b1 = w1 + HIDDEN * IN;    /* [8] */
    const float *w2 = b1 + HIDDEN;         /* [8, 8] */
    const float *b2 = w2 + HIDDEN * HIDDEN;
    const float *w3 = b2 + HIDDEN;         /* [1, 8] */
    const float *b3 = w3 + HIDDEN;         /* [1] */
    for (int64_t s = 0; s < batch; ++s) {
        const float x0 = x[IN * s], x1 = x[IN * s + 1];
        float h1[HIDDEN], h2[HIDDEN];
        for (int j = 0; j < HIDDEN; ++j) {
            h1[j] = relu(b1[j] + w1[IN * j] * x0 + w1[IN * j + 1] * x1);
        }
        for (int j = 0; j < HIDDEN; ++j) {
            float v = b2[j];
            for (int k = 0; k < HIDDEN; ++k) {
                v += w2[HIDDEN * j + k] * h1[k];
            }
            h2[j] = relu(v);
        }
        float out = b3[0];
        for (int k = 0; k < HIDDEN; ++k) {
            out += w3[k] * h2[k];
        }
        y[s] = out;
    }
}
