// zlib (Debian: zlib1g-dev), for reading gzip-compressed input. Only MotusGzip imports this
// module; the inference product never reaches it.
#include <zlib.h>

// inflateInit2 and deflateInit2 are macros, which Swift does not import. A window of 15 bits
// plus 16 reads and writes the gzip wrapper (header and CRC-32 trailer), not zlib's own.
static inline int motus_inflate_init_gzip(z_streamp stream) {
  return inflateInit2(stream, 15 + 16);
}

static inline int motus_deflate_init_gzip(z_streamp stream, int level) {
  return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}
