// Counts heap allocations in the test process, so a test can show that a code path makes
// none. Linked only into the test executable.
#pragma once
#include <stdint.h>

/// Allocations (malloc, calloc, realloc, aligned allocations) since the process started.
uint64_t motus_allocation_count(void);
