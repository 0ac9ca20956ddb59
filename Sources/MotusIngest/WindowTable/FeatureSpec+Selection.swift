// Choosing which channels get features, while every recipe stays in the spec: a magnitude
// such as |acceleration| is still computed from axes that get no features of their own.

import MotusData
import MotusFeatures

extension FeatureSpec {
  /// The spec with per-channel features only for channels matching one of `patterns`
  /// (globs, as `--channels` takes them), and axis correlations and gravity angles only for
  /// vectors whose three axes all match. Channel order is kept.
  ///
  /// Orientation-free models use this: `["|acceleration|"]` keeps the one channel that does
  /// not change when a phone sits in a pocket another way round.
  public func restricted(toChannels patterns: [String]) -> FeatureSpec {
    func selected(_ name: String) -> Bool {
      patterns.contains { ChannelSelector.globMatches($0, name) }
    }
    var spec = self
    spec.channels = channels.filter(selected)
    spec.vectors = vectors.filter { $0.allSatisfy(selected) }
    return spec
  }

  /// The patterns among `patterns` that match none of the spec's channels.
  public func unmatchedPatterns(_ patterns: [String]) -> [String] {
    patterns.filter { pattern in !channels.contains { ChannelSelector.globMatches(pattern, $0) } }
  }
}
