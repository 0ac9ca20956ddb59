// Sensor Logger pushes each sensor's readings at its own times. A row for the engine is made at
// each reading of the primary sensor (the first group), the other groups linearly interpolated
// there; a row waits until every other group has a reading at or after it, so a batch's last
// rows may wait for the next batch. Rows before every group has started are dropped, as the
// export reader starts its clock at the latest sensor start.
//
// Not MotusIngest's `AppExportJoin`, which joins whole files: it knows every sensor's typical
// step and end before it starts, so it makes a new clock at the fastest one's step, split at
// gaps and cut where a sensor ends. A push arrives a batch at a time and has no end: the rows
// keep the primary sensor's own times, and the engine's gap rule sees its pauses.

struct SensorJoin {
  struct Track {
    var times: [Int64] = []
    var values: [SIMD3<Double>] = []
  }

  private(set) var tracks: [Track]
  /// Rows dropped: before every group started, or waiting too long for a group that stopped.
  private(set) var droppedRows = 0
  /// Primary readings that may wait for the other groups before the oldest are dropped.
  let maxWaiting: Int

  init(groups: Int, maxWaiting: Int = 4096) {
    tracks = Array(repeating: Track(), count: groups)
    latest = Array(repeating: nil, count: groups)
    self.maxWaiting = maxWaiting
  }

  /// Each group's latest time, kept when its readings are forgotten.
  private var latest: [Int64?]

  /// The latest time of group `g`, nil before its first reading.
  func lastTime(_ g: Int) -> Int64? { latest[g] }

  mutating func add(group g: Int, time: Int64, value: SIMD3<Double>) {
    latest[g] = time
    tracks[g].times.append(time)
    tracks[g].values.append(value)
  }

  /// Hands each row that can be made, in time order, to `row` (time, one value per channel),
  /// then forgets what no later row needs.
  mutating func drain(_ row: (Int64, [Double]) -> Void) {
    var made = 0
    var cursors = [Int](repeating: 0, count: tracks.count)
    var values = [Double](repeating: 0, count: tracks.count * 3)
    rows: for p in tracks[0].times.indices {
      let t = tracks[0].times[p]
      let v0 = tracks[0].values[p]
      (values[0], values[1], values[2]) = (v0.x, v0.y, v0.z)
      for g in tracks.indices.dropFirst() {
        let track = tracks[g]
        while cursors[g] < track.times.count && track.times[cursors[g]] < t { cursors[g] += 1 }
        guard cursors[g] < track.times.count else { break rows }  // wait for more of g
        let j = cursors[g]
        let v: SIMD3<Double>
        if track.times[j] == t {
          v = track.values[j]
        } else if j > 0 {
          let (t0, t1) = (track.times[j - 1], track.times[j])
          let w = Double(t - t0) / Double(t1 - t0)
          v = track.values[j - 1] + (track.values[j] - track.values[j - 1]) * w
        } else {
          made = p + 1  // before g's first reading: no row
          droppedRows += 1
          continue rows
        }
        (values[3 * g], values[3 * g + 1], values[3 * g + 2]) = (v.x, v.y, v.z)
      }
      row(t, values)
      made = p + 1
    }
    forget(primaryRows: made)
    if tracks[0].times.count > maxWaiting {
      let excess = tracks[0].times.count - maxWaiting
      droppedRows += excess
      forget(primaryRows: excess)
    }
  }

  /// Drops the first `n` primary readings and, of the other groups, all but the last reading
  /// before the next primary time (the left end of its next interpolation).
  private mutating func forget(primaryRows n: Int) {
    guard n > 0 else { return }
    tracks[0].times.removeFirst(n)
    tracks[0].values.removeFirst(n)
    guard let next = tracks[0].times.first else {
      for g in tracks.indices.dropFirst() { keepLast(g, before: Int64.max) }
      return
    }
    for g in tracks.indices.dropFirst() { keepLast(g, before: next) }
  }

  private mutating func keepLast(_ g: Int, before t: Int64) {
    var firstNeeded = 0
    while firstNeeded + 1 < tracks[g].times.count && tracks[g].times[firstNeeded + 1] < t {
      firstNeeded += 1
    }
    if t == Int64.max { firstNeeded = max(0, tracks[g].times.count - 1) }
    guard firstNeeded > 0 else { return }
    tracks[g].times.removeFirst(firstNeeded)
    tracks[g].values.removeFirst(firstNeeded)
  }
}
