/* The MLP's forward pass: relu(x A^T + a) -> relu(. B^T + b) -> . C^T + c, one sample at a time. */
#include "mlp_forward.h"

enum { IN = 2, REFERENCE_HIDDEN = 8, MAX_STACK_HIDDEN = 4096 };

static float relu(float v) { return v > 0.0f ? v : 0.0f; }

/* Inlined with a constant `hidden` (the reference's 8) every loop unrolls; called with
 * any other width it runs as written. bt is b.weight transposed: the second layer adds
 * column k of it, scaled by h1[k], to every hidden unit, a contiguous loop the compiler
 * vectorises without reordering any unit's sum (bias first, then k = 0, 1, ...). */
static inline void forward(const float *w, int64_t hidden, const float *x, float *y,
                           int64_t batch, float *h1, float *h2) {
    const float *w1 = w;                  /* [H, 2] */
    const float *b1 = w1 + hidden * IN;   /* [H] */
    const float *bt = b1 + hidden;        /* [H, H], transposed */
    const float *b2 = bt + hidden * hidden;
    const float *w3 = b2 + hidden;        /* [1, H] */
    const float *b3 = w3 + hidden;        /* [1] */
    for (int64_t s = 0; s < batch; ++s) {
        const float x0 = x[IN * s], x1 = x[IN * s + 1];
        for (int64_t j = 0; j < hidden; ++j) {
            h1[j] = relu(b1[j] + w1[IN * j] * x0 + w1[IN * j + 1] * x1);
            h2[j] = b2[j];
        }
        for (int64_t k = 0; k < hidden; ++k) {
            const float hk = h1[k];
            const float *column = bt + hidden * k;
            for (int64_t j = 0; j < hidden; ++j) {
                h2[j] += column[j] * hk;
            }
        }
        float out = b3[0];
        for (int64_t k = 0; k < hidden; ++k) {
            out += w3[k] * relu(h2[k]);
        }
        y[s] = out;
    }
}

void callbench_mlp_forward(const callbench_mlp *mlp, const float *x, float *y, int64_t batch) {
    const int64_t hidden = mlp->hidden;
    if (hidden == REFERENCE_HIDDEN) {
        float h1[REFERENCE_HIDDEN], h2[REFERENCE_HIDDEN];
        forward(mlp->weights, REFERENCE_HIDDEN, x, y, batch, h1, h2);
    } else if (hidden > 0 && hidden <= MAX_STACK_HIDDEN) {
        float h1[MAX_STACK_HIDDEN], h2[MAX_STACK_HIDDEN];
        forward(mlp->weights, hidden, x, y, batch, h1, h2);
    }
}
