#!/usr/bin/env python3
"""Writes the tensor benchmark programs as StableHLO text.

The models are generated rather than committed because their weights are
megabytes of constants; the generator is deterministic (numpy's PCG64 with
fixed seeds), so the same source text, and therefore the same compiled
module, comes out every time. Weights are module constants, as a deployed
model's would be, and each function takes only the activations.

  tiny         abs of a 4xf32 (pure runtime overhead)
  mlp          784 -> 512 -> 512 -> 512 -> 10, ReLU, batch 16
  convnet      three (3x3 conv, pad 1, + bias, ReLU, 2x2 max pool) layers,
               3 -> 16 -> 32 -> 64 channels on 1x3x64x64
  transformer  one pre-norm encoder block: seq 128, width 256, 4 heads of 64,
               feed-forward 1024 with ReLU, residuals

Usage: python3 bench/models.py NAME [-o FILE]   (prints to stdout by default)
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

# name -> (function, iree-benchmark-module style inputs)
INPUTS = {
    "tiny": ("main", ["4xf32=-1,2,-3,4"]),
    "mlp": ("main", ["16x784xf32=0.5"]),
    "convnet": ("main", ["1x3x64x64xf32=0.5"]),
    "transformer": ("main", ["128x256xf32=0.25"]),
}


def _dense(array: np.ndarray) -> str:
    """An MLIR dense elements attribute in the hex form (little-endian)."""
    data = np.ascontiguousarray(array, dtype="<f4").tobytes()
    return f'dense<"0x{data.hex().upper()}">'


def _tensor(shape: tuple[int, ...]) -> str:
    return "tensor<" + "x".join(str(d) for d in shape) + "xf32>"


class _Writer:
    def __init__(self, seed: int):
        self.rng = np.random.default_rng(seed)
        self.lines: list[str] = []
        self.counter = 0

    def name(self) -> str:
        self.counter += 1
        return f"%v{self.counter}"

    def emit(self, text: str) -> str:
        result = self.name()
        self.lines.append(f"    {result} = {text}")
        return result

    def weight(self, shape: tuple[int, ...], fan_in: int) -> str:
        scale = 1.0 / np.sqrt(fan_in)
        values = self.rng.uniform(-scale, scale, size=shape).astype(np.float32)
        return self.emit(f"stablehlo.constant {_dense(values)} : {_tensor(shape)}")

    def splat(self, value: float, shape: tuple[int, ...]) -> str:
        return self.emit(
            f"stablehlo.constant dense<{value:e}> : {_tensor(shape)}")

    def binary(self, op: str, a: str, b: str, shape: tuple[int, ...]) -> str:
        return self.emit(f"stablehlo.{op} {a}, {b} : {_tensor(shape)}")

    def unary(self, op: str, a: str, shape: tuple[int, ...]) -> str:
        return self.emit(f"stablehlo.{op} {a} : {_tensor(shape)}")

    def broadcast(self, a: str, src: tuple[int, ...], dims: list[int],
                  dst: tuple[int, ...]) -> str:
        return self.emit(
            f"stablehlo.broadcast_in_dim {a}, dims = {dims} : "
            f"({_tensor(src)}) -> {_tensor(dst)}")

    def relu(self, a: str, shape: tuple[int, ...]) -> str:
        zero = self.splat(0.0, shape)
        return self.binary("maximum", a, zero, shape)

    def matmul(self, a: str, b: str, m: int, k: int, n: int) -> str:
        return self.emit(
            f"stablehlo.dot_general {a}, {b}, contracting_dims = [1] x [0] : "
            f"({_tensor((m, k))}, {_tensor((k, n))}) -> {_tensor((m, n))}")

    def dense_layer(self, x: str, m: int, k: int, n: int) -> str:
        w = self.weight((k, n), k)
        b = self.weight((n,), k)
        y = self.matmul(x, w, m, k, n)
        bb = self.broadcast(b, (n,), [1], (m, n))
        return self.binary("add", y, bb, (m, n))

    def reduce(self, op: str, a: str, init: float, shape: tuple[int, ...],
               dim: int) -> str:
        out = tuple(d for i, d in enumerate(shape) if i != dim)
        literal = "0xFF800000" if init == float("-inf") else f"{init:e}"
        zero = self.emit(f"stablehlo.constant dense<{literal}> : tensor<f32>")
        return self.emit(
            f"stablehlo.reduce({a} init: {zero}) applies stablehlo.{op} "
            f"across dimensions = [{dim}] : ({_tensor(shape)}, tensor<f32>) "
            f"-> {_tensor(out)}")

    def function(self, arg_shape: tuple[int, ...], result: str,
                 result_shape: tuple[int, ...]) -> str:
        body = "\n".join(self.lines)
        return (
            "func.func @main(%v0: " + _tensor(arg_shape) + ") -> " +
            _tensor(result_shape) + " {\n" + body + "\n    return " + result +
            " : " + _tensor(result_shape) + "\n}\n")


def tiny() -> str:
    w = _Writer(0)
    r = w.unary("abs", "%v0", (4,))
    return w.function((4,), r, (4,))


def mlp() -> str:
    w = _Writer(1)
    x, batch = "%v0", 16
    widths = [784, 512, 512, 512, 10]
    for i in range(len(widths) - 1):
        x = w.dense_layer(x, batch, widths[i], widths[i + 1])
        if i + 2 < len(widths):
            x = w.relu(x, (batch, widths[i + 1]))
    return w.function((batch, 784), x, (batch, 10))


def convnet() -> str:
    w = _Writer(2)
    x = "%v0"
    channels, size = 3, 64
    for out_channels in (16, 32, 64):
        kernel = w.weight((out_channels, channels, 3, 3), channels * 9)
        bias = w.weight((out_channels,), channels * 9)
        shape = (1, out_channels, size, size)
        y = w.emit(
            f"stablehlo.convolution({x}, {kernel}) "
            f"dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], "
            f"window = {{stride = [1, 1], pad = [[1, 1], [1, 1]], "
            f"lhs_dilate = [1, 1], rhs_dilate = [1, 1]}} "
            f"{{batch_group_count = 1 : i64, feature_group_count = 1 : i64}} : "
            f"({_tensor((1, channels, size, size))}, "
            f"{_tensor((out_channels, channels, 3, 3))}) -> {_tensor(shape)}")
        bb = w.broadcast(bias, (out_channels,), [1], shape)
        y = w.relu(w.binary("add", y, bb, shape), shape)
        init = w.emit("stablehlo.constant dense<0xFF800000> : tensor<f32>")
        pooled = (1, out_channels, size // 2, size // 2)
        x = w.name()
        w.lines.append(
            f'    {x} = "stablehlo.reduce_window"({y}, {init}) ({{\n'
            f"    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
            f"      %m = stablehlo.maximum %a, %b : tensor<f32>\n"
            f"      stablehlo.return %m : tensor<f32>\n"
            f"    }}) {{window_dimensions = array<i64: 1, 1, 2, 2>, "
            f"window_strides = array<i64: 1, 1, 2, 2>}} : "
            f"({_tensor(shape)}, tensor<f32>) -> {_tensor(pooled)}")
        channels, size = out_channels, size // 2
    return w.function((1, 3, 64, 64), x, (1, channels, size, size))


def _layer_norm(w: _Writer, x: str, seq: int, width: int) -> str:
    shape = (seq, width)
    total = w.reduce("add", x, 0.0, shape, 1)
    inv_n = w.splat(1.0 / width, (seq,))
    mean = w.binary("multiply", total, inv_n, (seq,))
    centered = w.binary("subtract", x,
                        w.broadcast(mean, (seq,), [0], shape), shape)
    squares = w.binary("multiply", centered, centered, shape)
    var = w.binary("multiply", w.reduce("add", squares, 0.0, shape, 1), inv_n,
                   (seq,))
    eps = w.splat(1e-5, (seq,))
    inv_std = w.unary("rsqrt", w.binary("add", var, eps, (seq,)), (seq,))
    normed = w.binary("multiply", centered,
                      w.broadcast(inv_std, (seq,), [0], shape), shape)
    gamma = w.weight((width,), 1)
    beta = w.weight((width,), width)
    scaled = w.binary("multiply", normed,
                      w.broadcast(gamma, (width,), [1], shape), shape)
    return w.binary("add", scaled, w.broadcast(beta, (width,), [1], shape),
                    shape)


def transformer() -> str:
    w = _Writer(3)
    seq, width, heads, ffn = 128, 256, 4, 1024
    head = width // heads
    shape = (seq, width)
    x = "%v0"
    h = _layer_norm(w, x, seq, width)
    per_head = (heads, seq, head)

    def split_heads(t: str) -> str:
        r = w.emit(f"stablehlo.reshape {t} : ({_tensor(shape)}) -> "
                   f"{_tensor((seq, heads, head))}")
        return w.emit(f"stablehlo.transpose {r}, dims = [1, 0, 2] : "
                      f"({_tensor((seq, heads, head))}) -> {_tensor(per_head)}")

    q = split_heads(w.dense_layer(h, seq, width, width))
    k = split_heads(w.dense_layer(h, seq, width, width))
    v = split_heads(w.dense_layer(h, seq, width, width))
    scores_shape = (heads, seq, seq)
    scores = w.emit(
        f"stablehlo.dot_general {q}, {k}, batching_dims = [0] x [0], "
        f"contracting_dims = [2] x [2] : ({_tensor(per_head)}, "
        f"{_tensor(per_head)}) -> {_tensor(scores_shape)}")
    scores = w.binary("multiply", scores,
                      w.splat(1.0 / np.sqrt(head), scores_shape), scores_shape)
    row_max = w.reduce("maximum", scores, float("-inf"), scores_shape, 2)
    shifted = w.binary(
        "subtract", scores,
        w.broadcast(row_max, (heads, seq), [0, 1], scores_shape), scores_shape)
    exps = w.unary("exponential", shifted, scores_shape)
    sums = w.reduce("add", exps, 0.0, scores_shape, 2)
    probs = w.binary("divide", exps,
                     w.broadcast(sums, (heads, seq), [0, 1], scores_shape),
                     scores_shape)
    context = w.emit(
        f"stablehlo.dot_general {probs}, {v}, batching_dims = [0] x [0], "
        f"contracting_dims = [2] x [1] : ({_tensor(scores_shape)}, "
        f"{_tensor(per_head)}) -> {_tensor(per_head)}")
    merged = w.emit(f"stablehlo.transpose {context}, dims = [1, 0, 2] : "
                    f"({_tensor(per_head)}) -> {_tensor((seq, heads, head))}")
    merged = w.emit(f"stablehlo.reshape {merged} : "
                    f"({_tensor((seq, heads, head))}) -> {_tensor(shape)}")
    attended = w.dense_layer(merged, seq, width, width)
    x = w.binary("add", x, attended, shape)
    h = _layer_norm(w, x, seq, width)
    h = w.relu(w.dense_layer(h, seq, width, ffn), (seq, ffn))
    h = w.dense_layer(h, seq, ffn, width)
    x = w.binary("add", x, h, shape)
    return w.function(shape, x, shape)


MODELS = {"tiny": tiny, "mlp": mlp, "convnet": convnet,
          "transformer": transformer}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("name", choices=sorted(MODELS))
    parser.add_argument("-o", "--output")
    args = parser.parse_args()
    text = MODELS[args.name]()
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
