// A model of a real one's shape with seeded random weights: what inference costs, measured
// without training first (`motus bench stream`, and the engine's memory test).

import MotusData
import MotusFeatures
import MotusLinearAlgebra
import MotusModels

extension TrainedModel {
  /// A model with the shape of a real one and seeded random weights, for timing only:
  /// copies of `channels`, standard features (with `contextWindows > 0`, the recent windows'
  /// intensity too), an MLP with `hiddenUnits`, six classes.
  public static func randomlyWeighted(
    channels: [String], sampleRateHz: Double = 50, windowLength: Int = 128, hopLength: Int = 64,
    hiddenUnits: Int = 64, seed: UInt64 = 1, contextWindows: Int = 0
  ) throws -> TrainedModel {
    let recipes = channels.map { ChannelRecipe.copy($0) }
    var spec = FeatureSpec.standard(
      recipes: recipes, channels: channels, sampleRateHz: sampleRateHz,
      windowLength: windowLength, hopLength: hopLength)
    if contextWindows > 0 {
      spec.context = FeatureContext.recentIntensity(
        windowCount: contextWindows, windowFeatures: spec.windowFeatureNames)
    }
    return try randomlyWeighted(spec: spec, hiddenUnits: hiddenUnits, seed: seed)
  }

  /// `randomlyWeighted(channels:...)` for a given feature spec.
  public static func randomlyWeighted(spec: FeatureSpec, hiddenUnits: Int = 64, seed: UInt64 = 1)
    throws -> TrainedModel
  {
    let featureCount = try FeatureExtractor(spec: spec).featureCount
    var random = SplitMix64(seed: seed)
    func layer(_ outputs: Int, _ inputs: Int) -> Linear {
      let scale = Float((6 / Double(inputs + outputs)).squareRoot())
      let w = (0..<(outputs * inputs)).map { _ in scale * Float(2 * random.uniform() - 1) }
      return Linear(
        weight: Matrix(rowCount: outputs, columnCount: inputs, values: w),
        bias: [Float](repeating: 0, count: outputs))
    }
    let classes = ["stationary", "walking", "running", "cycling", "automotive", "push-up"]
    let network = MLPClassifier(
      classes: classes, hidden: [layer(hiddenUnits, featureCount)],
      output: layer(classes.count, hiddenUnits))
    return TrainedModel(
      featureSpec: spec,
      standardizer: Standardizer(
        mean: [Float](repeating: 0, count: featureCount),
        scale: [Float](repeating: 1, count: featureCount)),
      classifier: .mlp(network), confidenceCutoffs: ConfidenceCutoffs(medium: 0.5, high: 0.8),
      metadata: TrainingMetadata(
        dataDigest: "random-weights", seed: seed, motusVersion: MotusVersion.string))
  }
}
