// What a model file must satisfy before anything is allocated from it: every header value in
// range (window, hop, rate, recipes, feature count, classes, standardiser, temperature,
// cut-offs, unknown threshold), tensor sizes computed with overflow checks, and, from version 2
// on, a CRC-32 over everything before it, so a flipped bit is an error rather than a
// silently different model.

import MotusData
import MotusFeatures

extension ModelFile {
  /// Largest model file read: models are kilobytes to a few megabytes.
  public static let maximumFileBytes = 512 << 20
  /// Most classes, and the longest class name, a model may have.
  public static let maximumClassCount = 1024
  public static let maximumClassNameLength = 256

  /// Checks every header value a loader or a stream relies on.
  ///
  /// - Throws: `ModelFileError.malformedHeader` naming the field and the value at fault.
  static func validate(_ header: Header, file: String) throws {
    func bad(_ reason: String) -> ModelFileError {
      .malformedHeader(file: file, reason: reason)
    }
    guard (1...maximumClassCount).contains(header.classes.count) else {
      throw bad("\(header.classes.count) classes, expected 1...\(maximumClassCount)")
    }
    var seen: Set<String> = []
    for name in header.classes {
      guard !name.isEmpty, name.unicodeScalars.count <= maximumClassNameLength else {
        throw bad("class name '\(Excerpt.text(name))' is empty or too long")
      }
      guard seen.insert(name).inserted else {
        throw bad("class '\(Excerpt.text(name))' is listed twice")
      }
    }
    guard !header.standardizer.mean.isEmpty else { throw bad("the model reads no feature") }
    do {
      try header.featureSpec.validate()
    } catch let error as FeatureSpecError {
      throw bad("feature specification: \(error)")
    }
    let standardizer = header.standardizer
    guard standardizer.mean.allSatisfy(\.isFinite),
      standardizer.scale.allSatisfy({ $0 > 0 && $0.isFinite })
    else {
      throw bad("standardiser means must be finite and scales finite and positive")
    }
    guard header.temperature > 0, header.temperature.isFinite else {
      throw bad("temperature \(header.temperature), expected a finite number > 0")
    }
    // A cut-off above 1 is valid: that level is never given.
    let cutoffs = header.confidenceCutoffs
    guard 0 <= cutoffs.medium, cutoffs.medium <= cutoffs.high, cutoffs.high.isFinite else {
      throw bad(
        "confidence cut-offs \(cutoffs.medium), \(cutoffs.high), expected finite "
          + "0 <= medium <= high")
    }
    guard (0...1).contains(header.unknownThreshold) else {
      throw bad("unknown threshold \(header.unknownThreshold), expected a probability in 0...1")
    }
    try validateUnknownAnswers(header, bad: bad)
  }

  /// The negative classes and the novelty detector: what makes the model answer unknown.
  private static func validateUnknownAnswers(
    _ header: Header, bad: (String) -> ModelFileError
  ) throws {
    let negativeClasses = header.negativeClasses ?? []
    guard negativeClasses.allSatisfy(header.classes.contains),
      Set(negativeClasses).count == negativeClasses.count,
      negativeClasses.count < header.classes.count
    else {
      throw bad("negativeClasses must be some of the classes, each once, not all of them")
    }
    if let threshold = header.negativeThreshold, !(threshold > 0 && threshold <= 1) {
      throw bad("negativeThreshold \(threshold), expected a probability in (0, 1]")
    }
    guard let novelty = header.novelty else { return }
    let f = header.standardizer.mean.count
    guard novelty.mean.count == f, novelty.mean.allSatisfy(\.isFinite),
      novelty.variances.count < f,
      novelty.components.count == novelty.variances.count * f,
      novelty.components.allSatisfy(\.isFinite),
      novelty.variances.allSatisfy({ $0 > 0 && $0.isFinite }),
      novelty.residualVariance > 0, novelty.residualVariance.isFinite,
      !novelty.threshold.isNaN
    else {
      throw bad("the novelty detector's shapes or values are inconsistent with the features")
    }
  }

  /// Floats the tensors hold, or nil when a size overflows or is not positive.
  static func checkedFloatCount(_ tensors: [TensorEntry]) -> Int? {
    var total = 0
    for tensor in tensors {
      var size = 1
      for dimension in tensor.shape {
        guard dimension > 0 else { return nil }
        let (product, overflow) = size.multipliedReportingOverflow(by: dimension)
        if overflow { return nil }
        size = product
      }
      let (sum, overflow) = total.addingReportingOverflow(size)
      if overflow { return nil }
      total = sum
    }
    return total
  }

  /// The CRC-32 a version 2 file ends with, of `bytes` (everything before it).
  public static func checksum(_ bytes: [UInt8]) -> UInt32 { CRC32.checksum(bytes[...]) }

  /// Bytes a file of `headerLength` header bytes and `floatCount` floats has, with its
  /// checksum when `version >= 2`; nil on overflow.
  static func expectedByteCount(headerLength: Int, floatCount: Int, version: UInt32) -> Int? {
    let (tensorBytes, overflow) = floatCount.multipliedReportingOverflow(by: 4)
    if overflow { return nil }
    let (total, overflowTotal) = (16 + headerLength + (version >= 2 ? 4 : 0))
      .addingReportingOverflow(tensorBytes)
    return overflowTotal ? nil : total
  }
}

/// CRC-32 (the IEEE polynomial of zip and PNG; Python's `zlib.crc32` gives the same value).
enum CRC32 {
  private static let table: [UInt32] = (0..<256).map { n -> UInt32 in
    var c = UInt32(n)
    for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    return c
  }

  static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    table.withUnsafeBufferPointer { t in
      for b in bytes { crc = t[Int((crc ^ UInt32(b)) & 0xFF)] ^ (crc >> 8) }
    }
    return crc ^ 0xFFFF_FFFF
  }
}
