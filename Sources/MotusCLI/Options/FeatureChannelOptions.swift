// `--feature-channels` and `--decompose`: which loaded channels get features, and which
// vectors are split into orientation-free vertical and horizontal parts.

import ArgumentParser
import Motus

struct FeatureChannelOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Channels that get features: names or globs (default: every loaded channel).",
      discussion: "Channels left out are still loaded and can feed magnitudes and --decompose, "
        + "e.g. `--feature-channels '|acceleration|'` for an orientation-free model.",
      valueName: "list"))
  var featureChannels: String?

  @Option(
    help: ArgumentHelp(
      "Vectors to split into vertical and horizontal parts, e.g. `acceleration`.",
      discussion: "Per window, `<name>.vertical` is the vector's component along the mean "
        + "gravity direction and `<name>.horizontal` the size of the rest; both get every "
        + "per-channel feature and neither changes when the device is held another way "
        + "round. Needs `<name>.x/.y/.z` among the loaded channels.",
      valueName: "names"))
  var decompose: String?

  /// `spec` restricted to `--feature-channels`, with the `--decompose` vectors added.
  ///
  /// - Throws: `ToolError` when a pattern or vector matches no loaded channel.
  func apply(to spec: FeatureSpec) throws -> FeatureSpec {
    var result = spec
    if let featureChannels {
      let patterns = DataOptions.list(featureChannels)
      let unmatched = spec.unmatchedPatterns(patterns)
      guard unmatched.isEmpty else {
        throw ToolError(
          "'--feature-channels': \(unmatched.joined(separator: ", ")) matches no loaded "
            + "channel.", hint: "choose among \(spec.channels.joined(separator: ", ")).")
      }
      result = spec.restricted(toChannels: patterns)
    }
    if let decompose {
      let loaded = Set(spec.recipes.map(\.name))
      for name in DataOptions.list(decompose) {
        let axes = ["x", "y", "z"].map { "\(name).\($0)" }
        guard axes.allSatisfy(loaded.contains) else {
          throw ToolError(
            "'--decompose': \(name) needs \(axes.joined(separator: ", ")) among the loaded "
              + "channels.", hint: "e.g. --decompose acceleration with acceleration.* loaded.")
        }
        result.decomposedVectors.append(axes)
      }
    }
    return result
  }
}
