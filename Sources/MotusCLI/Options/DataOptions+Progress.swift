// The load-then-window preamble that `features`, `train` and `cross-validate` share.

import Foundation
import Motus

extension DataOptions {
  /// Loads the data (and a manifest's source weights) with a progress line on a terminal's
  /// standard error.
  func loadWithProgress() throws -> (result: LoadResult, sourceWeights: [String: Double]) {
    let reading = ProgressLine()
    defer { reading.clear() }
    do {
      return try loadWeighted { done, total in reading.update(done: done, total: total) }
    } catch let error as CSVError {
      throw ToolError(error.description)
    }
  }
}

extension WindowOptions {
  /// Windows `result` with `spec` (from `featureSpec(for:)`) and extracts every window, on
  /// every core.
  func windowTable(for result: LoadResult, spec: FeatureSpec) throws -> WindowTable {
    do {
      return try WindowTable.makeConcurrently(
        dataset: result.dataset, extractor: FeatureExtractor(spec: spec), minimumPurity: minimumPurity)
    } catch let error as FeatureSpecError {
      throw ToolError(error.description)
    }
  }
}
