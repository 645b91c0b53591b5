"""nanoGPT's data/shakespeare_char/prepare.py without the download: reads a local input.txt.

Writes train.bin, val.bin (uint16 character ids, first 90 % / last 10 %) and meta.pkl
(vocab_size, itos, stoi) into the given folder, exactly as nanoGPT's script does.

    python3 prepare_shakespeare_char.py <input.txt> <out dir>
"""
import os
import pickle
import sys

import numpy as np

source, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
with open(source, 'r') as f:
    data = f.read()
chars = sorted(list(set(data)))
stoi = {ch: i for i, ch in enumerate(chars)}
itos = {i: ch for i, ch in enumerate(chars)}
n = len(data)
for name, part in (('train.bin', data[: int(n * 0.9)]), ('val.bin', data[int(n * 0.9):])):
    np.array([stoi[c] for c in part], dtype=np.uint16).tofile(os.path.join(out, name))
with open(os.path.join(out, 'meta.pkl'), 'wb') as f:
    pickle.dump({'vocab_size': len(chars), 'itos': itos, 'stoi': stoi}, f)
print(f'{n} characters, vocab {len(chars)} -> {out}')
