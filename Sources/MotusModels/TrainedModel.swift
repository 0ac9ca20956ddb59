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
  /// Classes learnt from negative labels: activities that are none of the classes. When one
  /// is the most probable, the model answers unknown.
  public var negativeClasses: [String]
  /// Scores how far a window lies from the training data; nil: never answers unknown for that.
  public var novelty: NoveltyDetector?
  public var metadata: TrainingMetadata

  public init(
    featureSpec: FeatureSpec, standardizer: Standardizer, classifier: ModelClassifier,
    temperature: Float = 1, confidenceCutoffs: ConfidenceCutoffs, unknownThreshold: Float = 0,
    negativeClasses: [String] = [], novelty: NoveltyDetector? = nil, metadata: TrainingMetadata
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
    self.novelty = novelty
    self.metadata = metadata
  }

  public var classes: [String] { classifier.network.classes }
  public var featureCount: Int { standardizer.featureCount }

  /// Calibrated class probabilities for raw (unstandardised) features `[N, F]`; `[N, K]`.
  public func predictProbabilities(_ x: Matrix) -> Matrix {
    let logits = classifier.network.logits(standardizer.transform(x))
    return Softmax.rows(logits, temperature: temperature)
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
  public func answer(probabilities: some Collection<Float>, noveltyScore: Float?) -> Prediction {
    var best = 0
    var bestP: Float = -1
    for (k, p) in probabilities.enumerated() where p > bestP {
      best = k
      bestP = p
    }
    let isNegative = !negativeClasses.isEmpty && negativeClassIndices.contains(best)
    return Prediction(
      classIndex: best, probability: bestP, confidence: confidenceCutoffs.level(for: bestP),
      unknownReason: unknownReason(
        isNegativeClass: isNegative, probability: bestP, noveltyScore: noveltyScore))
  }

  /// Why a window answers unknown; nil when it names its top class. Most specific reason
  /// first. Takes whether the top class is negative, so a stream can look that up in a table
  /// made once instead of searching `negativeClasses` per window.
  @inlinable
  public func unknownReason(isNegativeClass: Bool, probability: Float, noveltyScore: Float?)
    -> UnknownReason?
  {
    if let noveltyScore, let threshold = novelty?.threshold, noveltyScore > threshold {
      return .farFromTrainingData
    }
    if isNegativeClass { return .noneOfTheClasses }
    if probability < unknownThreshold { return .lowConfidence }
    return nil
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
