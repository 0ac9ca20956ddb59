// How a manifest's sources weigh against each other in the loss; a model file records it.

/// How the windows of a manifest's sources are weighed against each other in the loss, on top of
/// each source's own `weight`.
public enum SourceBalance: String, Codable, Sendable, CaseIterable {
  /// Every window weighs its source's weight.
  case none
  /// A source of `n` windows weighs `1 / √n` a window (scaled so the mean window weighs 1):
  /// its total grows as `√n`, so a one-minute source is heard beside a five-hour one without
  /// its few windows counting as much as all of the other's.
  case inverseSquareRoot = "inverse-sqrt"
}
