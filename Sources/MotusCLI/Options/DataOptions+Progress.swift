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

extension DataOptions {
  /// Loads and windows the data with `choice`, with a progress line: files are windowed a
  /// session at a time as they are read (see `WindowedLoad`), a manifest's sources after
  /// loading them whole.
  ///
  /// - Parameter copies: Copies whose windows follow the data's (training's augmentation).
  /// - Returns: The windows, and a manifest's source weights (none for CSV files).
  func loadWindows(
    choice: FeatureChoice, minimumPurity: Float, copies: WindowTable.Copies? = nil
  ) throws -> (windowed: WindowedLoad, sourceWeights: [String: Double]) {
    let chooseSpec: WindowedLoad.SpecChoice = { recipes, rates in
      try choice.cliSpec(recipes: recipes, recordingRates: rates)
    }
    if manifest != nil {
      let (result, sourceWeights) = try loadWithProgress()
      let windowed = try WindowedLoad(
        result: result, minimumPurity: minimumPurity, copies: copies, chooseSpec: chooseSpec)
      return (windowed, sourceWeights)
    }
    let reading = ProgressLine()
    defer { reading.clear() }
    let windowed = try WindowedLoad.load(
      paths, options: loadOptions(), minimumPurity: minimumPurity, copies: copies,
      progress: { done, total in reading.update(done: done, total: total) },
      chooseSpec: chooseSpec)
    return (windowed, [:])
  }
}
