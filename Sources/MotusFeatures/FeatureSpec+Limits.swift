// How large a feature specification may be: window, feature count, recipes. A model file
// carries its spec, so these bounds are what keeps a damaged or hostile file from asking for
// terabytes; they sit far above any useful activity model.

import MotusData

extension FeatureSpec {
  /// Longest window in samples: over 10 minutes at 100 Hz, while activity features need
  /// seconds. The stream allocates a few buffers of this length per channel.
  public static let maximumWindowLength = 1 << 16
  /// Most features per window (every statistic and 1,000 bands of a dozen channels fit).
  public static let maximumFeatureCount = 1 << 16
  /// Most channel recipes.
  public static let maximumRecipeCount = 256

  /// The number of features `featureNames` lists, counted without building the names;
  /// nil when the count overflows `Int`.
  public var checkedFeatureCount: Int? {
    let bands = max(bandEdgesHz.count - 1, 0)
    var perChannel = statistics.count
    for feature in spectral {
      let (sum, overflow) = perChannel.addingReportingOverflow(feature.isPerBand ? bands : 1)
      if overflow { return nil }
      perChannel = sum
    }
    let channelCount = channels.count + 2 * decomposedVectors.count
    let (product, overflow) = channelCount.multipliedReportingOverflow(by: perChannel)
    if overflow { return nil }
    let vectorFeatures = vectors.reduce(0) { $0 + 3 + (hasGravityAngle($1) ? 1 : 0) }
    let (total, overflowTotal) = product.addingReportingOverflow(vectorFeatures)
    if overflowTotal { return nil }
    guard let context else { return total }
    let (summaries, overflowContext) = context.features.count.multipliedReportingOverflow(
      by: context.statistics.count)
    if overflowContext { return nil }
    let (all, overflowAll) = total.addingReportingOverflow(summaries)
    return overflowAll ? nil : all
  }

  /// Checks the sizes and the recipes; `validate` runs it first, before any name is built.
  func validateLimits() throws {
    guard windowLength <= Self.maximumWindowLength else {
      throw FeatureSpecError.windowTooLong(windowLength, limit: Self.maximumWindowLength)
    }
    guard Limits.sampleRateHz.contains(sampleRateHz) else {
      throw FeatureSpecError.sampleRateOutOfRange(sampleRateHz)
    }
    guard recipes.count <= Self.maximumRecipeCount else {
      throw FeatureSpecError.invalidRecipe(
        name: "", reason: "\(recipes.count) recipes, more than \(Self.maximumRecipeCount)")
    }
    for recipe in recipes {
      if recipe.name.isEmpty || recipe.inputs.contains(where: \.isEmpty) {
        throw FeatureSpecError.invalidRecipe(name: recipe.name, reason: "an empty channel name")
      }
      if recipe.operation == .copy ? recipe.inputs.count != 1 : recipe.inputs.isEmpty {
        throw FeatureSpecError.invalidRecipe(
          name: recipe.name,
          reason: "\(recipe.operation.rawValue) of \(recipe.inputs.count) inputs")
      }
      guard recipe.scale.isFinite, recipe.scale != 0 else {
        throw FeatureSpecError.invalidRecipe(name: recipe.name, reason: "scale \(recipe.scale)")
      }
    }
    guard let count = checkedFeatureCount, count <= Self.maximumFeatureCount else {
      throw FeatureSpecError.tooManyFeatures(limit: Self.maximumFeatureCount)
    }
  }
}
