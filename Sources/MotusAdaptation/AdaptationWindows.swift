// Labelled windows to adapt a model on: raw feature rows in the model's spec, each with a
// class of the model. Made from recordings by the rule training windows them by (windows of
// the spec's length and hop from each recording's start, each labelled by its majority), or
// handed over as rows an app computed itself.

import MotusData
import MotusFeatures
import MotusLinearAlgebra
import MotusModels

/// Feature rows with the model class of each, made with one feature spec.
public struct AdaptationWindows: Sendable, Equatable {
  /// The spec the rows were computed with.
  public var spec: FeatureSpec
  /// Raw (unstandardised) features, `[N, F]`.
  public var features: Matrix
  /// Per row, the class name (one of the model's classes).
  public var labels: [String]

  /// Rows computed elsewhere (an app's own windows).
  ///
  /// - Throws: `AdaptationError.specMismatch` when the rows do not have the spec's feature
  ///   count or do not have one label each.
  public init(spec: FeatureSpec, features: Matrix, labels: [String]) throws {
    guard features.columnCount == spec.featureNames.count, features.rowCount == labels.count
    else {
      throw AdaptationError.specMismatch(
        reason: "\(features.rowCount) rows of \(features.columnCount) features and "
          + "\(labels.count) labels, the spec has \(spec.featureNames.count) features")
    }
    self.spec = spec
    self.features = features
    self.labels = labels
  }

  /// Every window of `dataset` in `model`'s spec, labelled by its majority label.
  ///
  /// - Parameter dataset: Channels that are the outputs of the model's recipes (MotusIngest's
  ///   loaders give that with the model's recipes), at the model's rate.
  /// - Throws: `AdaptationError.channelMismatch`, `.sampleRateMismatch` (more than 2 % off),
  ///   `.nonFiniteFeature`.
  /// - Complexity: O(windows · feature extraction).
  public init(dataset: Dataset, model: TrainedModel) throws {
    let spec = model.featureSpec
    let recipeNames = spec.recipes.map(\.name)
    guard dataset.channels == recipeNames else {
      throw AdaptationError.channelMismatch(data: dataset.channels, model: recipeNames)
    }
    for recording in dataset.recordings
    where abs(recording.sampleRateHz - spec.sampleRateHz) > 0.02 * spec.sampleRateHz {
      throw AdaptationError.sampleRateMismatch(
        source: recording.source, session: recording.session,
        recordingHz: recording.sampleRateHz, modelHz: spec.sampleRateHz)
    }
    var extractor = try FeatureExtractor(spec: spec)
    let window = SlidingWindow(length: spec.windowLength, hop: spec.hopLength)
    var values: [Float] = []
    var labels: [String] = []
    var row = [Float](repeating: 0, count: extractor.featureCount)
    for recording in dataset.recordings {
      extractor.restartContext()
      for start in window.starts(sampleCount: recording.sampleCount) {
        let majority = SlidingWindow.majorityLabel(
          recording.labelIndices[start..<(start + window.length)])
        row.withUnsafeMutableBufferPointer {
          extractor.extract(columns: recording.columns, start: start, into: $0)
        }
        guard row.allSatisfy(\.isFinite) else {
          throw AdaptationError.nonFiniteFeature(
            source: recording.source, session: recording.session,
            startSeconds: recording.timestamps[start])
        }
        values += row
        labels.append(dataset.labels[Int(majority.label)])
      }
    }
    self.spec = spec
    self.features = Matrix(
      rowCount: labels.count, columnCount: extractor.featureCount, values: values)
    self.labels = labels
  }

  public var count: Int { labels.count }

  /// Windows per label, for the labels present.
  public var countsByLabel: [String: Int] {
    labels.reduce(into: [:]) { $0[$1, default: 0] += 1 }
  }

  /// The rows at `indices`, in that order.
  public func rows(_ indices: [Int]) -> AdaptationWindows {
    var copy = self
    copy.features = features.rows(indices)
    copy.labels = indices.map { labels[$0] }
    return copy
  }
}
