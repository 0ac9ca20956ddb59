// The training table's fingerprint, written into model metadata so a model can be traced to
// its data. FNV-1a (MotusData's `FNV1a64`): it detects accidental change, not tampering.

import MotusData
import MotusLinearAlgebra

extension FNV1a64 {
  /// Digest of features (shape, then Float bits LE), labels, groups and class names.
  public static func digest(features: Matrix, labels: [Int], groups: [String], classNames: [String])
    -> String
  {
    var h = FNV1a64()
    h.combine(UInt64(features.rowCount))
    h.combine(UInt64(features.columnCount))
    // Each value's bit pattern, little-endian: its bytes in memory on a little-endian machine.
    #if _endian(little)
      features.values.withUnsafeBytes { h.combine(raw: $0) }
    #else
      for v in features.values {
        withUnsafeBytes(of: v.bitPattern.littleEndian) { h.combine(bytes: $0) }
      }
    #endif
    for y in labels { h.combine(UInt64(bitPattern: Int64(y))) }
    for g in groups { h.combine(g) }
    for c in classNames { h.combine(c) }
    return h.hex
  }
}
