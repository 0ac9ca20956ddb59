// The one rule for a phone-app sensor's timestamps. Phones write wall-clock or boot-clock
// times that a clock change (daylight saving, a network correction) can move backwards, and
// a file can hold a corrupt or repeated time. Dropping every sample until the clock catches
// up loses, at a daylight-saving fall-back, an hour; so each is repaired, with a note:
// - one time out of line with both neighbours (which agree) takes their midpoint;
// - a repeated time (SensorLog logs a sample once per tick) drops the repeat;
// - a step back moves every later sample to follow on one typical step after the last.
// Forward jumps stay: the gap rule splits the recording there. A file whose times go back
// more often than a clock is corrected is refused: its rows are not in time order.

import MotusData

/// Timestamps of one sensor, repaired.
struct AppClock {
  /// Steps back beyond which the times are refused rather than repaired (or one in a hundred
  /// samples, when more).
  static let repairLimit = 16

  /// Seconds, strictly ascending.
  var times: [Double]
  /// The typical step of the input (`typicalTimeStep`; 0 when no step advances): that of
  /// `times` too when nothing was moved (dropping repeats changes no step that advances).
  var step: Double
  /// Indices into the input of the samples kept (all but dropped repeats).
  var kept: [Int]?
  /// Repeats dropped, for the load report.
  var notes: [String] = []
  /// Times moved (out of line, steps back), for the load report and every command's warnings.
  var warnings: [String] = []

  /// Repairs `times` (finite, in file order).
  ///
  /// - Parameters:
  ///   - source: The file and columns, for notes and errors.
  ///   - line: The file line of sample `i`.
  /// - Throws: `AppExportError` when the times go back more than `repairLimit` times (or in
  ///   more than one sample in a hundred), or never change.
  init(_ input: [Double], source: String, line: (Int) -> Int) throws {
    var t = input
    let n = t.count
    let step = typicalTimeStep(timestamps: t) ?? 0
    self.step = step
    let outliers = Self.setOutliersBetweenNeighbours(&t, step: step)
    let (out, keep, repeats, backSteps) = Self.dropRepeatsAndFollowOn(t, step: step)
    if n > 1 && out.count == 1 {
      throw AppExportError(
        path: source,
        message: "the time never changes (all \(n) samples at \(input[0]) s), so the samples "
          + "cannot be placed on a clock.",
        hint: "check the file's time column (it must hold each sample's time); export the "
          + "recording again.")
    }
    let repairs = outliers.count + backSteps.count
    if backSteps.count > Self.repairLimit || repairs > max(Self.repairLimit, n / 100) {
      let first = backSteps.first?.index ?? outliers.first ?? 0
      throw AppExportError(
        path: source,
        message: "the time goes back \(repairs) times (first at line \(line(first)): "
          + "\(input[max(first - 1, 0)]) s, then \(input[first]) s); these are not the times "
          + "of one clock.",
        hint: "sort the rows by time, and keep one recording per file (or per folder).")
    }
    times = out
    kept = keep
    if !outliers.isEmpty {
      warnings.append(
        "\(source): \(outliers.count) time(s) out of line with their neighbours (first at line "
          + "\(line(outliers[0])): \(input[outliers[0]]) s) set between them")
    }
    if repeats > 0 {
      notes.append("\(source): \(repeats) repeated time(s) dropped (a sample logged twice)")
    }
    for (index, seconds) in backSteps.prefix(3) {
      warnings.append(
        "\(source): the clock steps back \(Self.format(seconds)) s at line \(line(index)) (a "
          + "clock change?); the samples after it are moved to follow on")
    }
    if backSteps.count > 3 {
      warnings.append("\(source): \(backSteps.count - 3) more step(s) back, moved likewise")
    }
  }

  /// One time out of line, between neighbours that agree: a corrupt cell, set between them (one
  /// step beyond its neighbour at either end), in order, so a repaired time is the next one's
  /// neighbour. A time equal to a neighbour's is a repeat, not out of line. Returns the indices
  /// set.
  private static func setOutliersBetweenNeighbours(_ t: inout [Double], step: Double) -> [Int] {
    let n = t.count
    var outliers: [Int] = []
    guard step > 0 && n >= 3 else { return outliers }
    let near = 10 * step
    for i in 0..<n {
      if i == 0 {
        guard t[0] > t[1], t[1] < t[2], t[2] - t[1] <= near else { continue }
        t[0] = t[1] - step
      } else if i == n - 1 {
        guard t[i] < t[i - 1], t[i - 1] > t[i - 2], t[i - 1] - t[i - 2] <= near else { continue }
        t[i] = t[i - 1] + step
      } else {
        let (a, b) = (t[i - 1], t[i + 1])
        guard a < b, b - a <= near, t[i] < a || t[i] > b else { continue }
        t[i] = (a + b) / 2
      }
      outliers.append(i)
    }
    return outliers
  }

  /// Repeats dropped (`kept`: the indices left, nil when none is dropped); after a step back,
  /// every later sample moved to follow on one `step` after the last.
  private static func dropRepeatsAndFollowOn(_ t: [Double], step: Double) -> (
    times: [Double], kept: [Int]?, repeats: Int, backSteps: [(index: Int, seconds: Double)]
  ) {
    var keep: [Int]? = nil
    var repeats = 0
    var backSteps: [(index: Int, seconds: Double)] = []
    var offset = 0.0
    var last = -Double.infinity
    var out: [Double] = []
    out.reserveCapacity(t.count)
    for i in 0..<t.count {
      var v = t[i] + offset
      if v == last {
        repeats += 1
        if keep == nil { keep = Array(0..<i) }
        continue
      }
      if v < last {
        backSteps.append((i, last - v))
        offset += last - v + step
        v = t[i] + offset
        if v <= last { v = last.nextUp }
      }
      keep?.append(i)
      out.append(v)
      last = v
    }
    return (out, keep, repeats, backSteps)
  }

  static func format(_ seconds: Double) -> String {
    seconds >= 10 ? String(format: "%.0f", seconds) : String(format: "%.3g", seconds)
  }
}
