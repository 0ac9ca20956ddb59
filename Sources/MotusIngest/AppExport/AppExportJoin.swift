// Puts the sensors of one app recording on one clock, as the samples of one session.
// The clock is the fastest sensor's: its typical step, from the latest sensor start to the
// earliest sensor end, split where the gap rule splits; each sensor is linearly interpolated
// onto it (no sensor is faster, so nothing needs an anti-alias filter). Phone timestamps
// jitter; on the common clock they no longer do.
//
// Not MotusLive's `SensorJoin`, which joins a live push: that one has no file to measure, so
// it cannot choose a clock or its gaps in advance, and makes a row at each reading of the
// first sensor as soon as every other sensor has passed it.

import Foundation
import MotusData

enum AppExportJoin {
  struct Joined {
    var channels: [String]
    /// Also among `notes`: what every command warns about.
    var warnings: [String]
    var timestamps: [Double]
    var columns: [[Float]]
    var rateHz: Double
    var notes: [String]
  }

  /// Joins `parts`' streams, releasing each stream's samples once it is on the clock.
  static func join(
    _ parts: inout AppRecordingParts, path: String, name: String, gapRule: GapRule
  ) throws -> Joined {
    let steps = parts.streams.map { $0.typicalStep ?? typicalTimeStep(timestamps: $0.times) ?? 0 }
    let primary = try fastestStream(steps: steps, parts: parts, path: path)
    let step = steps[primary]
    var notes = streamNotes(parts.streams, steps: steps, name: name)
    var warnings = parts.streams.flatMap(\.warnings).map { "\(name): \($0)" }
    // Before any clock time is counted: a step of 1e-300 s would make counts beyond Int.
    try Limits.checkSampleRate(
      1 / step, what: "\(path): the clock of \(parts.streams[primary].source) (its typical step)")
    let primaryTimes = parts.streams[primary].times
    let pieces = gapRule.pieces(times: primaryTimes, typicalStep: step)
    // Each piece's stretch of the clock: its first time and how many steps.
    let grids = pieces.compactMap { piece in
      grid(
        from: primaryTimes[piece.lowerBound], to: primaryTimes[piece.upperBound - 1], step: step,
        within: parts.streams)
    }
    let total = grids.reduce(0) { $0 + $1.count }
    guard total > 0 else {
      throw AppExportError(
        path: path, message: "the sensors never overlap in time for two samples.",
        hint: "check that the files belong to one recording.")
    }
    try checkClock(
      step: step, samples: total, from: primaryTimes.count, channels: parts.streams.count * 3,
      source: parts.streams[primary].source, path: path)
    let cut = cutNotes(parts.streams, name: name)
    notes += cut
    warnings += cut
    var timestamps: [Double] = []
    timestamps.reserveCapacity(total)
    for g in grids {
      for k in 0..<g.count { timestamps.append(g.start + Double(k) * step) }
    }
    let channels = parts.streams.flatMap(\.channels)
    let source = parts.streams[primary].source
    let (columns, emptyCells) = alignStreams(
      &parts, onto: timestamps, grids: grids, steps: steps, gapRule: gapRule)
    notes.append(
      clockNote(
        name: name, source: source, step: step, samples: total, pieces: pieces,
        primaryTimes: primaryTimes, gapRule: gapRule))
    if pieces.count > grids.count {
      notes.append("\(name): \(pieces.count - grids.count) piece(s) between gaps too short to keep")
    }
    if emptyCells > 0 {
      notes.append(
        "\(name): \(emptyCells) cells fall in a slower sensor's gap (filled by the loader)")
    }
    return Joined(
      channels: channels, warnings: warnings, timestamps: timestamps, columns: columns,
      rateHz: 1 / step, notes: notes)
  }

  /// The stream whose clock the join follows: the one with the shortest typical step.
  private static func fastestStream(
    steps: [Double], parts: AppRecordingParts, path: String
  ) throws -> Int {
    guard let primary = steps.indices.filter({ steps[$0] > 0 }).min(by: { steps[$0] < steps[$1] })
    else {
      throw AppExportError(
        path: path, message: "no acceleration, gravity or rotation-rate samples were found.",
        hint: "record with the app's accelerometer on (\(parts.layout.rawValue)); the files "
          + "read were: " + (parts.ignored.isEmpty ? "none" : parts.ignored.joined(separator: "; "))
          + ".")
    }
    return primary
  }

  /// Per stream: where it came from, what it became at which rate, and what its reader noted.
  private static func streamNotes(_ streams: [AppStream], steps: [Double], name: String)
    -> [String]
  {
    var notes: [String] = []
    for (s, stream) in streams.enumerated() {
      notes.append(
        "\(name): \(stream.source) -> \(stream.channels.joined(separator: ",")): "
          + "\(stream.conversion), \(String(format: "%.2f", 1 / steps[s])) Hz")
      notes += (stream.warnings + stream.notes).map { "\(name): \($0)" }
    }
    return notes
  }

  /// Every sensor's columns interpolated onto the clock, piece by piece (NaN where a slower
  /// sensor has a gap), each stream's samples released once it is on the clock; with the
  /// number of NaN cells.
  private static func alignStreams(
    _ parts: inout AppRecordingParts, onto timestamps: [Double],
    grids: [(start: Double, count: Int)], steps: [Double], gapRule: GapRule
  ) -> (columns: [[Float]], emptyCells: Int) {
    var columns: [[Float]] = []
    var emptyCells = 0
    for s in parts.streams.indices {
      for c in parts.streams[s].columns.indices {
        var column = [Float](repeating: .nan, count: timestamps.count)
        var offset = 0
        column.withUnsafeMutableBufferPointer { out in
          for g in grids {
            interpolate(
              times: parts.streams[s].times, values: parts.streams[s].columns[c],
              grid: timestamps[offset..<(offset + g.count)], into: out.baseAddress! + offset,
              gapRule: gapRule, typicalStep: steps[s])
            offset += g.count
          }
        }
        emptyCells += column.reduce(0) { $0 + ($1.isNaN ? 1 : 0) }
        columns.append(column)
      }
      parts.streams[s].columns = []
      parts.streams[s].times = []
    }
    return (columns, emptyCells)
  }

  /// The note on the common clock: its rate, whose step it is, how many samples, and where
  /// gaps split it (the longest named: a clock that jumped forward shows here).
  private static func clockNote(
    name: String, source: String, step: Double, samples: Int, pieces: [Range<Int>],
    primaryTimes: [Double], gapRule: GapRule
  ) -> String {
    var clock =
      "\(name): every sensor interpolated onto one \(String(format: "%.2f", 1 / step)) Hz clock "
      + "(\(source)'s typical step), \(samples) samples"
    if pieces.count > 1 {
      let longest = pieces.dropFirst().max {
        primaryTimes[$0.lowerBound] - primaryTimes[$0.lowerBound - 1]
          < primaryTimes[$1.lowerBound] - primaryTimes[$1.lowerBound - 1]
      }!
      let gap = primaryTimes[longest.lowerBound] - primaryTimes[longest.lowerBound - 1]
      clock +=
        ", split at \(pieces.count - 1) gap(s) over \(gapRule.minimumGapSeconds) s and "
        + "\(CSVError.format(gapRule.gapFactor)) steps (the longest \(AppClock.format(gap)) s, "
        + "at \(String(format: "%.1f", primaryTimes[longest.lowerBound - 1])) s)"
    }
    return clock
  }

  /// The clock (whose rate `join` has held to `Limits.sampleRateHz`) may not make many more
  /// samples than the sensor it follows has: a typical step far below the others (times a
  /// millisecond apart, then long pauses) would ask for samples by the billion.
  ///
  /// - Throws: `AppExportError` for a clock that would make more than four samples per sample
  ///   read, `LimitError` for the memory.
  static func checkClock(
    step: Double, samples: Int, from read: Int, channels: Int, source: String, path: String
  ) throws {
    guard samples <= 4 * read + 16 else {
      throw AppExportError(
        path: path,
        message: "\(source)'s typical step (\(step) s) would put \(samples) samples on the "
          + "common clock from \(read) read: its samples come in bursts with long pauses between.",
        hint: "check the time column: seconds (or the app's unit), one sample per row.")
    }
    try Limits.checkMemory(
      Double(samples) * Double(8 + 4 * channels), for: "\(path): the common clock",
      hint: "split the recording.")
  }

  /// Where a sensor starting late or ending early (a file cut short) cuts every other one.
  static func cutNotes(_ streams: [AppStream], name: String, tolerance: Double = 1) -> [String] {
    guard streams.count > 1 else { return [] }
    let firsts = streams.map { $0.times[0] }
    let lasts = streams.map { $0.times[$0.times.count - 1] }
    let (start, end) = (firsts.max()!, lasts.min()!)
    let (earliest, latest) = (firsts.min()!, lasts.max()!)
    var notes: [String] = []
    func seconds(_ t: Double) -> String { String(format: "%.1f s", t) }
    if let s = lasts.firstIndex(of: end), latest - end > tolerance {
      notes.append(
        "\(name): \(streams[s].source) ends at \(seconds(end)), \(seconds(latest - end)) before "
          + "the last sensor (\(streams[lasts.firstIndex(of: latest)!].source)): every sensor is "
          + "cut there")
    }
    if let s = firsts.firstIndex(of: start), start - earliest > tolerance {
      notes.append(
        "\(name): \(streams[s].source) starts at \(seconds(start)), \(seconds(start - earliest)) "
          + "after the first sensor (\(streams[firsts.firstIndex(of: earliest)!].source)): every "
          + "sensor starts there")
    }
    if !notes.isEmpty {
      notes.append(
        "\(name): kept \(seconds(start))-\(seconds(end)), where every sensor has samples, of "
          + "\(seconds(earliest))-\(seconds(latest))")
    }
    return notes
  }

  /// The clock from `start` to `end`, `step` apart, narrowed to the span every stream covers:
  /// its first time and number of times; nil when that is shorter than one step.
  static func grid(from start: Double, to end: Double, step: Double, within streams: [AppStream])
    -> (start: Double, count: Int)?
  {
    var g0 = start
    var g1 = end
    for s in streams {
      g0 = max(g0, s.times[0])
      g1 = min(g1, s.times[s.times.count - 1])
    }
    guard g1 - g0 >= step else { return nil }
    return (g0, Int(((g1 - g0) / step + 1e-9).rounded(.down)) + 1)
  }

  /// One column (`values` at `times`) linearly interpolated at `grid` (ascending, within the
  /// stream's span), stored as Float into `out`; left NaN where the grid time falls in a gap
  /// of the stream.
  static func interpolate(
    times: [Double], values: [Double], grid: ArraySlice<Double>,
    into out: UnsafeMutablePointer<Float>,
    gapRule: GapRule, typicalStep: Double
  ) {
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
      out[k] = Float(values[j] + w * (values[j + 1] - values[j]))
    }
  }
}
