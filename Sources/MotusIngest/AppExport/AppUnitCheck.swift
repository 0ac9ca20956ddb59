// The one plausibility check on an app's units: a stream that holds gravity (acceleration
// with g, or gravity itself) reads about 1 g whatever the phone does, so its median magnitude
// says whether its unit was right. m/s² in a column the app writes in g reads 9.8 g; g in a
// column written in m/s² reads 0.1 g. Either would silently scale every feature.

import Foundation
import MotusData

enum AppUnitCheck {
  /// The median magnitude of a stream holding gravity must lie in this range (g).
  static let plausibleGravity: ClosedRange<Double> = 0.5...2

  /// - Throws: `AppExportError` naming the stream, the median magnitude and the likely unit
  ///   mix-up, for an `acceleration` or `gravity` stream whose median magnitude is outside
  ///   `plausibleGravity`.
  static func check(_ streams: [AppStream], path: String, layout: AppExportLayout) throws {
    for stream in streams {
      guard let group = stream.channels.first?.split(separator: ".").first,
        group == "acceleration" || group == "gravity", stream.columns.count == 3
      else { continue }
      let median = medianMagnitude(stream.columns)
      guard !plausibleGravity.contains(median) else { continue }
      let hint: String
      if (5...20).contains(median) {
        hint =
          "the values look like m/s² (about 9.8 at rest) where \(layout.rawValue) writes "
          + "g: divide them by 9.81, or export the sensor in its own unit."
      } else if (0.05...0.2).contains(median) {
        hint =
          "the values look like g (about 1 at rest) where \(layout.rawValue) writes m/s²: "
          + "multiply them by 9.81, or export the sensor in its own unit."
      } else {
        hint =
          "check the columns' unit and order; a decimal comma in a comma-separated file "
          + "shifts them."
      }
      throw AppExportError(
        path: path,
        message: "\(stream.source): the median |\(group)| is \(String(format: "%.3g", median)) g "
          + "(\(stream.conversion)); a phone reads about 1 g of gravity whatever it does.",
        hint: hint)
    }
  }

  /// Median of |(x, y, z)| over at most about 20,000 evenly spread samples.
  static func medianMagnitude(_ columns: [[Double]]) -> Double {
    let n = columns[0].count
    guard n > 0 else { return .nan }
    let stride = max(1, n / 20_000)
    var magnitudes: [Double] = []
    magnitudes.reserveCapacity(n / stride + 1)
    for i in Swift.stride(from: 0, to: n, by: stride) {
      let (x, y, z) = (columns[0][i], columns[1][i], columns[2][i])
      magnitudes.append((x * x + y * y + z * z).squareRoot())
    }
    magnitudes.sort()
    return magnitudes[magnitudes.count / 2]
  }
}
