import Foundation
import MotusData

/// What a load found, less the samples: the end of a `loadSessions`, or a `LoadResult`'s
/// outline.
public struct LoadOutline: Sendable {
  /// Every recording, in dataset order.
  public var recordings: [RecordingOutline]
  /// The label vocabulary, as `Dataset.labels`.
  public var labels: [String]
  public var recipes: [ChannelRecipe]
  public var report: LoadReport
  /// As `Dataset.negativeLabels` (a manifest's; none for CSV files).
  public var negativeLabels: [String] = []

  public init(
    recordings: [RecordingOutline], labels: [String], recipes: [ChannelRecipe], report: LoadReport
  ) {
    (self.recordings, self.labels, self.recipes, self.report) = (
      recordings, labels, recipes, report
    )
  }

  public init(_ result: LoadResult) {
    self.init(
      recordings: result.dataset.recordings.map(RecordingOutline.init),
      labels: result.dataset.labels, recipes: result.recipes, report: result.report)
    negativeLabels = result.dataset.negativeLabels
  }

  /// Subjects of the recordings, in natural order (as `Dataset.subjects`).
  public var subjects: [String] { Array(Set(recordings.map(\.subject))).sorted(by: naturalOrder) }
}
