# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, binding=False
"""The MLP's forward pass in Cython, over the raw weights of mlp_weights.f32.

Built by scripts/build_python.py into build/python/callbench_mlp_cython<EXT_SUFFIX>.
``Forward`` holds the weights, inputs and outputs as typed memoryviews taken
once, so a call costs one Python-to-C transition and the arithmetic:
``call(i)`` is one call (python-cython: the Python loop calls it), ``run(start,
stop)`` is the whole loop in C (python-cython-loop).

``binding=False``: methods are plain builtin methods (not Cython 3's default
cyfunctions), the cheapest kind of call from Python.
"""

cdef enum:
    IN = 2
    HIDDEN = 8
    WEIGHTS = 105  # floats in mlp_weights.f32


cdef inline float relu(float v) noexcept nogil:
    return v if v > 0.0 else 0.0


cdef void forward(const float *w, const float *x, float *y, Py_ssize_t batch) noexcept nogil:
    """y[s] = mlp(x[2s], x[2s+1]) for s in [0, batch); w as in mlp_weights.f32."""
    cdef const float *w1 = w
    cdef const float *b1 = w1 + HIDDEN * IN
    cdef const float *w2 = b1 + HIDDEN
    cdef const float *b2 = w2 + HIDDEN * HIDDEN
    cdef const float *w3 = b2 + HIDDEN
    cdef const float *b3 = w3 + HIDDEN
    cdef float h1[HIDDEN]
    cdef float h2[HIDDEN]
    cdef float v, x0, x1
    cdef Py_ssize_t s, j, k
    for s in range(batch):
        x0 = x[IN * s]
        x1 = x[IN * s + 1]
        for j in range(HIDDEN):
            h1[j] = relu(b1[j] + w1[IN * j] * x0 + w1[IN * j + 1] * x1)
        for j in range(HIDDEN):
            v = b2[j]
            for k in range(HIDDEN):
                v += w2[HIDDEN * j + k] * h1[k]
            h2[j] = relu(v)
        v = b3[0]
        for k in range(HIDDEN):
            v += w3[k] * h2[k]
        y[s] = v


cdef class Forward:
    """The model bound to its buffers: call i reads inputs[i*batch:(i+1)*batch]."""

    cdef const float[::1] weights
    cdef const float[:, ::1] inputs
    cdef float[::1] outputs
    cdef readonly Py_ssize_t batch
    cdef readonly Py_ssize_t calls

    def __init__(self, const float[::1] weights, const float[:, ::1] inputs,
                 float[::1] outputs, Py_ssize_t batch):
        if weights.shape[0] != WEIGHTS:
            raise ValueError(f"{weights.shape[0]} weights, the MLP has {WEIGHTS}")
        if inputs.shape[1] != IN or batch < 1 or inputs.shape[0] % batch:
            raise ValueError("inputs must be [calls * batch, 2]")
        if outputs.shape[0] != inputs.shape[0]:
            raise ValueError("outputs must hold one value per sample")
        self.weights = weights
        self.inputs = inputs
        self.outputs = outputs
        self.batch = batch
        self.calls = inputs.shape[0] // batch

    cpdef void call(self, Py_ssize_t i):
        """Call i: its samples through the MLP, its results stored."""
        if i < 0 or i >= self.calls:
            raise IndexError(f"call {i} is outside 0..{self.calls - 1}")
        forward(&self.weights[0], &self.inputs[i * self.batch, 0],
                &self.outputs[i * self.batch], self.batch)

    cpdef void run(self, Py_ssize_t start, Py_ssize_t stop):
        """Calls [start, stop), the loop itself in C."""
        cdef Py_ssize_t i
        if start < 0 or stop > self.calls:
            raise IndexError(f"calls {start}..{stop} are outside 0..{self.calls}")
        for i in range(start, stop):
            forward(&self.weights[0], &self.inputs[i * self.batch, 0],
                    &self.outputs[i * self.batch], self.batch)
