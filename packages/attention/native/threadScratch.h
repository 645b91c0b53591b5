/*
 * A kernel's working memory, kept by its thread from one call to the next. A call takes a block
 * (scratch_take) and gives it back (scratch_give); the thread keeps the last block given back,
 * up to SCRATCH_KEEP_BYTES, and frees it when the thread exits (a pthread key's destructor), so
 * each engine worker thread holds at most one block per kernel source that uses this.
 *
 * Why: memory a call allocates and frees again can come back from the system as fresh pages (glibc
 * maps blocks this large anew unless it kept them), and the first write to each page faults. On the
 * Firecracker (PVM) machines these benchmarks run on, a fault costs ≈ 11 µs a 4 KiB page
 * (2.8 ms a MiB, 8 Dec 2026): calls of the transfer kernels (4–9 MiB each) alternating forward
 * and backward took 72.6 ms a pair when glibc mapped their blocks anew, 48.7 ms with the blocks
 * kept (docs/benchmarks/attention.md). Each translation unit that includes this has its own
 * thread's block.
 */
#ifndef BOLTZMANN_THREAD_SCRATCH_H
#define BOLTZMANN_THREAD_SCRATCH_H
#include <pthread.h>
#include <stdlib.h>

/* Blocks larger than this are freed when given back, not kept (a thread holds at most this). */
#define SCRATCH_KEEP_BYTES ((size_t)64 << 20)

/* A block of working memory: 64-byte aligned, contents undefined, `capacity` bytes. */
typedef struct {
  void *block;
  size_t capacity;
} scratch_block;

static __thread scratch_block scratch_kept;
static pthread_key_t scratch_key;
static pthread_once_t scratch_key_once = PTHREAD_ONCE_INIT;

static void scratch_release(void *block) { free(block); }
static void scratch_key_make(void) { (void)pthread_key_create(&scratch_key, scratch_release); }

/* The thread's kept block moved to the key, so that the thread's exit frees it. */
static inline void scratch_keep(scratch_block b) {
  (void)pthread_once(&scratch_key_once, scratch_key_make);
  scratch_kept = b;
  (void)pthread_setspecific(scratch_key, b.block);
}

/* A block of at least `bytes`: the thread's kept one if it is large enough, else a new one (block NULL when out of memory). */
static inline scratch_block scratch_take(size_t bytes) {
  scratch_block b = scratch_kept;
  if (b.block != NULL && b.capacity >= bytes) {
    scratch_keep((scratch_block){NULL, 0});
    return b;
  }
  b.capacity = bytes;
  if (posix_memalign(&b.block, 64, bytes) != 0) b.block = NULL;
  return b;
}

/* A block taken by scratch_take given back: kept for the thread's next call, or freed. */
static inline void scratch_give(scratch_block b) {
  if (b.block == NULL) return;
  if (b.capacity > SCRATCH_KEEP_BYTES) {
    free(b.block);
    return;
  }
  free(scratch_kept.block);
  scratch_keep(b);
}

#endif
