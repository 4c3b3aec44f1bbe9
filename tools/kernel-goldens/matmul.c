#define _POSIX_C_SOURCE 199309L
// Records ggml_mul_mat results of llama.cpp's CPU backend (one thread) for
// the weight types crates/inference multiplies with. See README.md.
//
// The weight goes where llama.cpp would put it: llama-model-loader.cpp's
// weight_buft_supported() tries the CPU device's extra buffer types
// (CPU_REPACK) first and keeps the first one whose supports_op accepts a
// MUL_MAT with the weight in a dummy buffer of that type; otherwise the plain
// CPU buffer. This harness does the same, so Q4_0 / Q4_K weights with a row
// count divisible by 8 are repacked (q4_0_8x8 / q4_K_8x8 on AVX2) exactly as
// in llama.cpp, and everything else runs through ggml_compute_forward_mul_mat
// (llamafile_sgemm or vec_dot).
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ggml.h"
#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint32_t next_u32(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 32);
}
static float uniform(void) { return (next_u32() + 0.5f) / 4294967296.0f; }
static float gauss(void) {
    float u = uniform(), v = uniform();
    return sqrtf(-2.0f * logf(u)) * cosf(6.2831853f * v);
}

static ggml_backend_dev_t cpu_dev;
static ggml_backend_t backend;

// llama-model-loader.cpp's choice between CPU_REPACK and the CPU buffer
static ggml_backend_buffer_type_t pick_buft(enum ggml_type type, int k, int n, const char ** name) {
    typedef ggml_backend_buffer_type_t * (*get_extra_t)(ggml_backend_dev_t);
    ggml_backend_reg_t reg = ggml_backend_dev_backend_reg(cpu_dev);
    get_extra_t get_extra = (get_extra_t) ggml_backend_reg_get_proc_address(reg, "ggml_backend_dev_get_extra_bufts");
    if (get_extra) {
        for (ggml_backend_buffer_type_t * b = get_extra(cpu_dev); b && *b; ++b) {
            struct ggml_init_params p = { ggml_tensor_overhead() * 8, NULL, true };
            struct ggml_context * ctx = ggml_init(p);
            struct ggml_tensor * w = ggml_new_tensor_2d(ctx, type, k, n);
            struct ggml_tensor * x = ggml_new_tensor_4d(ctx, GGML_TYPE_F32, k, 512, 1, 1);
            struct ggml_tensor * op = ggml_mul_mat(ctx, w, x);
            w->buffer = ggml_backend_buft_alloc_buffer(*b, 0);
            bool ok = ggml_backend_dev_supports_op(cpu_dev, op);
            ggml_backend_buffer_free(w->buffer);
            w->buffer = NULL;
            ggml_free(ctx);
            if (ok) {
                *name = ggml_backend_buft_name(*b);
                return *b;
            }
        }
    }
    *name = "CPU";
    return ggml_backend_dev_buffer_type(cpu_dev);
}

static void put_u32(FILE * f, uint32_t v) { fwrite(&v, 4, 1, f); }

// The activations: 8 rows for each k, written once per k (see main)
static const int KS[] = { 256, 512, 640, 1004, 1024, 2048 };
#define NK ((int) (sizeof(KS) / sizeof(KS[0])))
static float * LHS[NK];

static const float * lhs_for(int k) {
    for (int i = 0; i < NK; i++) if (KS[i] == k) return LHS[i];
    fprintf(stderr, "no activations for k=%d\n", k);
    exit(1);
}

static void make_lhs(FILE * f) {
    const int M = 8;
    put_u32(f, NK);
    for (int i = 0; i < NK; i++) {
        int k = KS[i];
        float * x = malloc(sizeof(float) * k * M);
        for (int j = 0; j < k * M; j++) x[j] = gauss();
        // rows 1, 4 and 7: a 256-value block whose largest |x| occurs as +a
        // and -a (Q8_K's sign choice differs between quantize_row_q8_K and
        // the 4-row interleaved quantizer of the repack path)
        for (int r = 1; r < M; r += 3) {
            x[r * k + 3] = -4.5f;
            x[r * k + 7] = 4.5f;
        }
        put_u32(f, k);
        fwrite(x, sizeof(float), (size_t) k * M, f);
        LHS[i] = x;
    }
}

// one weight of (k, n), activations of 8 rows, outputs for m = 1, 2, 5, 8
static void run_case(FILE * f, enum ggml_type type, int k, int n, int bench) {
    const int ms[4] = { 1, 2, 5, 8 };
    float * wf = malloc(sizeof(float) * k * n);
    for (int i = 0; i < k * n; i++) wf[i] = 0.05f * gauss();
    size_t wbytes = ggml_row_size(type, k) * n;
    void * wq = malloc(wbytes);
    if (type == GGML_TYPE_F32) {
        memcpy(wq, wf, wbytes);
    } else if (type == GGML_TYPE_F16) {
        ggml_fp32_to_fp16_row(wf, wq, (int64_t) k * n);
    } else if (type == GGML_TYPE_BF16) {
        ggml_fp32_to_bf16_row(wf, wq, (int64_t) k * n);
    } else {
        ggml_quantize_chunk(type, wf, wq, 0, n, k, NULL);
    }
    const float * x = lhs_for(k);

    const char * bname;
    ggml_backend_buffer_type_t buft = pick_buft(type, k, n, &bname);

    struct ggml_init_params pw = { ggml_tensor_overhead() * 4, NULL, true };
    struct ggml_context * cw = ggml_init(pw);
    struct ggml_tensor * w = ggml_new_tensor_2d(cw, type, k, n);
    ggml_backend_buffer_t bw = ggml_backend_alloc_ctx_tensors_from_buft(cw, buft);
    ggml_backend_tensor_set(w, wq, 0, wbytes);

    put_u32(f, type);
    put_u32(f, k);
    put_u32(f, n);
    put_u32(f, 4);
    for (int i = 0; i < 4; i++) put_u32(f, ms[i]);
    put_u32(f, (uint32_t) wbytes);
    fwrite(wq, 1, wbytes, f);

    for (int mi = 0; mi < 4; mi++) {
        int m = ms[mi];
        struct ggml_init_params pa = { ggml_tensor_overhead() * 8 + ggml_graph_overhead(), NULL, true };
        struct ggml_context * ca = ggml_init(pa);
        struct ggml_tensor * a = ggml_new_tensor_2d(ca, GGML_TYPE_F32, k, m);
        struct ggml_tensor * y = ggml_mul_mat(ca, w, a);
        ggml_backend_buffer_t ba = ggml_backend_alloc_ctx_tensors(ca, backend);
        ggml_backend_tensor_set(a, x, 0, sizeof(float) * k * m);
        struct ggml_cgraph * gf = ggml_new_graph(ca);
        ggml_build_forward_expand(gf, y);
        if (ggml_backend_graph_compute(backend, gf) != GGML_STATUS_SUCCESS) {
            fprintf(stderr, "compute failed\n");
            exit(1);
        }
        float * out = malloc(sizeof(float) * m * n);
        ggml_backend_tensor_get(y, out, 0, sizeof(float) * m * n);
        fwrite(out, sizeof(float), (size_t) m * n, f);
        if (bench) {
            int reps = m == 1 ? 50 : 10;
            struct timespec t0, t1;
            clock_gettime(CLOCK_MONOTONIC, &t0);
            for (int r = 0; r < reps; r++) ggml_backend_graph_compute(backend, gf);
            clock_gettime(CLOCK_MONOTONIC, &t1);
            double ns = ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / reps;
            fprintf(stderr, "bench %-5s k=%4d n=%3d m=%d: %8.1f ns per weight row (whole op %.0f ns)\n",
                    ggml_type_name(type), k, n, m, ns / n, ns);
        }
        free(out);
        ggml_backend_buffer_free(ba);
        ggml_free(ca);
    }
    fprintf(stderr, "%-5s k=%4d n=%3d buffer %s\n", ggml_type_name(type), k, n, bname);
    ggml_backend_buffer_free(bw);
    ggml_free(cw);
    free(wf);
    free(wq);
}

int main(int argc, char ** argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s OUT.bin [bench]\n", argv[0]);
        return 2;
    }
    int bench = argc > 2;
    ggml_backend_load_all();
    cpu_dev = ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_CPU);
    backend = ggml_backend_dev_init(cpu_dev, NULL);
    ggml_backend_cpu_set_n_threads(backend, 1);

    struct { enum ggml_type t; int k, n; } cases[] = {
        // 32-value block types: k = 640 is Gemma 3 270M's width; n % 8 == 0
        // takes the repack path for Q4_0, n = 20 / 12 not
        { GGML_TYPE_Q4_0, 640, 8 },  { GGML_TYPE_Q4_0, 256, 20 }, { GGML_TYPE_Q4_0, 1024, 12 }, { GGML_TYPE_Q4_0, 2048, 16 },
        { GGML_TYPE_Q4_1, 640, 8 },  { GGML_TYPE_Q4_1, 256, 20 }, { GGML_TYPE_Q4_1, 2048, 8 },
        { GGML_TYPE_Q5_0, 640, 8 },  { GGML_TYPE_Q5_0, 256, 20 }, { GGML_TYPE_Q5_0, 1024, 12 }, { GGML_TYPE_Q5_0, 2048, 8 },
        { GGML_TYPE_Q5_1, 640, 8 },  { GGML_TYPE_Q5_1, 256, 20 }, { GGML_TYPE_Q5_1, 2048, 8 },
        { GGML_TYPE_Q8_0, 640, 8 },  { GGML_TYPE_Q8_0, 256, 20 }, { GGML_TYPE_Q8_0, 2048, 8 },
        // K types (k a multiple of 256); Q4_K with n % 8 == 0 is repacked
        { GGML_TYPE_Q4_K, 256, 8 },  { GGML_TYPE_Q4_K, 512, 20 }, { GGML_TYPE_Q4_K, 1024, 12 }, { GGML_TYPE_Q4_K, 2048, 16 },
        { GGML_TYPE_Q5_K, 256, 8 },  { GGML_TYPE_Q5_K, 512, 20 }, { GGML_TYPE_Q5_K, 2048, 8 },
        { GGML_TYPE_Q6_K, 256, 8 },  { GGML_TYPE_Q6_K, 512, 20 }, { GGML_TYPE_Q6_K, 2048, 8 },
        // float types: tinyBLAS needs k % 8 == 0 and n % 4 == 0 (else vec_dot);
        // k = 1004 also leaves a tail after vec_dot's 32-value steps
        { GGML_TYPE_F16, 640, 8 },   { GGML_TYPE_F16, 256, 10 },  { GGML_TYPE_F16, 1004, 8 },  { GGML_TYPE_F16, 2048, 4 },
        { GGML_TYPE_BF16, 640, 8 },  { GGML_TYPE_BF16, 256, 10 }, { GGML_TYPE_BF16, 1004, 8 }, { GGML_TYPE_BF16, 2048, 4 },
        { GGML_TYPE_F32, 640, 8 },   { GGML_TYPE_F32, 256, 10 },  { GGML_TYPE_F32, 1004, 8 },  { GGML_TYPE_F32, 1024, 4 },
    };
    int nc = sizeof(cases) / sizeof(cases[0]);
    if (bench) {
        // ggml's speed on the shapes benches/kernels.rs times (k = 2048,
        // 512 weight rows); the golden file is not written
        const enum ggml_type types[] = { GGML_TYPE_Q4_0, GGML_TYPE_Q4_1, GGML_TYPE_Q5_0, GGML_TYPE_Q5_1,
            GGML_TYPE_Q8_0, GGML_TYPE_Q4_K, GGML_TYPE_Q5_K, GGML_TYPE_Q6_K, GGML_TYPE_F16, GGML_TYPE_BF16, GGML_TYPE_F32 };
        FILE * f = fopen("/dev/null", "wb");
        make_lhs(f);
        for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) run_case(f, types[i], 2048, 512, 1);
        fclose(f);
        ggml_backend_free(backend);
        return 0;
    }
    FILE * f = fopen(argv[1], "wb");
    fwrite("PSKM", 1, 4, f);
    put_u32(f, 1);
    make_lhs(f);
    put_u32(f, nc);
    for (int i = 0; i < nc; i++) run_case(f, cases[i].t, cases[i].k, cases[i].n, bench);
    fclose(f);
    ggml_backend_free(backend);
    return 0;
}
