// Windows of a dataset followed by the windows of derived copies of it (training's perturbed
// copies), one copy's samples held at a time; the parts are kept apart so that a caller
// windowing the data a part at a time can join each kind in order.

import MotusData
import MotusFeatures

extension WindowTable {
  /// Copies of a dataset to window after it.
  public struct Copies {
    /// The copies' numbers, in the order their windows follow the data's.
    public var numbers: [Int]
    /// Copy `number` of `part`, whose first recording is recording `firstIndex` of the whole
    /// data: a part's copy is that part of the whole's copy.
    public var make: (_ number: Int, _ part: Dataset, _ firstIndex: Int) throws -> Dataset

    public init(
      numbers: [Int],
      make: @escaping (_ number: Int, _ part: Dataset, _ firstIndex: Int) throws -> Dataset
    ) {
      self.numbers = numbers
      self.make = make
    }
  }

  /// The windows of `dataset`, then those of each copy: `[data, copy 1, copy 2, ...]`, each
  /// built on every core (see `makeConcurrently`).
  ///
  /// - Parameter firstIndex: The index of `dataset`'s first recording in the whole data.
  /// - Throws: What `make` and `copies.make` throw; `LimitError.memory` when the tables
  ///   would not fit.
  public static func makeWithCopies(
    dataset: Dataset, extractor: FeatureExtractor, minimumPurity: Float, copies: Copies?,
    firstIndex: Int = 0
  ) throws -> [WindowTable] {
    let numbers = copies?.numbers ?? []
    if !numbers.isEmpty {
      let window = SlidingWindow(
        length: extractor.spec.windowLength, hop: extractor.spec.hopLength)
      try checkMemory(
        windowCount: window.count(in: dataset.recordings) * (1 + numbers.count),
        featureCount: extractor.featureCount,
        hint: "use a longer --hop, fewer features or --augment copies, or less data at once.")
    }
    var tables = [
      try makeConcurrently(dataset: dataset, extractor: extractor, minimumPurity: minimumPurity)
    ]
    for number in numbers {
      guard let copies else { break }
      tables.append(
        try makeConcurrently(
          dataset: copies.make(number, dataset, firstIndex), extractor: extractor,
          minimumPurity: minimumPurity))
    }
    return tables
  }

  /// The tables one after another (`append`), each released as it joins: `tables` is left
  /// empty, so that no part outlives its joining. Room for all rows is taken once, up front.
  public static func join(_ tables: inout [WindowTable]) -> WindowTable {
    let total = tables.reduce(0) { $0 + $1.features.values.count }
    tables.reverse()
    var whole = tables.removeLast()
    whole.features.values.reserveCapacity(total)
    // Parts below the allocator's mmap threshold stay resident once freed until trimmed: trim
    // every 8 MB of them, so the joined table does not sit beside its freed parts.
    var freedBytes = 0
    while let part = tables.popLast() {
      freedBytes += part.features.values.count * MemoryLayout<Float>.stride
      whole.append(part)
      if freedBytes >= 8 << 20 {
        FreedMemory.release()
        freedBytes = 0
      }
    }
    FreedMemory.release()
    return whole
  }
}
