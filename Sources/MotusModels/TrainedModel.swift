// Everything inference needs: raw feature row (F values, FeatureSpec order) -> standardise ->
// classifier logits (K) -> softmax at the calibration temperature -> top class, confidence level,
// or unknown when the top probability is below `unknownThreshold`.

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
  public var metadata: TrainingMetadata

  public init(
    featureSpec: FeatureSpec, standardizer: Standardizer, classifier: ModelClassifier,
    temperature: Float = 1, confidenceCutoffs: ConfidenceCutoffs, unknownThreshold: Float = 0,
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
    self.unknownThreshold = unknownThreshold
    self.metadata = metadata
  }

  public var classes: [String] { classifier.network.classes }
  public var featureCount: Int { standardizer.featureCount }

  /// Calibrated class probabilities for raw (unstandardised) features `[N, F]`; `[N, K]`.
  public func predictProbabilities(_ x: Matrix) -> Matrix {
    let logits = classifier.network.logits(standardizer.transform(x))
    return Softmax.rows(logits, temperature: temperature)
  }

  /// One `Prediction` per row of raw features `[N, F]`.
  public func predict(_ x: Matrix) -> [Prediction] {
    let p = predictProbabilities(x)
    return (0..<p.rowCount).map { i in prediction(from: p.row(i)) }
  }

  func prediction(from probabilities: some Collection<Float>) -> Prediction {
    var best = 0
    var bestP: Float = -1
    for (k, p) in probabilities.enumerated() where p > bestP {
      best = k
      bestP = p
    }
    return Prediction(
      classIndex: best, probability: bestP, confidence: confidenceCutoffs.level(for: bestP),
      isUnknown: bestP < unknownThreshold)
  }
}

/// One classified window.
public struct Prediction: Sendable, Equatable {
  /// Index into `TrainedModel.classes` of the most probable class.
  public var classIndex: Int
  /// Its calibrated probability.
  public var probability: Float
  public var confidence: ConfidenceLevel
  /// True when `probability < unknownThreshold`: report "unknown" instead of the class.
  public var isUnknown: Bool

  public init(classIndex: Int, probability: Float, confidence: ConfidenceLevel, isUnknown: Bool) {
    self.classIndex = classIndex
    self.probability = probability
    self.confidence = confidence
    self.isUnknown = isUnknown
  }
}
