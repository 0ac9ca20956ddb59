// Synthetic recordings as a LoadResult, built with the same channel recipes the CSV loader
// builds, so the demo and tests go through the real feature and training paths.

import MotusData
import MotusIngest

extension SimulatedRecording {
  /// Loads `recordings` in memory as `DatasetLoader` would load them from CSV.
  ///
  /// - Parameter channelPatterns: As `--channels`; empty keeps the raw channels.
  /// - Throws: `CSVError` when a pattern matches nothing.
  public static func loadResult(
    _ recordings: [SimulatedRecording], channelPatterns: [String] = []
  ) throws -> LoadResult {
    let (recipes, notes) = try ChannelSelector.recipes(
      patterns: channelPatterns, rawChannels: ActivitySimulator.channels, negateAcceleration: false)
    let plan = try ChannelPlan(recipes: recipes, rawChannels: ActivitySimulator.channels)
    var labels: [String] = []
    var labelIndex: [String: Int32] = [:]
    var report = LoadReport()
    report.notes = notes + ["synthetic recordings from ActivitySimulator"]
    let out = recordings.map { r -> Recording in
      let indices = r.labels.map { label -> Int32 in
        if let i = labelIndex[label] { return i }
        labelIndex[label] = Int32(labels.count)
        labels.append(label)
        return Int32(labels.count - 1)
      }
      let rate = r.timestamps.count > 1 ? 1 / (r.timestamps[1] - r.timestamps[0]) : 0
      report.rowsRead += r.timestamps.count
      return Recording(
        session: r.session, subject: r.subject, source: "synthetic", timestamps: r.timestamps,
        columns: plan.apply(columns: r.columns), labelIndices: indices, sampleRateHz: rate)
    }
    report.recordingCount = out.count
    return LoadResult(
      dataset: Dataset(channels: plan.outputChannels, labels: labels, recordings: out),
      recipes: recipes, report: report)
  }
}
