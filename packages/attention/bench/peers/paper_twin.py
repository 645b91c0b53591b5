"""A plain PyTorch twin of @boltzmann/attention's paper model, for speed comparisons only.

It mirrors (METHOD.md §5; packages/attention createTransformer defaults and
scripts/benchTraining.ts --model paper):
- token + learned positional embeddings, vocab 65 (Tiny Shakespeare's characters), T = 12;
- one pre-LayerNorm block (LayerNorm eps 1e-5 with bias), one head, d_model 64, q/k/v/output
  linear maps with bias, residual; FFN 64 -> 256 -> 64 with exact (erf) GELU, residual;
  final LayerNorm and an untied linear head with bias;
- init N(0, 0.02^2) for kernels and embeddings, zero biases, unit gains, J N(0, 0.02^2) on the
  strict upper triangle;
- attention `softmax` (causal softmax of beta*h, h = q.k/sqrt(d_k)) or `boltzmann` (exact):
  query i has the spins of keys 0..i, p_i(s) ~ exp(beta (sum_j h_ij s_j + sum_{j<k<=i} J_jk s_j s_k)),
  alpha_ij = P_i(s_j = +1) by enumerating all 2^(i+1) states, w = alpha / sum(alpha);
  vectorized over the batch and the states, autograd for the backward (float32);
- AdamW as the bench's shakespeare preset: lr 3e-3, cosine decay to 10 % over the run,
  betas (0.9, 0.999), eps 1e-8, weight decay 0.01 on embeddings and linear kernels only (never
  J, biases or LayerNorm), global-norm clipping 1.0; batch 64, cross-entropy at every position.
Like benchTraining.ts it trains on one fixed batch of random tokens (speed does not depend on
the data). Its parameter count equals the TS model's (59,265 softmax, 59,409 boltzmann with its
12 x 12 J). Prints one JSON line: variant, threads, parameters, steps, median ms/step, steps/s,
losses and the BLAS library loaded (Debian's python3-torch uses the libblas.so.3 alternative:
the reference BLAS is ~10x slower here than OpenBLAS, `apt-get install libopenblas0-pthread`).
--threads sets torch's threads only; scripts/benchPeers.ts sets OMP_NUM_THREADS and
OPENBLAS_NUM_THREADS for each configuration it tries (bench/peers/peerConfigs.ts), and the
variables below default to --threads only when unset.

    /usr/bin/python3 paper_twin.py --variant softmax|boltzmann --steps 40 --threads 1
"""
import argparse
import json
import math
import os
import statistics
import time

parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
parser.add_argument('--variant', choices=['softmax', 'boltzmann'], default='softmax')
parser.add_argument('--steps', type=int, default=40)
parser.add_argument('--threads', type=int, default=1)
parser.add_argument('--length', type=int, default=12)
parser.add_argument('--batch', type=int, default=64)
parser.add_argument('--seed', type=int, default=0)
args = parser.parse_args()
for name in ('OMP_NUM_THREADS', 'OPENBLAS_NUM_THREADS', 'MKL_NUM_THREADS'):
    os.environ.setdefault(name, str(args.threads))

import torch  # noqa: E402  (after the thread variables, which the BLAS reads at load)
import torch.nn.functional as F  # noqa: E402

torch.set_num_threads(args.threads)
torch.manual_seed(args.seed)
VOCAB, D, HIDDEN, BETA, STD = 65, 64, 256, 1.0, 0.02
WARM_UP_S = 1.5  # least wall time of untimed steps before the timed ones


def spin_tables(length):
    """Per prefix length n: bits (2^n x n, bit j set <=> s_j = +1), spins and pair products."""
    tables = []
    for n in range(1, length + 1):
        idx = torch.arange(2 ** n)
        bits = ((idx[:, None] >> torch.arange(n)) & 1).float()
        spins = 2 * bits - 1
        iu = torch.triu_indices(n, n, 1)
        pairs = spins[:, iu[0]] * spins[:, iu[1]]
        tables.append((bits, spins.t().contiguous(), pairs.t().contiguous(), iu))
    return tables


class Twin(torch.nn.Module):
    def __init__(self, variant, length):
        super().__init__()
        self.variant, self.length = variant, length
        normal = lambda *shape: torch.nn.Parameter(torch.randn(*shape) * STD)
        self.tok, self.pos = normal(VOCAB, D), normal(length, D)
        self.ln1, self.ln2, self.lnf = (torch.nn.LayerNorm(D) for _ in range(3))
        self.q, self.k, self.v, self.o = (torch.nn.Linear(D, D) for _ in range(4))
        self.ffn1, self.ffn2 = torch.nn.Linear(D, HIDDEN), torch.nn.Linear(HIDDEN, D)
        self.head = torch.nn.Linear(D, VOCAB)
        for lin in (self.q, self.k, self.v, self.o, self.ffn1, self.ffn2, self.head):
            torch.nn.init.normal_(lin.weight, std=STD)
            torch.nn.init.zeros_(lin.bias)
        self.register_buffer('causal', torch.tril(torch.ones(length, length, dtype=torch.bool)))
        if variant == 'boltzmann':
            self.J = torch.nn.Parameter(torch.triu(torch.randn(length, length) * STD, 1))
            self.tables = spin_tables(length)

    def boltzmann_weights(self, h):
        """Exact Boltzmann attention weights B x T x T from fields h (B x T x T)."""
        rows = []
        for i, (bits, spins_t, pairs_t, iu) in enumerate(self.tables):
            field = h[:, i, : i + 1] @ spins_t  # B x 2^n
            coupling = self.J[iu[0], iu[1]] @ pairs_t if i > 0 else 0.0  # 2^n
            p = torch.softmax(BETA * (field + coupling), dim=-1)
            alpha = p @ bits  # B x n: P(s_j = +1)
            w = alpha / alpha.sum(-1, keepdim=True)
            rows.append(F.pad(w, (0, self.length - i - 1)))
        return torch.stack(rows, dim=1)

    def forward(self, tokens):
        t = tokens.shape[1]
        x = self.tok[tokens] + self.pos[:t]
        a = self.ln1(x)
        h = (self.q(a) @ self.k(a).transpose(1, 2)) / math.sqrt(D)
        if self.variant == 'softmax':
            w = torch.softmax(BETA * h.masked_fill(~self.causal[:t, :t], float('-inf')), dim=-1)
        else:
            w = self.boltzmann_weights(h)
        x = x + self.o(w @ self.v(a))
        x = x + self.ffn2(F.gelu(self.ffn1(self.ln2(x))))
        return self.head(self.lnf(x))


def optimizer_for(model):
    decay = [model.tok, model.pos] + [
        lin.weight for lin in (model.q, model.k, model.v, model.o, model.ffn1, model.ffn2, model.head)
    ]
    ids = {id(p) for p in decay}
    rest = [p for p in model.parameters() if id(p) not in ids]
    groups = [{'params': decay, 'weight_decay': 0.01}, {'params': rest, 'weight_decay': 0.0}]
    return torch.optim.AdamW(groups, lr=3e-3, betas=(0.9, 0.999), eps=1e-8)


def blas_library():
    """The BLAS shared library this process loaded (Debian's reference libblas is ~10x slower)."""
    with open('/proc/self/maps') as maps:
        names = {line.split()[-1] for line in maps if 'blas' in line.split()[-1]}
    return sorted(names)


def main():
    model = Twin(args.variant, args.length)
    opt = optimizer_for(model)
    inputs = torch.randint(VOCAB, (args.batch, args.length))
    targets = torch.randint(VOCAB, (args.batch, args.length))
    # Warm-up as scripts/benchEngine.ts's: the steps of the first WARM_UP_S seconds (at least one:
    # allocations, the first kernel dispatch) are not timed, each on new random tokens (nothing
    # to fit, so the timed steps start near the initial weights, not in an overfitted regime).
    # The step stays inline, as in a usual PyTorch loop: moved into a function, the boltzmann
    # twin's step took 18-22 ms instead of 9.6-10.4 here (why, I did not find out).
    times, losses, warm, start = [], [], 0, time.perf_counter()
    while len(times) < args.steps:
        warming = warm == 0 or time.perf_counter() - start < WARM_UP_S
        x, y = (torch.randint(VOCAB, (args.batch, args.length)) for _ in range(2)) if warming else (inputs, targets)
        t0 = time.perf_counter()
        lr = 3e-3 * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * len(times) / args.steps)))
        for group in opt.param_groups:
            group['lr'] = lr
        logits = model(x)
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), y.reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        losses.append(loss.item())
        if warming:
            warm += 1
        else:
            times.append(1000 * (time.perf_counter() - t0))
    median = statistics.median(times)
    print(json.dumps({
        'peer': 'pytorch-twin', 'variant': args.variant, 'threads': torch.get_num_threads(),
        'parameters': sum(p.numel() for p in model.parameters()),
        'torch': torch.__version__, 'steps': args.steps, 'msPerStep': round(median, 3),
        'stepsPerSecond': round(1000 / median, 2), 'firstLoss': round(losses[0], 4),
        'lastLoss': round(losses[-1], 4), 'blas': blas_library(),
    }))


if __name__ == '__main__':
    main()
