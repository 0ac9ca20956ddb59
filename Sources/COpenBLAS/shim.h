// The one place C enters Motus: OpenBLAS's CBLAS and LAPACKE (Debian: libopenblas-dev,
// liblapacke-dev). Only MotusBLAS imports this module.
#include <cblas.h>
#include <lapacke.h>
