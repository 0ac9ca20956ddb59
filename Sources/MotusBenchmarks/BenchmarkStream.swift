// A held-out subject's recordings joined end to end into one stream (channel-major columns,
// seconds, one label index per sample), with the known-count repetition sets inside it.

import MotusData

/// One test stream and the truth to score it against.
public struct BenchmarkStream: Sendable {
  public var subject: String
  public var sampleRateHz: Double
  /// Seconds, evenly spaced.
  public var timestamps: [Double]
  /// `columns[c][t]`, in the dataset's channel order.
  public var columns: [[Float]]
  /// Index into the dataset's labels, per sample.
  public var truth: [Int32]
  /// Sample ranges of joined repetition sets and their known counts.
  public var sets: [(range: Range<Int>, known: Int)]

  /// Joins `subject`'s recordings in natural session order.
  public static func make(
    subject: String, dataset: Dataset, knownRepetitions: [String: Int]
  ) -> BenchmarkStream {
    make(
      name: subject, recordings: dataset.recordings.filter { $0.subject == subject },
      channelCount: dataset.channels.count, knownRepetitions: knownRepetitions)
  }

  /// Joins `recordings` (of one rate) end to end in natural session order.
  public static func make(
    name: String, recordings: [Recording], channelCount: Int, knownRepetitions: [String: Int]
  ) -> BenchmarkStream {
    let recordings = recordings.sorted { naturalOrder($0.session, $1.session) }
    let rate = recordings.first?.sampleRateHz ?? 1
    var stream = BenchmarkStream(
      subject: name, sampleRateHz: rate, timestamps: [],
      columns: [[Float]](repeating: [], count: channelCount), truth: [], sets: [])
    for r in recordings {
      let start = stream.timestamps.count
      for t in 0..<r.sampleCount { stream.timestamps.append(Double(start + t) / rate) }
      for c in stream.columns.indices { stream.columns[c] += r.columns[c] }
      stream.truth += r.labelIndices
      if let known = knownRepetitions[r.session] {
        stream.sets.append((start..<stream.timestamps.count, known))
      }
    }
    return stream
  }

  public var sampleCount: Int { timestamps.count }
}
