// Which of a model's channels the counting stages read. Steps and push-ups show in the
// length of the acceleration vector whatever the phone's orientation, so both count on a
// magnitude channel (a recipe named |...|), preferring total acceleration.

/// The orientation-free channel of a model, by its recipe names.
enum MagnitudeChannel {
  /// `|acceleration|`, else `|userAcceleration|`, else the first other magnitude; nil when
  /// the model has none.
  static func index(among names: [String]) -> Int? {
    names.firstIndex(of: "|acceleration|") ?? names.firstIndex(of: "|userAcceleration|")
      ?? names.firstIndex { $0.hasPrefix("|") }
  }
}
