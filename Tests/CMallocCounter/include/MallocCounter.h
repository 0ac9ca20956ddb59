// Counts heap allocations and live heap bytes in the test process, so a test can show that a
// code path allocates nothing and how much memory an object holds. Linked only into the
// test executable.
#pragma once
#include <stdint.h>

/// Allocations (malloc, calloc, realloc, aligned allocations) since the process started,
/// or UINT64_MAX where counting is unavailable.
uint64_t motus_allocation_count(void);

/// Bytes currently allocated (usable sizes), or INT64_MIN where counting is unavailable.
int64_t motus_live_heap_bytes(void);

/// Blocks the allocator holds as their own memory maps (glibc's `mallinfo2().hblks`), or -1
/// where unavailable.
int64_t motus_mapped_block_count(void);
