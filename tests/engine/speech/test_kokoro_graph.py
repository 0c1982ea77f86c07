"""The in-memory edits of Kokoro's graph: durations exposed, and convolutions as int8 matrix products
that give the same audio bit for bit (the cache, the plans and the listening figures depend on it)."""

from __future__ import annotations

import numpy as np
import pytest

from coursekit.speech.voices import kokoro as kk
from coursekit.speech.voices import kokoro_graph as kg

pytestmark = pytest.mark.skipif(bool(kk.missing_files()), reason="kokoro model not assembled (make setup)")


def _load():
    import onnx

    return onnx.load(str(kk.MODEL_DIR / kk.MODEL_FILE))


def _ops(model) -> dict[str, int]:
    counts: dict[str, int] = {}
    for n in model.graph.node:
        counts[n.op_type] = counts.get(n.op_type, 0) + 1
    return counts


def test_every_stride_one_conv_is_rewritten_and_no_other():
    import onnx

    model = _load()
    before = _ops(model)
    strided = sum(
        1
        for n in model.graph.node
        if n.op_type == "ConvInteger"
        and list(onnx.helper.get_attribute_value(next(a for a in n.attribute if a.name == "strides"))) != [1]
    )
    count = kg.convs_as_matmul(model)
    after = _ops(model)
    assert count == before["ConvInteger"] - strided > 0
    assert after["ConvInteger"] == strided
    assert after["MatMulInteger"] == before["MatMulInteger"] + count
    onnx.checker.check_model(model)


@pytest.mark.skipif(not kg.cpu_has_vnni(), reason="the rewrite is used only on CPUs with VNNI")
def test_the_rewritten_graph_gives_the_same_samples_and_durations_bit_for_bit():
    plain = kk.Engine(kk.MODEL_DIR, rewrite=False)
    fast = kk.Engine(kk.MODEL_DIR, rewrite=True)
    assert plain.convs_rewritten == 0 and fast.convs_rewritten > 0
    style = np.load(kk.MODEL_DIR / kk.VOICES_FILE)["jf_gongitsune"][40]
    voice = kk.Kokoro()
    spoken = voice.tokens(voice.phonemes("旋转矩阵把向量转过一个角度，长度不变。")[0].phonemes)[0]
    rng = np.random.default_rng(7)
    for tokens in (spoken, [int(t) for t in rng.integers(1, 150, 40)]):  # a sentence, and noise
        a_audio, a_units = plain.run(tokens, style, 1.2)
        b_audio, b_units = fast.run(tokens, style, 1.2)
        assert np.array_equal(a_units, b_units)
        assert a_audio.shape == b_audio.shape and np.array_equal(a_audio, b_audio)


def test_cpu_flags_are_read_from_cpuinfo(tmp_path):
    kg.cpu_has_vnni.cache_clear()
    try:
        vnni, plain = tmp_path / "vnni", tmp_path / "plain"
        vnni.write_text("processor : 0\nflags : fpu sse avx2 avx512f avx512_vnni\n")
        plain.write_text("processor : 0\nflags : fpu sse avx2 avx512f avx512bw\n")
        assert kg.cpu_has_vnni(vnni)
        assert not kg.cpu_has_vnni(plain)
        assert not kg.cpu_has_vnni(tmp_path / "absent")
    finally:
        kg.cpu_has_vnni.cache_clear()


def test_a_model_without_the_duration_tensor_is_refused():
    from onnx import TensorProto, helper

    g = helper.make_graph(
        [helper.make_node("Identity", ["a"], ["b"])],
        "g",
        [helper.make_tensor_value_info("a", TensorProto.FLOAT, [1])],
        [helper.make_tensor_value_info("b", TensorProto.FLOAT, [1])],
    )
    with pytest.raises(RuntimeError, match="Clip_output_0"):
        kg.expose_durations(helper.make_model(g))


def test_more_threads_give_the_same_samples_and_durations_bit_for_bit():
    """A synthesis alone runs on every core (``ALONE_THREADS``), a pool's worker on one; the cache key
    names one thread, so both must give the one-thread audio."""
    one = kk.Engine(kk.MODEL_DIR, threads=1)
    two = kk.Engine(kk.MODEL_DIR, threads=2)
    style = kk.load_style(kk.MODEL_DIR, "zf_xiaoxiao")[60]
    voice = kk.Kokoro()
    text = "这个矩阵是照公式写出来的，不用训练，n 取多少都成立。最慢的一步只转 0.001 弧度。"
    spoken = voice.tokens(voice.phonemes(text)[0].phonemes)[0]
    rng = np.random.default_rng(11)
    for tokens in (spoken, [int(t) for t in rng.integers(1, 150, 200)]):  # a long sentence, and noise
        a_audio, a_units = one.run(tokens, style, 1.0)
        b_audio, b_units = two.run(tokens, style, 1.0)
        assert np.array_equal(a_units, b_units)
        assert a_audio.shape == b_audio.shape and np.array_equal(a_audio, b_audio)


def test_a_pools_worker_runs_one_thread_and_a_voice_alone_every_core():
    voice = kk.Kokoro()
    factory, args, kwargs = voice.process_recipe()
    assert kwargs["threads"] == kk.THREADS == 1
    assert voice.threads == kk.ALONE_THREADS >= 1
    assert voice.identity()["threads"] == 1
