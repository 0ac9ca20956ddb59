// The shake test of the Core Motion article: |acceleration| above 2.5 g. Units: g.

/// Fires once each time the acceleration magnitude rises above `thresholdG`.
public struct ShakeDetector: Sendable, Equatable {
  public let thresholdG: Float
  /// Shakes detected so far (rising crossings of the threshold).
  public private(set) var count = 0
  private var above = false

  /// - Parameter thresholdG: In g; the article's value is 2.5.
  public init(thresholdG: Float = 2.5) {
    precondition(thresholdG > 0, "threshold must be > 0 g, got \(thresholdG)")
    self.thresholdG = thresholdG
  }

  /// Feeds one raw acceleration sample (g, any sign convention).
  /// - Returns: True when this sample starts a shake.
  public mutating func push(x: Float, y: Float, z: Float) -> Bool {
    let magnitude = (x * x + y * y + z * z).squareRoot()
    let isAbove = magnitude > thresholdG
    defer { above = isAbove }
    if isAbove && !above {
      count += 1
      return true
    }
    return false
  }
}
