/*
 * The engine's native kernels as a Node-API addon. `bind(view, isa)` binds every kernel of one ISA
 * to the arena under `view` (a typed array over the WebAssembly memory's buffer, shared or not,
 * starting at byte 0) and returns an object whose functions have the names, parameters and results
 * of the WAT modules' exports, so the engine calls either the same way. `isas()` lists what this
 * CPU runs, best first. `testing` holds test-only switches (kernels.h). The addon is
 * context-aware: every worker thread loads its own instance.
 */
#include <node_api.h>
#include <stdlib.h>
#include <string.h>

#include "fpMode.h"
#include "kernels.h"

#define MAX_ARGS 24

typedef struct {
  const char *name;
  int returns;
  kernel_fn fn[4]; /* avx512, avx2, base, neon */
} kernel_entry;

enum { ISA_AVX512, ISA_AVX2, ISA_BASE, ISA_NEON, ISA_COUNT };
static const char *const ISA_NAMES[ISA_COUNT] = {"avx512", "avx2", "base", "neon"};

#if defined(__x86_64__)
#define BOLTZMANN_ENTRY(name, returns) \
  {#name, returns, {name##_avx512, name##_avx2, name##_base, NULL}},
#elif defined(__aarch64__)
#define BOLTZMANN_ENTRY(name, returns) {#name, returns, {NULL, NULL, NULL, name##_neon}},
#else
#define BOLTZMANN_ENTRY(name, returns) {#name, returns, {NULL, NULL, name##_base, NULL}},
#endif
static const kernel_entry KERNELS[] = {BOLTZMANN_KERNELS(BOLTZMANN_ENTRY)};
#define KERNEL_COUNT (sizeof KERNELS / sizeof KERNELS[0])

typedef struct {
  uint8_t *base;
  napi_ref view;
} binding;

typedef struct {
  kernel_fn fn;
  int returns;
  binding *arena;
} bound_kernel;

static int isa_supported(int isa) {
#if defined(__x86_64__)
  __builtin_cpu_init();
  switch (isa) {
    case ISA_AVX512:
      return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
             __builtin_cpu_supports("fma");
    case ISA_AVX2:
      return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case ISA_BASE:
      return 1;
    default:
      return 0;
  }
#elif defined(__aarch64__)
  return isa == ISA_NEON;
#else
  return isa == ISA_BASE;
#endif
}

static napi_value throw_error(napi_env env, const char *code, const char *message) {
  napi_throw_error(env, code, message);
  return NULL;
}

static napi_value call_kernel(napi_env env, napi_callback_info info) {
  size_t argc = MAX_ARGS;
  napi_value argv[MAX_ARGS];
  void *data;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, &data) != napi_ok) return NULL;
  const bound_kernel *k = data;
  double a[MAX_ARGS] = {0};
  for (size_t i = 0; i < argc && i < MAX_ARGS; i++)
    if (napi_get_value_double(env, argv[i], &a[i]) != napi_ok)
      return throw_error(env, "ATTENTION_INVALID_ARGUMENT", "a native kernel takes numbers only");
  const fp_mode mode = fp_flush_on(); /* fpMode.h: every kernel without subnormals */
  const double r = k->fn(k->arena->base, a);
  fp_flush_off(mode);
  if (!k->returns) return NULL;
  napi_value out;
  napi_create_double(env, r, &out);
  return out;
}

static void free_binding(napi_env env, void *data, void *hint) {
  (void)hint;
  binding *b = data;
  napi_delete_reference(env, b->view);
  free(b);
}

static void free_kernel(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  free(data);
}

static int isa_index(napi_env env, napi_value value) {
  char name[16];
  size_t len;
  if (napi_get_value_string_utf8(env, value, name, sizeof name, &len) != napi_ok) return -1;
  for (int i = 0; i < ISA_COUNT; i++)
    if (strcmp(name, ISA_NAMES[i]) == 0) return isa_supported(i) ? i : -1;
  return -1;
}

static napi_value bind_kernels(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  if (argc < 2) return throw_error(env, "ATTENTION_INVALID_ARGUMENT", "bind(view, isa)");
  napi_typedarray_type type;
  size_t length, offset;
  void *base;
  napi_value buffer;
  if (napi_get_typedarray_info(env, argv[0], &type, &length, &base, &buffer, &offset) != napi_ok ||
      offset != 0)
    return throw_error(env, "ATTENTION_INVALID_ARGUMENT",
                       "bind: the arena must be a typed array over the whole memory, from byte 0");
  const int isa = isa_index(env, argv[1]);
  if (isa < 0) return throw_error(env, "ATTENTION_BACKEND_UNAVAILABLE", "bind: this CPU cannot run that ISA");
  binding *b = malloc(sizeof *b);
  b->base = base;
  napi_create_reference(env, argv[0], 1, &b->view);
  napi_value kernels;
  napi_create_object(env, &kernels);
  napi_add_finalizer(env, kernels, b, free_binding, NULL, NULL);
  for (size_t i = 0; i < KERNEL_COUNT; i++) {
    bound_kernel *k = malloc(sizeof *k);
    k->fn = KERNELS[i].fn[isa];
    k->returns = KERNELS[i].returns;
    k->arena = b;
    napi_value fn;
    napi_create_function(env, KERNELS[i].name, NAPI_AUTO_LENGTH, call_kernel, k, &fn);
    napi_add_finalizer(env, fn, k, free_kernel, NULL, NULL);
    napi_set_named_property(env, kernels, KERNELS[i].name, fn);
  }
  return kernels;
}

static napi_value list_isas(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value list;
  napi_create_array(env, &list);
  uint32_t n = 0;
  for (int i = 0; i < ISA_COUNT; i++) {
    if (!isa_supported(i)) continue;
    napi_value name;
    napi_create_string_utf8(env, ISA_NAMES[i], NAPI_AUTO_LENGTH, &name);
    napi_set_element(env, list, n++, name);
  }
  return list;
}

/* kernels.h's test-only switches, one copy for every ISA's library. */
int boltzmann_fail_pad_allocations = 0;
uint64_t boltzmann_pad_fallbacks = 0;

/* testing.failPadAllocations(on): test-only; gemm.c's padded last columns fail to allocate. */
static napi_value fail_pad_allocations(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  bool on = false;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  if (argc < 1 || napi_get_value_bool(env, argv[0], &on) != napi_ok)
    return throw_error(env, "ATTENTION_INVALID_ARGUMENT", "testing.failPadAllocations(on: boolean)");
  __atomic_store_n(&boltzmann_fail_pad_allocations, on ? 1 : 0, __ATOMIC_RELAXED);
  return NULL;
}

/* testing.padFallbacks(): test-only; products whose last columns took the scalar fallback. */
static napi_value pad_fallbacks(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value out;
  napi_create_double(env, (double)__atomic_load_n(&boltzmann_pad_fallbacks, __ATOMIC_RELAXED), &out);
  return out;
}

/* The `testing` export: switches for tests only (kernels.h), never used by the engine. */
static napi_value testing_exports(napi_env env) {
  napi_value testing, fn;
  napi_create_object(env, &testing);
  napi_create_function(env, "failPadAllocations", NAPI_AUTO_LENGTH, fail_pad_allocations, NULL, &fn);
  napi_set_named_property(env, testing, "failPadAllocations", fn);
  napi_create_function(env, "padFallbacks", NAPI_AUTO_LENGTH, pad_fallbacks, NULL, &fn);
  napi_set_named_property(env, testing, "padFallbacks", fn);
  return testing;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "bind", NAPI_AUTO_LENGTH, bind_kernels, NULL, &fn);
  napi_set_named_property(env, exports, "bind", fn);
  napi_create_function(env, "isas", NAPI_AUTO_LENGTH, list_isas, NULL, &fn);
  napi_set_named_property(env, exports, "isas", fn);
  napi_set_named_property(env, exports, "testing", testing_exports(env));
  return exports;
}
