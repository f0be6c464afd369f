/* Our MLP's whole forward, 2 -> H -> H -> 1 with ReLU, one thread per sample, reading the
   weights in mlp_weights.f32's order: a.weight [H, 2], a.bias [H], b.weight [H, H],
   b.bias [H], c.weight [1, H], c.bias [1]. The python-cupy-kernel row compiles it with
   CuPy (RawKernel); its body is plain C, so a test compiles it on the CPU with the CUDA
   qualifiers defined away and a loop over the thread index (test_cuda_drivers.py).
   The first layer is recomputed for each unit of the second: no per-thread array, so
   one source serves every width. */
#ifdef __cplusplus
extern "C"
#endif
__global__ void mlp_forward(const float* x, const float* w, float* y, int n, int h) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float x0 = x[2 * i];
  const float x1 = x[2 * i + 1];
  const float* a_w = w;
  const float* a_b = a_w + 2 * h;
  const float* b_w = a_b + h;
  const float* b_b = b_w + h * h;
  const float* c_w = b_b + h;
  const float* c_b = c_w + h;
  float out = c_b[0];
  for (int k = 0; k < h; ++k) {
    float s = b_b[k];
    for (int j = 0; j < h; ++j) {
      const float a = a_b[j] + a_w[2 * j] * x0 + a_w[2 * j + 1] * x1;
      s += b_w[k * h + j] * (a > 0.0f ? a : 0.0f);
    }
    out += c_w[k] * (s > 0.0f ? s : 0.0f);
  }
  y[i] = out;
}
