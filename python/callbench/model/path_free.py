"""Portable artifacts hold no path of the machine that wrote them, so the same weights give
the same bytes in every clone, wherever it lies.

The exporters record where their source was: the ONNX exporter puts each node's Python
stack trace (``File "/<clone>/python/callbench/model/mlp.py", line 23``) in its metadata,
and ``torch.jit.save`` writes a ``.debug_pkl`` record of source ranges, with the file's
path, beside each class's code. Neither is read to run the model: ONNX Runtime ignores
metadata, and every TorchScript loader (torch.jit.load, LibTorch's torch::jit::load under
C++, org.pytorch, DJL and tch) loads an archive without debug records, only giving no
source line in an error.
"""

from __future__ import annotations

import io
from typing import Any

import torch

# The ONNX exporter's metadata key for a node's Python stack trace.
STACK_TRACE = "pkg.torch.onnx.stack_trace"
DEBUG_RECORD = ".debug_pkl"
# Records torch's archive writer makes itself at the end of every archive.
WRITER_RECORDS = frozenset({"version", ".data/version", ".data/serialization_id"})


def _strip_graph(graph: Any) -> None:
    for node in graph.node:
        kept = [p for p in node.metadata_props if p.key != STACK_TRACE]
        del node.metadata_props[:]
        node.metadata_props.extend(kept)
        node.doc_string = ""
        for attribute in node.attribute:  # an If's or a Loop's branches
            if attribute.HasField("g"):
                _strip_graph(attribute.g)
            for sub in attribute.graphs:
                _strip_graph(sub)


def onnx_without_stack_traces(proto: Any) -> Any:
    """``proto`` (an onnx ModelProto) with no node's stack trace or doc string, in its graph
    and in every local function; changed in place and returned."""
    _strip_graph(proto.graph)
    for function in proto.functions:
        _strip_graph(function)
    return proto


def torchscript_without_debug_records(data: bytes) -> bytes:
    """The TorchScript archive ``data`` written again without its ``.debug_pkl`` records,
    through torch's own archive writer (which keeps the tensor records aligned as the
    loaders expect); every other record, ``extra/`` files included, as it was."""
    # torch.jit.save has no option to leave the debug records out.
    reader = torch._C.PyTorchFileReader(io.BytesIO(data))
    out = io.BytesIO()
    writer = torch._C.PyTorchFileWriter(out)
    records = reader.get_all_records()
    for version in ("version", ".data/version"):  # the writer writes it again, as it was
        if version in records:
            writer.set_min_version(int(bytes(reader.get_record(version)).decode()))
    for name in records:
        if name.endswith(DEBUG_RECORD) or name in WRITER_RECORDS:
            continue
        record = reader.get_record(name)
        writer.write_record(name, record, len(record))
    writer.write_end_of_file()
    return out.getvalue()
