"""PyTorch's own matrix products at the paper model's shapes, for the roofline of the one-core goals.

The PyTorch twin (paper_twin.py) runs its linear layers on these products. Each shape is timed
alone (best of 5 rounds of many calls, after warm-up) on the threads given, in the three layouts
a training step uses: A.B (forward), A.B^T (input gradient) and A^T.B (weight gradient).

    /usr/bin/python3 torch_gemm.py --threads 1

Prints one JSON line: threads, BLAS, one entry per product (m, n, k, layout, GFLOP/s) and the
rate over all of them (their flops over their summed time).
"""
import argparse
import json
import time

import torch

# (m, n, k) of C = op(A) op(B), C m x n: the paper step's products (batch 64 x T 12 = 768 rows,
# d_model 64, FFN 256, vocab 65), forward and the two gradients of each linear layer.
SHAPES = [
    ("nn", 768, 192, 64), ("nt", 768, 64, 192), ("tn", 64, 192, 768),
    ("nn", 768, 64, 64), ("nt", 768, 64, 64), ("tn", 64, 64, 768),
    ("nn", 768, 256, 64), ("nt", 768, 64, 256), ("tn", 64, 256, 768),
    ("nn", 768, 64, 256), ("nt", 768, 256, 64), ("tn", 256, 64, 768),
    ("nn", 768, 65, 64), ("nt", 768, 64, 65), ("tn", 64, 65, 768),
]


def operands(layout, m, n, k):
    a = torch.randn(k, m).t() if layout == "tn" else torch.randn(m, k)
    b = torch.randn(n, k).t() if layout == "nt" else torch.randn(k, n)
    return a, b


def seconds(a, b, calls):
    for _ in range(10):
        torch.mm(a, b)
    best = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(calls):
            torch.mm(a, b)
        best = min(best, (time.perf_counter() - t0) / calls)
    return best


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--calls", type=int, default=200)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    products, flops, total = [], 0.0, 0.0
    for layout, m, n, k in SHAPES:
        s = seconds(*operands(layout, m, n, k), args.calls)
        products.append({"layout": layout, "m": m, "n": n, "k": k, "gflops": 2 * m * n * k / s / 1e9})
        flops += 2 * m * n * k
        total += s
    config = torch.__config__.show()
    blas = [line.strip() for line in config.splitlines() if "CPU capability" in line]
    print(json.dumps({
        "threads": args.threads,
        "capability": blas[0] if blas else "unknown",
        "products": products,
        "gflops": flops / total / 1e9,
    }))


if __name__ == "__main__":
    main()
