// Interposes glibc's allocator entry points in the test executable, counting calls and live
// bytes; the real work is done by glibc's __libc_* functions.
#include "MallocCounter.h"
#include <stddef.h>
#include <errno.h>

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static _Atomic uint64_t allocations = 0;
static _Atomic int64_t live = 0;

uint64_t motus_allocation_count(void) { return allocations; }
int64_t motus_live_heap_bytes(void) { return live; }
int64_t motus_mapped_block_count(void) { return (int64_t)mallinfo2().hblks; }

static void *counted(void *p) {
  if (p) { allocations++; live += (int64_t)malloc_usable_size(p); }
  return p;
}

void *malloc(size_t size) { return counted(__libc_malloc(size)); }
void *calloc(size_t n, size_t size) { return counted(__libc_calloc(n, size)); }
void *memalign(size_t alignment, size_t size) { return counted(__libc_memalign(alignment, size)); }
void *aligned_alloc(size_t alignment, size_t size) { return counted(__libc_memalign(alignment, size)); }
void *realloc(void *p, size_t size) {
  if (p) live -= (int64_t)malloc_usable_size(p);
  void *q = __libc_realloc(p, size);
  if (!q && p && size) { live += (int64_t)malloc_usable_size(p); return q; }  // p still valid
  return counted(q);
}
int posix_memalign(void **out, size_t alignment, size_t size) {
  void *p = counted(__libc_memalign(alignment, size));
  if (!p) return ENOMEM;
  *out = p;
  return 0;
}
void free(void *p) {
  if (p) live -= (int64_t)malloc_usable_size(p);
  __libc_free(p);
}
#else
uint64_t motus_allocation_count(void) { return UINT64_MAX; }
int64_t motus_live_heap_bytes(void) { return INT64_MIN; }
int64_t motus_mapped_block_count(void) { return -1; }
#endif
