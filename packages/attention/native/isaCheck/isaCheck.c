/*
 * The ISA check's harness: main, the arena, the seeded inputs and the text it prints (isaCheck.h).
 *
 *   case <name>
 *   out <what> <exact|each|region> <tol> <floor> <count> <hash>   then lines `<i> <bits> [<scale>]`
 *   value <what> <tol> <the double's bits in hex> <%.17g>
 *   rest <hash>
 *
 * Every float of an output is hashed (FNV-1a over its bits); up to SAMPLE_ALL floats are printed
 * one a line (every product of the random GEMM cases whole), of a larger output about SAMPLES at
 * an odd stride (so every lane of every vector width is among them) and its last. `rest` hashes the floats of [0, end) outside every
 * output of the case.
 */
#include "isaCheck.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARENA_FLOATS (4u << 20)
#define MAX_OUTPUTS 128
#define SAMPLE_ALL 20000u
#define SAMPLES 2048u

uint8_t *mem;
static float *before;

/* The addon's test switches (kernels.h, where the tree has them) live in addon.c, which is not
   linked here: weak, so that a tree with or without them links. */
__attribute__((weak)) int boltzmann_fail_pad_allocations;
__attribute__((weak)) uint64_t boltzmann_pad_fallbacks;

typedef struct {
  uint32_t at, n;
} span;
static span outputs[MAX_OUTPUTS];
static int output_count;

void seeded(uint32_t at, uint32_t n, uint32_t seed, float scale) {
  uint32_t s = seed;
  for (uint32_t i = 0; i < n; i++) {
    s = s * 1664525u + 1013904223u;
    AT(at)[i] = (float)((double)scale * ((double)s / 2147483648.0 - 1.0));
  }
}

void junk(uint32_t end, uint32_t seed) { seeded(0, end, seed, 100.0f); }

int32_t next_int(stream *r, int32_t lo, int32_t hi) {
  r->s = r->s * 1664525u + 1013904223u;
  return lo + (int32_t)(r->s % (uint32_t)(hi - lo + 1));
}

const float *snapshot(uint32_t end) {
  memcpy(before, mem, (size_t)end * sizeof(float));
  return before;
}

static uint32_t bits(float x) {
  uint32_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}

static uint64_t fnv(uint64_t h, uint32_t u) {
  for (int b = 0; b < 4; b++) h = (h ^ ((u >> (8 * b)) & 0xffu)) * 0x100000001b3ull;
  return h;
}

static void region_header(const char *what, const char *kind, double tol, double floor,
                          uint32_t at, uint32_t n) {
  if (output_count == MAX_OUTPUTS) {
    fprintf(stderr, "isaCheck: more than %d outputs in a case\n", MAX_OUTPUTS);
    exit(2);
  }
  outputs[output_count++] = (span){at, n};
  uint64_t h = 0xcbf29ce484222325ull;
  for (uint32_t i = 0; i < n; i++) h = fnv(h, bits(AT(at)[i]));
  printf("out %s %s %.9g %.9g %u %016llx\n", what, kind, tol, floor, n, (unsigned long long)h);
}

static int sampled(uint32_t i, uint32_t n) {
  return n <= SAMPLE_ALL || i % ((n / SAMPLES) | 1) == 0 || i == n - 1;
}

static void out_lines(const char *what, const char *kind, uint32_t at, uint32_t n, double tol,
                      double floor, scale_fn scale, const void *ctx) {
  region_header(what, kind, tol, floor, at, n);
  for (uint32_t i = 0; i < n; i++) {
    if (!sampled(i, n)) continue;
    if (scale != NULL)
      printf("%u %08x %.6e\n", i, bits(AT(at)[i]), scale(ctx, i));
    else
      printf("%u %08x\n", i, bits(AT(at)[i]));
  }
}

void out_exact(const char *what, uint32_t at, uint32_t n) {
  out_lines(what, "exact", at, n, 0, 0, NULL, NULL);
}

void out_each(const char *what, uint32_t at, uint32_t n, double tol, scale_fn scale,
              const void *ctx) {
  out_lines(what, "each", at, n, tol, 0, scale, ctx);
}

void out_region(const char *what, uint32_t at, uint32_t n, double tol, double floor) {
  out_lines(what, "region", at, n, tol, floor, NULL, NULL);
}

void out_value(const char *what, double value, double tol) {
  uint64_t u;
  memcpy(&u, &value, sizeof u);
  printf("value %s %.9g %016llx %.17g\n", what, tol, (unsigned long long)u, value);
}

void case_begin(const char *name) {
  output_count = 0;
  printf("case %s\n", name);
}

void case_end(uint32_t end) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (uint32_t i = 0; i < end; i++) {
    int inside = 0;
    for (int o = 0; o < output_count && !inside; o++)
      inside = i >= outputs[o].at && i < outputs[o].at + outputs[o].n;
    if (!inside) h = fnv(h, bits(AT(0)[i]));
  }
  printf("rest %016llx\n", (unsigned long long)h);
}

int main(void) {
  mem = calloc(ARENA_FLOATS, sizeof(float));
  before = calloc(ARENA_FLOATS, sizeof(float));
  if (mem == NULL || before == NULL) return 2;
  printf("isa %s %d\n", ISA_NAME_TEXT, VW);
  gemm_cases();
  elementwise_cases();
  row_cases();
  transfer_cases();
  printf("end\n");
  return 0;
}
