// The load-then-window preamble that `features`, `train` and `cross-validate` share.

import Foundation
import Motus

extension DataOptions {
  /// Loads the data (and a manifest's source weights) with a progress line on a terminal's
  /// standard error.
  func loadWithProgress() throws -> (result: LoadResult, sourceWeights: [String: Double]) {
    let reading = ProgressLine()
    defer { reading.clear() }
    return try loadWeighted { done, total in reading.update(done: done, total: total) }
  }
}

extension WindowOptions {
  /// Windows `result` with `spec` (from `featureSpec(for:)`) and extracts every window, on
  /// every core.
  func windowTable(for result: LoadResult, spec: FeatureSpec) throws -> WindowTable {
    return try WindowTable.makeConcurrently(
      dataset: result.dataset, extractor: FeatureExtractor(spec: spec), minimumPurity: minimumPurity
    )
  }
}
