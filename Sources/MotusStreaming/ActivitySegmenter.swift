// Turns a stream of labelled predictions into activity segments, like Core Motion's
// CMMotionActivity change events: one segment per run of the same label.

/// A stretch of time with one predicted activity.
public struct ActivitySegment: Codable, Sendable, Equatable {
  public var start: Double
  public var end: Double
  public var label: String
  /// Mean probability of `label` over the predictions in the segment.
  public var meanConfidence: Float
  public var predictionCount: Int
  /// Steps taken during the segment, when the stream counts steps (`countsSteps`).
  public var steps: Int? = nil
  /// Repetitions counted during the segment, when the stream counts them (the model has the
  /// `repetitionClass`): those reported after the previous segment closed.
  public var repetitions: Int? = nil
}

/// Groups consecutive predictions with the same label.
public struct ActivitySegmenter: Sendable {
  private var current: ActivitySegment?
  private var confidenceSum: Double = 0

  public init() {}

  /// Feeds one prediction covering `[start, end]`; returns the segment it closed, if any.
  public mutating func add(label: String, start: Double, end: Double, confidence: Float)
    -> ActivitySegment?
  {
    if var segment = current, segment.label == label {
      segment.end = end
      segment.predictionCount += 1
      confidenceSum += Double(confidence)
      segment.meanConfidence = Float(confidenceSum / Double(segment.predictionCount))
      current = segment
      return nil
    }
    let closed = current
    // Windows overlap, so a new segment starts where the previous one ended.
    let newStart = closed.map { max(start, $0.end) } ?? start
    current = ActivitySegment(
      start: newStart, end: end, label: label, meanConfidence: confidence, predictionCount: 1)
    confidenceSum = Double(confidence)
    return closed
  }

  /// Closes and returns the open segment (end of stream or a gap).
  public mutating func finish() -> ActivitySegment? {
    defer { current = nil; confidenceSum = 0 }
    return current
  }
}
