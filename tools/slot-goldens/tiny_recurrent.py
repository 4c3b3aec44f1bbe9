"""Writes a tiny Mamba model (random weights, 2 layers, width 64) with the vocabulary and chat template of another
GGUF (SmolLM2's), for record.py's recurrent conversations: llama-server runs it like any model, and what its slot
reuses depends only on the memory being recurrent, not on what the weights say.

    python tiny_recurrent.py VOCAB_SOURCE.gguf OUT.gguf      (needs the gguf and numpy packages from PyPI)
"""
import sys

import numpy as np
import gguf

SRC, OUT = sys.argv[1:3]
W, D_INNER, D_STATE, DT_RANK, D_CONV, LAYERS = 64, 128, 16, 4, 4, 2
rng = np.random.default_rng(7)

src = gguf.GGUFReader(SRC)
w = gguf.GGUFWriter(OUT, "mamba")
w.add_block_count(LAYERS)
w.add_context_length(8192)
w.add_embedding_length(W)
w.add_feed_forward_length(0)
w.add_head_count(0)
w.add_layer_norm_rms_eps(1e-5)
w.add_ssm_conv_kernel(D_CONV)
w.add_ssm_inner_size(D_INNER)
w.add_ssm_state_size(D_STATE)
w.add_ssm_time_step_rank(DT_RANK)
n_vocab = 0
for field in src.fields.values():
    name = field.name
    if not (name.startswith("tokenizer.")):
        continue
    t = field.types[0]
    if t == gguf.GGUFValueType.ARRAY:
        sub = field.types[1]
        vals = [field.parts[i] for i in field.data]
        if sub == gguf.GGUFValueType.STRING:
            vals = [bytes(v) for v in vals]
            if name == "tokenizer.ggml.tokens":
                n_vocab = len(vals)
        else:
            vals = [v.tolist()[0] for v in vals]
        w.add_array(name, vals)
    elif t == gguf.GGUFValueType.STRING:
        w.add_string(name, bytes(field.parts[field.data[0]]).decode("utf-8"))
    elif t == gguf.GGUFValueType.BOOL:
        w.add_bool(name, bool(field.parts[field.data[0]][0]))
    else:
        w.add_uint32(name, int(field.parts[field.data[0]][0]))


def tensor(name, shape):
    w.add_tensor(name, (rng.standard_normal(shape) * 0.05).astype(np.float32))


# numpy shapes are the GGUF dimensions reversed
tensor("token_embd.weight", (n_vocab, W))
tensor("output_norm.weight", (W,))
for i in range(LAYERS):
    p = f"blk.{i}."
    tensor(p + "attn_norm.weight", (W,))
    tensor(p + "ssm_in.weight", (2 * D_INNER, W))
    tensor(p + "ssm_conv1d.weight", (D_INNER, D_CONV))
    tensor(p + "ssm_conv1d.bias", (D_INNER,))
    tensor(p + "ssm_x.weight", (DT_RANK + 2 * D_STATE, D_INNER))
    tensor(p + "ssm_dt.weight", (D_INNER, DT_RANK))
    tensor(p + "ssm_dt.bias", (D_INNER,))
    tensor(p + "ssm_a", (D_INNER, D_STATE))
    tensor(p + "ssm_d", (D_INNER,))
    tensor(p + "ssm_out.weight", (W, D_INNER))
w.write_header_to_file()
w.write_kv_data_to_file()
w.write_tensors_to_file()
w.close()
print(OUT, n_vocab)
