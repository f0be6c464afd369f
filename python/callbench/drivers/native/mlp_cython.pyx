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

cimport cython

cdef enum:
    IN = 2
    REFERENCE_HIDDEN = 8
    MAX_HIDDEN = 4096  # the widest model the scratch layers hold


cdef inline float relu(float v) noexcept nogil:
    return v if v > 0.0 else 0.0


cdef inline void forward(const float *w, Py_ssize_t hidden, const float *x, float *y,
                         Py_ssize_t batch, float *h1, float *h2) noexcept nogil:
    """y[s] = mlp(x[2s], x[2s+1]) for s in [0, batch); w as raw_weights.for_loops lays it out
    (mlp_weights.f32 with b.weight transposed). Called with the constant 8, the C compiler
    unrolls every loop; the second layer adds column k of b.weight^T scaled by h1[k] to
    every unit, a contiguous loop, each unit's sum still bias first, then k = 0, 1, ..."""
    cdef const float *w1 = w
    cdef const float *b1 = w1 + hidden * IN
    cdef const float *bt = b1 + hidden
    cdef const float *b2 = bt + hidden * hidden
    cdef const float *w3 = b2 + hidden
    cdef const float *b3 = w3 + hidden
    cdef const float *column
    cdef float v, x0, x1, hk
    cdef Py_ssize_t s, j, k
    for s in range(batch):
        x0 = x[IN * s]
        x1 = x[IN * s + 1]
        for j in range(hidden):
            h1[j] = relu(b1[j] + w1[IN * j] * x0 + w1[IN * j + 1] * x1)
            h2[j] = b2[j]
        for k in range(hidden):
            hk = h1[k]
            column = bt + hidden * k
            for j in range(hidden):
                h2[j] += column[j] * hk
        v = b3[0]
        for k in range(hidden):
            v += w3[k] * relu(h2[k])
        y[s] = v


cdef void forward_reference(const float *w, const float *x, float *y,
                            Py_ssize_t batch) noexcept nogil:
    """forward at the reference's width, written out so every trip count is a constant the C
    compiler unrolls (it does not inline forward twice to specialise it): the width-8 path."""
    cdef const float *w1 = w
    cdef const float *b1 = w1 + REFERENCE_HIDDEN * IN
    cdef const float *bt = b1 + REFERENCE_HIDDEN
    cdef const float *b2 = bt + REFERENCE_HIDDEN * REFERENCE_HIDDEN
    cdef const float *w3 = b2 + REFERENCE_HIDDEN
    cdef const float *b3 = w3 + REFERENCE_HIDDEN
    cdef float h1[REFERENCE_HIDDEN]
    cdef float v, out, x0, x1
    cdef Py_ssize_t s, j, k
    for s in range(batch):
        x0 = x[IN * s]
        x1 = x[IN * s + 1]
        for j in range(REFERENCE_HIDDEN):
            h1[j] = relu(b1[j] + w1[IN * j] * x0 + w1[IN * j + 1] * x1)
        # One unit at a time (the sum in registers: 60 fewer instructions a call here
        # than the any-width loop's column order); the same order of adds.
        out = b3[0]
        for j in range(REFERENCE_HIDDEN):
            v = b2[j]
            for k in range(REFERENCE_HIDDEN):
                v += bt[REFERENCE_HIDDEN * k + j] * h1[k]
            out += w3[j] * relu(v)
        y[s] = out


@cython.final  # methods called directly, not through a vtable, so `one` inlines
cdef class Forward:
    """The model bound to its buffers: call i reads inputs[i*batch:(i+1)*batch]."""

    cdef const float[::1] weights
    cdef const float[:, ::1] inputs
    cdef float[::1] outputs
    cdef readonly Py_ssize_t hidden
    cdef readonly Py_ssize_t batch
    cdef readonly Py_ssize_t calls
    cdef float h1[MAX_HIDDEN]
    cdef float h2[MAX_HIDDEN]

    def __init__(self, const float[::1] weights, Py_ssize_t hidden,
                 const float[:, ::1] inputs, float[::1] outputs, Py_ssize_t batch):
        if not 0 < hidden <= MAX_HIDDEN:
            raise ValueError(f"hidden width {hidden} is outside 1..{MAX_HIDDEN}")
        if weights.shape[0] != hidden * hidden + 5 * hidden + 1:
            raise ValueError(f"{weights.shape[0]} weights, the 2-{hidden}-{hidden}-1 MLP has "
                             f"{hidden * hidden + 5 * hidden + 1}")
        if inputs.shape[1] != IN or batch < 1 or inputs.shape[0] % batch:
            raise ValueError("inputs must be [calls * batch, 2]")
        if outputs.shape[0] != inputs.shape[0]:
            raise ValueError("outputs must hold one value per sample")
        self.weights = weights
        self.hidden = hidden
        self.inputs = inputs
        self.outputs = outputs
        self.batch = batch
        self.calls = inputs.shape[0] // batch

    cpdef void call(self, Py_ssize_t i):
        """Call i: its samples through the MLP, its results stored."""
        if i < 0 or i >= self.calls:
            raise IndexError(f"call {i} is outside 0..{self.calls - 1}")
        self.one(i)

    cdef inline void one(self, Py_ssize_t i) noexcept nogil:
        if self.hidden == REFERENCE_HIDDEN:
            forward_reference(&self.weights[0], &self.inputs[i * self.batch, 0],
                              &self.outputs[i * self.batch], self.batch)
        else:
            forward(&self.weights[0], self.hidden, &self.inputs[i * self.batch, 0],
                    &self.outputs[i * self.batch], self.batch, self.h1, self.h2)

    cpdef void run(self, Py_ssize_t start, Py_ssize_t stop):
        """Calls [start, stop), the loop itself in C."""
        cdef Py_ssize_t i
        if start < 0 or stop > self.calls:
            raise IndexError(f"calls {start}..{stop} are outside 0..{self.calls}")
        for i in range(start, stop):
            self.one(i)
