/* Our MLP's whole forward, 2 -> H -> H -> 1 with ReLU, reading the weights in
   mlp_weights.f32's order: a.weight [H, 2], a.bias [H], b.weight [H, H], b.bias [H],
   c.weight [1, H], c.bias [1]. The python-cupy-kernel row compiles it with CuPy
   (RawKernel). Its bodies are plain C, so a test compiles them on the CPU with the CUDA
   qualifiers defined away and loops over the thread and block indices
   (test_cuda_drivers.py).

   Two kernels, as the width asks:
   - mlp_forward, one thread per sample, for narrow models: the first layer is recomputed
     for each unit of the second (no per-thread array, so one source serves every width),
     which costs H * H * 3 steps a thread: nothing at H = 8, milliseconds at H = 512;
   - mlp_forward_wide, one block per sample: its threads share the first layer through
     shared memory and split the second layer's units, then thread 0 adds their shares.
   A third, mlp_floor, does nothing: cpp-cuda-floor launches it as cpp-cuda-kernel
   launches mlp_forward, for the platform's per-call floor (C++ compiles this file with
   NVRTC, CMake embedding it). */
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

/* Thread t of `threads` writes units t, t + threads, ... of sample i's first layer. */
__device__ void wide_first_layer(const float* x, const float* w, float* a, int h, int i, int t,
                                 int threads) {
  const float x0 = x[2 * i];
  const float x1 = x[2 * i + 1];
  const float* a_b = w + 2 * h;
  for (int j = t; j < h; j += threads) {
    const float v = a_b[j] + w[2 * j] * x0 + w[2 * j + 1] * x1;
    a[j] = v > 0.0f ? v : 0.0f;
  }
}

/* Thread t's share of the output: c.weight[k] * relu(unit k of the second layer) summed
   over its units k = t, t + threads, ... */
__device__ float wide_share(const float* w, const float* a, int h, int t, int threads) {
  const float* b_w = w + 3 * h;
  const float* b_b = b_w + h * h;
  const float* c_w = b_b + h;
  float share = 0.0f;
  for (int k = t; k < h; k += threads) {
    float s = b_b[k];
    for (int j = 0; j < h; ++j) s += b_w[k * h + j] * a[j];
    share += c_w[k] * (s > 0.0f ? s : 0.0f);
  }
  return share;
}

/* The output: c.bias plus every thread's share. */
__device__ float wide_output(const float* w, const float* shares, int h, int threads) {
  float out = w[h * h + 5 * h];
  for (int t = 0; t < threads; ++t) out += shares[t];
  return out;
}

#ifdef __cplusplus
extern "C"
#endif
__global__ void mlp_forward_wide(const float* x, const float* w, float* y, int n, int h) {
  extern __shared__ float shared[]; /* h first-layer values, then one share per thread */
  const int i = blockIdx.x;
  if (i >= n) return; /* the whole block returns: no thread waits at a barrier alone */
  float* a = shared;
  float* shares = shared + h;
  wide_first_layer(x, w, a, h, i, threadIdx.x, blockDim.x);
  __syncthreads();
  shares[threadIdx.x] = wide_share(w, a, h, threadIdx.x, blockDim.x);
  __syncthreads();
  if (threadIdx.x == 0) y[i] = wide_output(w, shares, h, blockDim.x);
}

/* The floor row's kernel (cpp-cuda-floor): mlp_forward's parameters and grid, and no work,
   so that row times what every call pays around the forward (copies, a launch, a
   synchronize) and nothing else. */
#ifdef __cplusplus
extern "C"
#endif
__global__ void mlp_floor(const float* x, const float* w, float* y, int n, int h) {
  (void)x;
  (void)w;
  (void)y;
  (void)n;
  (void)h;
}
