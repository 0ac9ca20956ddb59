// Everything inference needs: raw feature row (F values, FeatureSpec order) -> standardise ->
// classifier logits (K) -> softmax at the calibration temperature -> top class and confidence
// level, or unknown (`answer(probabilities:noveltyScore:)`): when the standardised row is far
// from the training rows, when the top class is a negative class, or when the top probability
// is below `unknownThreshold`.

import MotusFeatures
import MotusLinearAlgebra

/// The classifier a model file holds.
public enum ModelClassifier: Sendable, Equatable {
  case logistic(LogisticRegression)
  case mlp(MLPClassifier)

  public var network: any FeedForwardClassifier {
    switch self {
    case .logistic(let model): return model
    case .mlp(let model): return model
    }
  }

  /// `"logistic"` or `"mlp"` (the model file's `kind`).
  public var kind: String {
    switch self {
    case .logistic: return "logistic"
    case .mlp: return "mlp"
    }
  }
}

/// A complete trained model: features, standardiser, classifier and calibration.
public struct TrainedModel: Sendable, Equatable {
  /// How to compute the feature vector from raw samples.
  public var featureSpec: FeatureSpec
  public var standardizer: Standardizer
  public var classifier: ModelClassifier
  /// Softmax temperature from calibration (> 0; 1 = uncalibrated).
  public var temperature: Float
  public var confidenceCutoffs: ConfidenceCutoffs
  /// A prediction whose calibrated top probability is below this is reported as unknown
  /// (0 never reports unknown).
  public var unknownThreshold: Float
  /// Classes learnt from negative labels: activities that are none of the classes. When their
  /// probability reaches `negativeThreshold`, the model answers unknown.
  public var negativeClasses: [String]
  /// In (0, 1]: the probability of the negative classes together at which the model answers
  /// unknown (chosen in training so that few windows of real classes reach it).
  public var negativeThreshold: Float
  /// Scores how far a window lies from the training data; nil: never answers unknown for that.
  public var novelty: NoveltyDetector?
  /// Per class, the mean and spread of the last layer's inputs in training; nil in files
  /// without them (adapting then has nothing to rehearse the unshown classes from).
  public var classStatistics: ClassStatistics?
  public var metadata: TrainingMetadata

  public init(
    featureSpec: FeatureSpec, standardizer: Standardizer, classifier: ModelClassifier,
    temperature: Float = 1, confidenceCutoffs: ConfidenceCutoffs, unknownThreshold: Float = 0,
    negativeClasses: [String] = [], negativeThreshold: Float = 0.5,
    novelty: NoveltyDetector? = nil, classStatistics: ClassStatistics? = nil,
    metadata: TrainingMetadata
  ) {
    precondition(
      standardizer.featureCount == classifier.network.featureCount,
      "standardiser has \(standardizer.featureCount) features, classifier "
        + "\(classifier.network.featureCount)")
    precondition(
      featureSpec.featureNames.count == standardizer.featureCount,
      "feature spec names \(featureSpec.featureNames.count) features, standardiser has "
        + "\(standardizer.featureCount)")
    precondition(
      temperature > 0 && temperature.isFinite, "temperature must be > 0, got \(temperature)")
    self.featureSpec = featureSpec
    self.standardizer = standardizer
    self.classifier = classifier
    self.temperature = temperature
    self.confidenceCutoffs = confidenceCutoffs
    if let novelty {
      precondition(
        novelty.featureCount == standardizer.featureCount,
        "novelty detector has \(novelty.featureCount) features, standardiser "
          + "\(standardizer.featureCount)")
    }
    self.unknownThreshold = unknownThreshold
    self.negativeClasses = negativeClasses
    precondition(
      negativeThreshold > 0 && negativeThreshold <= 1,
      "negative threshold must be in (0, 1], got \(negativeThreshold)")
    self.negativeThreshold = negativeThreshold
    self.novelty = novelty
    self.classStatistics = classStatistics
    self.metadata = metadata
  }

  public var classes: [String] { classifier.network.classes }
  public var featureCount: Int { standardizer.featureCount }

  /// Calibrated class probabilities for raw (unstandardised) features `[N, F]`; `[N, K]`.
  public func predictProbabilities(_ x: Matrix) -> Matrix {
    let logits = classifier.network.logits(standardizer.transform(x))
    return Softmax.rows(logits, temperature: temperature)
  }

  /// What the last layer reads for raw feature rows `[N, F]`: the standardised features,
  /// through the hidden layers (ReLU) of an MLP; `[N, D]`.
  public func lastLayerInputs(_ x: Matrix) -> Matrix {
    var h = standardizer.transform(x)
    for layer in classifier.network.layers.dropLast() {
      h = layer(h)
      for i in h.values.indices where h.values[i] < 0 { h.values[i] = 0 }
    }
    return h
  }

  /// Novelty scores of raw feature rows `[N, F]`, or nil without a detector.
  public func noveltyScores(_ x: Matrix) -> [Float]? {
    guard let novelty else { return nil }
    let z = standardizer.transform(x)
    let f = z.columnCount
    return z.values.withUnsafeBufferPointer { values in
      (0..<z.rowCount).map { i in
        novelty.score(standardized: UnsafeBufferPointer(rebasing: values[(i * f)..<((i + 1) * f)]))
      }
    }
  }

  /// One `Prediction` per row of raw features `[N, F]`.
  public func predict(_ x: Matrix) -> [Prediction] {
    let p = predictProbabilities(x)
    let scores = noveltyScores(x)
    return (0..<p.rowCount).map { i in answer(probabilities: p.row(i), noveltyScore: scores?[i]) }
  }

  /// The answer for one window: the most probable class, its probability and confidence, and
  /// why it is unknown, if it is.
  ///
  /// - Parameters:
  ///   - probabilities: `K` calibrated (possibly smoothed) probabilities, in `classes` order.
  ///   - noveltyScore: The window's `NoveltyDetector` score; nil when not computed.
  public func answer(probabilities: [Float], noveltyScore: Float?) -> Prediction {
    let negatives = Set(negativeClassIndices)
    let isNegative = classes.indices.map { negatives.contains($0) }
    return probabilities.withUnsafeBufferPointer { p in
      isNegative.withUnsafeBufferPointer {
        answer(probabilities: p, isNegativeClass: $0, noveltyScore: noveltyScore)
      }
    }
  }

  /// `answer(probabilities:noveltyScore:)` with the negative classes as a table made once
  /// (`isNegativeClass[k]`), so a stream decides without allocating.
  ///
  /// The answer names the most probable class that is not negative. It is unknown when the
  /// window is far from the training data; else when the negative classes together reach
  /// `negativeThreshold`; else when the named class's probability is below
  /// `unknownThreshold`. For an unknown answer `classIndex` is still the most probable real
  /// class.
  @inlinable
  public func answer(
    probabilities p: UnsafeBufferPointer<Float>, isNegativeClass: UnsafeBufferPointer<Bool>,
    noveltyScore: Float?
  ) -> Prediction {
    var best = -1
    var bestP: Float = -1
    var negative: Float = 0
    for k in 0..<p.count {
      if isNegativeClass[k] {
        negative += p[k]
      } else if p[k] > bestP {
        best = k
        bestP = p[k]
      }
    }
    let reason: UnknownReason?
    if let noveltyScore, let threshold = novelty?.threshold, noveltyScore > threshold {
      reason = .farFromTrainingData
    } else if negative > 0, negative >= negativeThreshold {
      reason = .noneOfTheClasses
    } else if bestP < unknownThreshold {
      reason = .lowConfidence
    } else {
      reason = nil
    }
    return Prediction(
      classIndex: max(best, 0), probability: max(bestP, 0),
      confidence: confidenceCutoffs.level(for: bestP), unknownReason: reason)
  }

  /// Indices of `negativeClasses` in `classes`.
  public var negativeClassIndices: [Int] {
    negativeClasses.compactMap { classes.firstIndex(of: $0) }
  }
}

/// One classified window.
public struct Prediction: Sendable, Equatable {
  /// Index into `TrainedModel.classes` of the most probable class.
  public var classIndex: Int
  /// Its calibrated probability.
  public var probability: Float
  public var confidence: ConfidenceLevel
  /// Why the model answers "unknown" instead of the class; nil when it names the class.
  public var unknownReason: UnknownReason?

  public init(
    classIndex: Int, probability: Float, confidence: ConfidenceLevel,
    unknownReason: UnknownReason? = nil
  ) {
    self.classIndex = classIndex
    self.probability = probability
    self.confidence = confidence
    self.unknownReason = unknownReason
  }

  /// Whether the model answers "unknown" instead of the class.
  public var isUnknown: Bool { unknownReason != nil }
}
