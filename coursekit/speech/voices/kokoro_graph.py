"""Edits to Kokoro's ONNX graph, made in memory when the model is loaded (the file stays as pinned).

``expose_durations``: the encoder's ``/encoder/Clip_output_0`` (every phoneme token's duration, in
units of 600 samples) becomes a second graph output, which gives the per-character timings.

``convs_as_matmul``: the int8 model does its 1-D convolutions with ``ConvInteger`` on uint8 weights,
which onnxruntime runs through a uint8 x uint8 GEMM; two thirds of a synthesis went there (measured
with onnxruntime's profiler, one thread). A stride-1 ``ConvInteger`` is the same sum as

    transpose the quantised input to time-major (1, T, C)
    -> pad with the input's zero point -> one ``Gather`` of rows t + dil*j for every output t and
       tap j, reshaped to (1, T', K*C)
    -> ``MatMulInteger`` with the weights as int8 (w - 128, zero point - 128) -> back to (1, O, T').

(One ``Gather`` rather than K ``Slice`` + ``Concat``: the slices copy the large matrix twice, and
with two synthesis processes on two cores that memory traffic cost a fifth of the gain.)

Every product (x - x_zero)(w - w_zero) is unchanged, and the uint8 x int8 GEMM sums them in int32
exactly on CPUs with VNNI (``vpdpbusd`` does not saturate), so the audio is bit-for-bit the same
(tests/engine/speech/test_kokoro_graph.py) and about a third cheaper. Without VNNI onnxruntime's uint8 x int8
kernel uses ``vpmaddubsw``, which saturates in int16, so the graph is left as it is there.
"""

from __future__ import annotations

import functools
from pathlib import Path

DURATIONS = "/encoder/Clip_output_0"


@functools.cache
def cpu_has_vnni(cpuinfo: Path = Path("/proc/cpuinfo")) -> bool:
    """True if the CPU flags list AVX-512 VNNI or AVX-VNNI (Linux; anything else answers False)."""
    try:
        text = cpuinfo.read_text(errors="replace")
    except OSError:
        return False
    for line in text.splitlines():
        if line.startswith("flags"):
            flags = set(line.split(":", 1)[1].split())
            return bool(flags & {"avx512_vnni", "avx_vnni"})
    return False


def expose_durations(model) -> None:
    """Make the duration tensor a graph output (raises if the model has no such node output)."""
    import onnx  # heavy; only when a model is loaded

    if not any(DURATIONS in n.output for n in model.graph.node):
        raise RuntimeError(f"the kokoro model has no node output {DURATIONS}")
    model.graph.output.extend([onnx.ValueInfoProto(name=DURATIONS)])


def _attrs(node) -> dict:
    from onnx import helper  # the voice's runtime: only when it speaks

    return {a.name: helper.get_attribute_value(a) for a in node.attribute}


def convs_as_matmul(model) -> int:
    """Rewrite every 1-D, stride-1, ungrouped ``ConvInteger`` with constant uint8 weights (see the
    module text); returns how many were rewritten. Other convolutions are left alone."""
    import numpy as np  # numpy: only when samples are computed
    from onnx import helper, numpy_helper  # the voice's runtime: only when it speaks

    graph = model.graph
    inits = {i.name: i for i in graph.initializer}
    nodes, added, count = [], [], 0

    def const(name: str, value) -> str:
        import numpy as np  # numpy: only when samples are computed

        added.append(numpy_helper.from_array(np.asarray(value), name))
        return name

    for node in graph.node:
        a = _attrs(node) if node.op_type == "ConvInteger" else {}
        x, w, x_zero, w_zero = (list(node.input) + ["", "", "", ""])[:4]
        if (
            node.op_type != "ConvInteger"
            or list(a.get("strides", [1])) != [1]
            or a.get("group", 1) != 1
            or len(a.get("kernel_shape", [])) != 1
            or w not in inits
            or w_zero not in inits
            or not x_zero
            or inits[w].data_type != 2
        ):  # 2 = uint8
            nodes.append(node)
            continue
        weights = numpy_helper.to_array(inits[w]).astype(np.int16)  # (O, C, K)
        out_ch, in_ch, k = weights.shape
        dil = int(a.get("dilations", [1])[0])
        pad_lo, pad_hi = (list(a.get("pads", [0, 0])) + [0, 0])[:2]
        p = f"{node.name}_mm"
        # row k*C + c of the (K*C, O) matrix is weight (o, c, k)
        w_name = const(p + "_w", (weights - 128).astype(np.int8).transpose(2, 1, 0).reshape(k * in_ch, out_ch))
        wz_name = const(p + "_wz", np.int8(int(numpy_helper.to_array(inits[w_zero])) - 128))
        nodes.append(helper.make_node("Transpose", [x], [p + "_t"], perm=[0, 2, 1]))
        cur = p + "_t"
        if pad_lo or pad_hi:
            pads = const(p + "_pads", np.array([0, pad_lo, 0, 0, pad_hi, 0], dtype=np.int64))
            nodes.append(helper.make_node("Pad", [cur, pads, x_zero], [p + "_pad"], mode="constant"))
            cur = p + "_pad"
        if k > 1:
            # the K dilated windows in one Gather: rows t + dil*j of the padded input, for every t
            nodes.append(helper.make_node("Shape", [cur], [p + "_shape"], start=1, end=2))
            span = const(p + "_span", np.array([dil * (k - 1)], dtype=np.int64))
            nodes.append(helper.make_node("Sub", [p + "_shape", span], [p + "_n1"]))
            nodes.append(helper.make_node("Squeeze", [p + "_n1"], [p + "_n"]))
            zero, one = const(p + "_zero", np.int64(0)), const(p + "_one", np.int64(1))
            nodes.append(helper.make_node("Range", [zero, p + "_n", one], [p + "_t0"]))
            col = const(p + "_col1", np.array([1], dtype=np.int64))
            nodes.append(helper.make_node("Unsqueeze", [p + "_t0", col], [p + "_tc"]))
            offs = const(p + "_offs", (np.arange(k, dtype=np.int64) * dil).reshape(1, k))
            nodes.append(helper.make_node("Add", [p + "_tc", offs], [p + "_idx"]))
            nodes.append(helper.make_node("Gather", [cur, p + "_idx"], [p + "_g"], axis=1))
            shape = const(p + "_rs", np.array([0, 0, -1], dtype=np.int64))
            nodes.append(helper.make_node("Reshape", [p + "_g", shape], [p + "_cols"]))
            cur = p + "_cols"
        nodes.append(helper.make_node("MatMulInteger", [cur, w_name, x_zero, wz_name], [p + "_y"]))
        nodes.append(helper.make_node("Transpose", [p + "_y"], [node.output[0]], perm=[0, 2, 1]))
        count += 1

    del graph.node[:]
    graph.node.extend(nodes)
    graph.initializer.extend(added)
    used = {i for n in graph.node for i in n.input}
    kept = [i for i in graph.initializer if i.name in used]
    del graph.initializer[:]
    graph.initializer.extend(kept)
    return count
