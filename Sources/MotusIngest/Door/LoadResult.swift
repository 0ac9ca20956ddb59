import Foundation
import MotusData
import MotusGzip

/// A loaded dataset, the recipes that computed its channels, and what happened on the way.
public struct LoadResult: Sendable {
  public var dataset: Dataset
  /// `dataset.channels == recipes.map(\.name)`; streaming runs the same recipes.
  public var recipes: [ChannelRecipe]
  public var report: LoadReport

  public init(dataset: Dataset, recipes: [ChannelRecipe], report: LoadReport) {
    self.dataset = dataset
    self.recipes = recipes
    self.report = report
  }

  /// The recordings of the subjects `keep` takes (all when nil) and `drop` does not, with the
  /// report describing what is left: its sessions, and label totals recounted.
  public func keepingSubjects(_ keep: SubjectFilter?, dropping drop: SubjectFilter?) -> LoadResult {
    guard keep != nil || drop != nil else { return self }
    func isDropped(_ subject: String) -> Bool {
      !(keep?.contains(subject) ?? true) || (drop?.contains(subject) ?? false)
    }
    var filtered = self
    filtered.dataset.recordings.removeAll { isDropped($0.subject) }
    filtered.report.sessions.removeAll { isDropped($0.subject) }
    filtered.report.recordingCount = filtered.dataset.recordings.count
    filtered.report.labelSampleCounts = [:]
    filtered.report.labelDurationsSeconds = [:]
    for recording in filtered.dataset.recordings {
      for index in recording.labelIndices {
        let label = filtered.dataset.labels[Int(index)]
        filtered.report.labelSampleCounts[label, default: 0] += 1
        filtered.report.labelDurationsSeconds[label, default: 0] += 1 / recording.sampleRateHz
      }
    }
    return filtered
  }
}
