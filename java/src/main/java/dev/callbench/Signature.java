package dev.callbench;

import java.util.List;

/** Every input and output of a model, in the model's order (as its runtime reads them). */
public record Signature(List<Tensor> inputs, List<Tensor> outputs) {
    public Signature {
        inputs = List.copyOf(inputs);
        outputs = List.copyOf(outputs);
    }
}
