// Puts the sensors of one app recording on one clock and writes them in the long layout.
// The clock is the fastest sensor's: its typical step, from the latest sensor start to the
// earliest sensor end, split where the gap rule splits; each sensor is linearly interpolated
// onto it (no sensor is faster, so nothing needs an anti-alias filter). Phone timestamps
// jitter; on the common clock they no longer do.

import Foundation

enum AppExportJoin {
  struct Joined {
    var bytes: [UInt8]
    var rateHz: Double
    var notes: [String]
  }

  static func join(
    _ parts: AppRecordingParts, path: String, name: String, label: String, gapRule: GapRule
  ) throws -> Joined {
    let streams = parts.streams
    let steps = streams.map { typicalTimeStep(timestamps: $0.times) ?? 0 }
    guard let primary = steps.indices.filter({ steps[$0] > 0 }).min(by: { steps[$0] < steps[$1] })
    else {
      throw AppExportError(
        path: path, message: "no acceleration, gravity or rotation-rate samples were found.",
        hint: "record with the app's accelerometer on (\(parts.layout.rawValue)); the files "
          + "read were: " + (parts.ignored.isEmpty ? "none" : parts.ignored.joined(separator: "; ")) + ".")
    }
    let step = steps[primary]
    var notes: [String] = []
    for (s, stream) in streams.enumerated() {
      notes.append(
        "\(name): \(stream.source) -> \(stream.channels.joined(separator: ",")): "
          + "\(stream.conversion), \(String(format: "%.2f", 1 / steps[s])) Hz")
    }
    let pieces = gapRule.pieces(times: streams[primary].times, typicalStep: step)
    var text = "timestamp,session,subject,label," + streams.flatMap(\.channels).joined(separator: ",") + "\n"
    let prefix = "," + CSVText.field(name) + "," + CSVText.field(name) + "," + CSVText.field(label)
    var rows = 0
    var emptyCells = 0
    var shortPieces = 0
    for piece in pieces {
      let primaryTimes = streams[primary].times
      guard
        let grid = grid(
          from: primaryTimes[piece.lowerBound], to: primaryTimes[piece.upperBound - 1],
          step: step, within: streams)
      else {
        shortPieces += 1
        continue
      }
      let columns = streams.enumerated().flatMap { s, stream in
        interpolate(stream, at: grid, gapRule: gapRule, typicalStep: steps[s])
      }
      emptyCells += appendRows(times: grid, columns: columns, prefix: prefix, to: &text)
      rows += grid.count
    }
    guard rows > 0 else {
      throw AppExportError(
        path: path, message: "the sensors never overlap in time for two samples.",
        hint: "check that the files belong to one recording.")
    }
    var clock = "\(name): every sensor interpolated onto one \(String(format: "%.2f", 1 / step)) Hz clock "
      + "(\(streams[primary].source)'s typical step), \(rows) samples"
    if pieces.count > 1 {
      clock += ", split at \(pieces.count - 1) gap(s) over \(gapRule.minimumGapSeconds) s and \(CSVError.format(gapRule.gapFactor)) steps"
    }
    notes.append(clock)
    if shortPieces > 0 { notes.append("\(name): \(shortPieces) piece(s) between gaps too short to keep") }
    if emptyCells > 0 {
      notes.append("\(name): \(emptyCells) cells fall in a slower sensor's gap (filled by the loader)")
    }
    return Joined(bytes: Array(text.utf8), rateHz: 1 / step, notes: notes)
  }

  /// Times `step` apart from `start` to `end`, narrowed to the span every stream covers; nil
  /// when that is shorter than one step.
  static func grid(from start: Double, to end: Double, step: Double, within streams: [AppStream])
    -> [Double]?
  {
    var g0 = start
    var g1 = end
    for s in streams {
      g0 = max(g0, s.times[0])
      g1 = min(g1, s.times[s.times.count - 1])
    }
    guard g1 - g0 >= step else { return nil }
    let count = Int(((g1 - g0) / step + 1e-9).rounded(.down)) + 1
    return (0..<count).map { g0 + Double($0) * step }
  }

  /// Appends one long-layout row per time (`prefix` holds session, subject and label); NaN
  /// values become empty cells. Returns how many.
  static func appendRows(times: [Double], columns: [[Double]], prefix: String, to text: inout String)
    -> Int
  {
    var empty = 0
    for (k, t) in times.enumerated() {
      text += "\(t)" + prefix
      for column in columns {
        let v = column[k]
        if v.isNaN {
          empty += 1
          text += ","
        } else {
          text += ",\(Float(v))"
        }
      }
      text += "\n"
    }
    return empty
  }

  /// `stream`'s columns linearly interpolated at `grid` (ascending, within the stream's span);
  /// NaN where the grid time falls in a gap of the stream.
  static func interpolate(
    _ stream: AppStream, at grid: [Double], gapRule: GapRule, typicalStep: Double
  ) -> [[Double]] {
    let times = stream.times
    var out = [[Double]](repeating: [Double](repeating: .nan, count: grid.count), count: stream.columns.count)
    var j = 0
    for (k, t) in grid.enumerated() {
      // The tolerance keeps a grid time rounded just past a piece's last sample in that piece.
      while j + 2 < times.count && times[j + 1] < t - 1e-9 { j += 1 }
      let t0 = times[j]
      let t1 = times[j + 1]
      // Inside a gap there is no value; at its edges the sample itself is.
      let inside = t > t0 + 1e-9 && t < t1 - 1e-9
      if inside && gapRule.isGap(step: t1 - t0, typicalStep: typicalStep) { continue }
      let w = t1 > t0 ? min(max((t - t0) / (t1 - t0), 0), 1) : 0
      for c in stream.columns.indices {
        out[c][k] = stream.columns[c][j] + w * (stream.columns[c][j + 1] - stream.columns[c][j])
      }
    }
    return out
  }

}
