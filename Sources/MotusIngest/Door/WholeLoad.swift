// Data loaded whole by `DataSource.load`: the dataset, and what a manifest adds to it.

import MotusData

/// A dataset loaded whole, with a manifest's source weights and known repetition counts.
public struct WholeLoad: Sendable {
  /// From a manifest, subjects and sessions are prefixed `source:` and recipes are the
  /// canonical channel list (copies of the manifest channels, magnitudes recomputed from them).
  public var result: LoadResult
  /// Source name -> training weight of its windows (default 1); see `Manifest.Source.weight`.
  /// Empty for CSV files.
  public var sourceWeights: [String: Double]
  /// Joined recording session name -> known repetition count (a manifest's clips joined).
  public var knownRepetitions: [String: Int]
  /// The manifest as read, and its file; nil for CSV files.
  public var manifest: Manifest?
  public var manifestFile: String?
  /// Whether the data was resampled to `LoadOptions.modelSampleRateHz` (or the rate asked).
  public var resampled = false

  init(
    result: LoadResult, sourceWeights: [String: Double], knownRepetitions: [String: Int],
    manifest: Manifest?, manifestFile: String?
  ) {
    self.result = result
    self.sourceWeights = sourceWeights
    self.knownRepetitions = knownRepetitions
    self.manifest = manifest
    self.manifestFile = manifestFile
  }

  /// CSV files' data: no manifest, weights or repetition counts.
  init(_ result: LoadResult) {
    self.init(
      result: result, sourceWeights: [:], knownRepetitions: [:], manifest: nil, manifestFile: nil)
  }

  /// The source a recording came from (the prefix of its subject).
  public func sourceName(of recording: Recording) -> String {
    Manifest.source(ofSubject: recording.subject) ?? recording.subject
  }

  /// The weight of each recording's samples: its source's weight.
  public func weight(of recording: Recording) -> Double {
    sourceWeights[sourceName(of: recording)] ?? 1
  }

  /// The sensor placement of a recording whose source declares `placementSeparator`: the
  /// session name's text after the separator (a `#k` gap suffix ignored); nil otherwise.
  public func placement(of recording: Recording) -> String? {
    let source = sourceName(of: recording)
    guard
      let separator = manifest?.sources.first(where: { $0.name == source })?.placementSeparator,
      !separator.isEmpty
    else { return nil }
    var session = Substring(recording.session)
    if let hash = session.lastIndex(of: "#") { session = session[..<hash] }
    guard let range = session.range(of: separator, options: .backwards) else { return nil }
    let placement = session[range.upperBound...]
    return placement.isEmpty ? nil : String(placement)
  }
}
