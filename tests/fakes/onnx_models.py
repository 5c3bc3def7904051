"""A tiny ONNX cross-encoder written byte by byte: tests need no ``onnx`` package.

The model's logit is ``scale * (real tokens in the pair) + offset`` with shape (batch, 1), so the
expected relevance of any pair can be computed from the tokenizer alone.
"""

from __future__ import annotations

import struct
from pathlib import Path

#: The BERT WordPiece tokenizer shipped with the local embedding model (cross-encoders share it).
TOKENIZER = Path(__file__).resolve().parents[2] / "providers" / "data" / "tokenizer.json"


# A minimal protobuf writer, enough for an ONNX ModelProto.


def _varint(n: int) -> bytes:
    out = bytearray()
    n &= (1 << 64) - 1
    while True:
        low, n = n & 0x7F, n >> 7
        out.append(low | 0x80 if n else low)
        if not n:
            return bytes(out)


def _field(number: int, value: int | str | bytes) -> bytes:
    if isinstance(value, int):
        return _varint(number << 3) + _varint(value)
    raw = value.encode() if isinstance(value, str) else value
    return _varint(number << 3 | 2) + _varint(len(raw)) + raw


_FLOAT, _INT64 = 1, 7


def _value_info(name: str, elem: int, dims: list[int | str]) -> bytes:
    shape = b"".join(_field(1, _field(2, d) if isinstance(d, str) else _field(1, d)) for d in dims)
    return _field(1, name) + _field(2, _field(1, _field(1, elem) + _field(2, shape)))


def _node(op: str, inputs: list[str], outputs: list[str], attrs: bytes = b"") -> bytes:
    return (
        b"".join(_field(1, i) for i in inputs)
        + b"".join(_field(2, o) for o in outputs)
        + _field(4, op)
        + attrs
    )


def _int_attr(name: str, value: int) -> bytes:
    return _field(5, _field(1, name) + _field(20, 2) + _field(3, value))


def _tensor(name: str, elem: int, dims: list[int], raw: bytes) -> bytes:
    return b"".join(_field(1, d) for d in dims) + _field(2, elem) + _field(8, name) + _field(9, raw)


def tiny_cross_encoder(scale: float = 0.1, offset: float = -2.0) -> bytes:
    """logit = scale * (number of real tokens in the pair) + offset, shape (batch, 1)."""
    graph = (
        _field(1, _node("Cast", ["attention_mask"], ["mask_f"], _int_attr("to", _FLOAT)))
        + _field(1, _node("ReduceSum", ["mask_f", "axes"], ["len_f"], _int_attr("keepdims", 1)))
        + _field(1, _node("Mul", ["len_f", "scale"], ["scaled"]))
        + _field(1, _node("Add", ["scaled", "offset"], ["logits"]))
        + _field(2, "tiny")
        + _field(5, _tensor("axes", _INT64, [1], struct.pack("<q", 1)))
        + _field(5, _tensor("scale", _FLOAT, [], struct.pack("<f", scale)))
        + _field(5, _tensor("offset", _FLOAT, [], struct.pack("<f", offset)))
        + _field(11, _value_info("input_ids", _INT64, ["batch", "seq"]))
        + _field(11, _value_info("attention_mask", _INT64, ["batch", "seq"]))
        + _field(12, _value_info("logits", _FLOAT, ["batch", 1]))
    )
    return _field(1, 8) + _field(8, _field(1, "") + _field(2, 13)) + _field(7, graph)
