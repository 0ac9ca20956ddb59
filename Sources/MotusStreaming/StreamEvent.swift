// Everything a stream reports, in the order its stages produce it.

/// Something the engine reports while it consumes samples.
public enum StreamEvent: Sendable {
  case prediction(StreamPrediction)
  /// A segment of one label ended (label change, gap or end of stream).
  case segment(ActivitySegment)
  /// One more repetition inside a repetition-counted activity, with the running count.
  case repetition(time: Double, count: Int)
  /// Input stopped for longer than the gap limit; the window was restarted.
  case gap(from: Double, to: Double)
  /// One more step (`StreamConfiguration.countsSteps`), with the stream's running total.
  case step(time: Double, total: Int)
}
