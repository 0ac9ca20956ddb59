// The classifier stage's counts of what it took in and what it left out.

/// Counts of what a stream saw.
public struct StreamStatistics: Sendable, Equatable {
  public var samplesReceived = 0
  public var samplesSkippedNaN = 0
  public var samplesSkippedOutOfOrder = 0
  public var gaps = 0
  public var predictions = 0
  /// Windows whose features or probabilities came out NaN or infinite (values too large for
  /// the model): no prediction is made for them.
  public var predictionsSkippedNonFinite = 0

  public init() {}
}
