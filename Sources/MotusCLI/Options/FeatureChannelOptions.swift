// `--feature-channels` and `--decompose`: which loaded channels get features, and which
// vectors are split into orientation-free vertical and horizontal parts.

import ArgumentParser
import Motus

struct FeatureChannelOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Channels that get features: 'orientation-free', 'all', or names and globs.",
      discussion: "Default: orientation-free: magnitudes (|acceleration|) and the vertical and "
        + "horizontal parts of every 3-axis vector but gravity, which do not change when the "
        + "sensor is worn another way round. 'all' gives every loaded channel features, axes "
        + "included. Channels left out are still loaded and feed magnitudes and --decompose, "
        + "e.g. `--feature-channels 'acceleration.*,|acceleration|'`.",
      valueName: "list"))
  var featureChannels: String?

  @Option(
    help: ArgumentHelp(
      "Vectors to split into vertical and horizontal parts, e.g. `acceleration`; or 'none'.",
      discussion: "Per window, `<name>.vertical` is the vector's component along the mean "
        + "gravity direction and `<name>.horizontal` the size of the rest; both get every "
        + "per-channel feature and neither changes when the device is held another way "
        + "round. Needs `<name>.x/.y/.z` among the loaded channels. Default: every 3-axis "
        + "vector but gravity with --feature-channels orientation-free, none otherwise.",
      valueName: "names"))
  var decompose: String?

  /// `choice` with these flags applied.
  func apply(to choice: FeatureChoice) -> FeatureChoice {
    var choice = choice
    if let featureChannels {
      let items = DataOptions.list(featureChannels)
      if items == ["all"] {
        choice.channelRule = .all
      } else if items == [FeatureChannelRule.orientationFree.rawValue] {
        choice.channelRule = .orientationFree
      } else {
        choice.featureChannels = items
      }
    }
    if let decompose {
      let items = DataOptions.list(decompose)
      choice.decompose = items == ["none"] ? [] : items
    }
    return choice
  }
}

extension FeatureChoice {
  /// `cliSpec(recipes:recordingRates:)` as the chooser `DataSource.windows` takes.
  var cliSpecChoice: DataSource.SpecChoice {
    { recipes, rates in try cliSpec(recipes: recipes, recordingRates: rates) }
  }

  /// `spec(for:)`; a window that does not fit the data names the window flags.
  func cliSpec(for result: LoadResult) throws -> FeatureSpec {
    try cliSpec(
      recipes: result.recipes, recordingRates: result.dataset.recordings.map(\.sampleRateHz))
  }

  /// `spec(recipes:recordingRates:)`, with the window flags named as `cliSpec(for:)`.
  func cliSpec(recipes: [ChannelRecipe], recordingRates: [Double]) throws -> FeatureSpec {
    do {
      return try spec(recipes: recipes, recordingRates: recordingRates)
    } catch let error as FeatureSpecError {
      throw ToolError("with --window \(window), --hop \(hop?.description ?? "(default)"): \(error)")
    }
  }
}
