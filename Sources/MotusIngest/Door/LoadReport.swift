// What a load read, kept and skipped, for `motus inspect` and training logs.

/// Counts and per-session facts gathered while loading. Nothing here changes the data.
public struct LoadReport: Sendable, Equatable {
  /// One CSV session (before gap splitting).
  public struct Session: Sendable, Equatable {
    public var name: String
    public var subject: String
    public var file: String
    /// Data rows read for this session (before label filtering).
    public var rowCount: Int
    /// 1 / median time step of the rows kept; 0 when fewer than two rows.
    public var detectedRateHz: Double
    /// Recordings the session became (0 when skipped).
    public var recordingCount: Int
  }

  /// A session or recording left out of the dataset, and why.
  public struct Skipped: Sendable, Equatable {
    public var session: String
    public var file: String
    public var rowCount: Int
    public var reason: String
  }

  /// Files read, in order.
  public var files: [String] = []
  /// Data rows read from all files.
  public var rowsRead = 0
  /// Rows dropped because their label was empty or not kept.
  public var rowsDroppedByLabel = 0
  public var sessions: [Session] = []
  public var skipped: [Skipped] = []
  /// Recordings in the dataset.
  public var recordingCount = 0
  /// Seconds per label (after mapping) in the final dataset.
  public var labelDurationsSeconds: [String: Double] = [:]
  /// Samples per label (after mapping and resampling) in the final dataset.
  public var labelSampleCounts: [String: Int] = [:]
  /// Empty cells per raw channel column; they are filled by linear interpolation in time.
  public var missingValues: [String: Int] = [:]
  /// Other facts worth printing (for example channels added so a magnitude can be computed).
  public var notes: [String] = []
  /// The notes that say data was repaired or left out on the way (a phone-app clock that
  /// stepped back, a sensor cut short, a pedometer not used): every command prints these.
  public var warnings: [String] = []

  public init() {}

  /// Detected rate per session name.
  public var detectedRatesHz: [String: Double] {
    Dictionary(sessions.map { ($0.name, $0.detectedRateHz) }, uniquingKeysWith: { a, _ in a })
  }

  /// Skipped entries grouped by reason, with counts: `[(reason, count)]`.
  public var skippedByReason: [(reason: String, count: Int)] {
    var counts: [String: Int] = [:]
    for s in skipped { counts[s.reason, default: 0] += 1 }
    return counts.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
  }
}
