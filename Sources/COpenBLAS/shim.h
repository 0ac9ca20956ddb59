// The one place C enters Motus: OpenBLAS's CBLAS and LAPACKE (Debian: libopenblas-dev,
// liblapacke-dev). Only MotusBLAS imports this module.
#include <cblas.h>
#include <lapacke.h>

// Not in cblas.h, exported by every OpenBLAS build: stops the worker threads the library starts
// when it loads (each spin-waits for work for a while). Motus runs OpenBLAS on one thread.
int blas_thread_shutdown_(void);
