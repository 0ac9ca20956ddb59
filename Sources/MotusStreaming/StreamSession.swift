// A recording or live feed as `motus stream` reads it: parsed rows, possibly of several
// sessions, at a rate that may have to be estimated. Each session gets its own engine, started
// once the rate is known, so a new session never continues the previous one's window and a
// file gets the rate the batch loader would give it (MotusData's `estimateSampleRateHz`).
// Gaps inside a session are the engine's own restarts (`StreamConfiguration.gapRule`).

import Foundation
import MotusData
import MotusFeatures
import MotusModels

/// Classifies a stream of parsed rows, one `StreamingClassifier` per session.
///
///     let session = StreamSession(model: model, inputChannels: reader.inputs)
///     let row = values.withUnsafeMutableBufferPointer { reader.read(line, into: $0) }
///     let more = try values.withUnsafeBufferPointer {
///       try session.append(row, values: $0) { output in print(output); return true }
///     }
///     try session.finish { output in print(output); return true }
///
/// Without `configuration.inputRateHz`, the first `rateEstimateRows` rows of each session wait
/// until their timestamps give the rate. Not thread-safe: one session object per input.
public final class StreamSession {
  /// What a row (or the end of the input) gave.
  public enum Output: Sendable {
    /// An engine's event, for the rows whose `session` column held `session`.
    case event(StreamEvent, session: String?)
    /// A row that was left out unread; the error names where and why.
    case skippedRow(CSVError)
    /// The input rate given in the configuration is not the rate of the session's timestamps
    /// (estimated from its first rows); the engine goes on at the rate given.
    case inputRateDisagrees(session: String?, givenHz: Double, timestampsHz: Double)
  }

  /// How far a given input rate may be from the timestamps' before `.inputRateDisagrees`.
  public static let inputRateTolerance = 0.05

  public let model: TrainedModel
  public let inputChannels: [String]
  /// `inputRateHz` nil: each session's rate is estimated from its first rows.
  public let configuration: StreamConfiguration
  /// Rows buffered to estimate a session's input rate.
  public let rateEstimateRows: Int
  /// Counts of every finished engine, summed: the whole input once `finish` returned.
  public private(set) var statistics = StreamStatistics()
  /// Rows handed to `append` as `.skipped`.
  public private(set) var rowsSkipped = 0
  /// Time per sample inside the engine, consumers included, when `measuresSampleTime`; in
  /// fixed space, however long the stream runs.
  public private(set) var sampleTimes = SampleTimeHistogram()
  public let measuresSampleTime: Bool
  /// The running engine's input rate (given or estimated); nil while rows wait for it.
  public var inputRateHz: Double? { engine?.inputRateHz }
  /// Whether each session's input rate is estimated rather than given.
  public var estimatesInputRate: Bool { configuration.inputRateHz == nil }

  private var engine: StreamingClassifier?
  // The last finished engine's extractor: planned once, reused by every later session's engine.
  private var plannedExtractor: FeatureExtractor?
  private var currentSession: String?
  private var pending: [(time: Double, values: [Float])] = []
  // The session's first timestamps, to check a given input rate against; nil once checked.
  private var givenRateCheck: [Double]?
  private var consumerStopped = false

  /// Prepares a stream; no engine starts before the first row.
  ///
  /// - Parameters:
  ///   - model: The model every session's engine runs.
  ///   - inputChannels: The names of the values `append` is given, in order
  ///     (`StreamRowReader.inputs`).
  ///   - configuration: Settings of each engine; `inputRateHz` nil estimates it per session.
  ///   - rateEstimateRows: How many rows of a session the estimate waits for.
  ///   - measuresSampleTime: Record the time of every sample in `sampleTimes`.
  public init(
    model: TrainedModel, inputChannels: [String], configuration: StreamConfiguration = .init(),
    rateEstimateRows: Int = 32, measuresSampleTime: Bool = false
  ) {
    self.model = model
    self.inputChannels = inputChannels
    self.configuration = configuration
    self.rateEstimateRows = rateEstimateRows
    self.measuresSampleTime = measuresSampleTime
    givenRateCheck = configuration.inputRateHz == nil ? nil : []
  }

  /// Takes one parsed row; `values` holds `inputChannels.count` values of a `.sample`.
  ///
  /// `consumer` returns false when it can take no more (a closed pipe): events still due are
  /// then dropped and `append` returns false, after which the input should end.
  /// - Throws: what `StreamingClassifier.init` throws when a session's engine starts
  ///   (`LimitError` for an estimated rate out of bounds).
  public func append(
    _ row: StreamRowReader.Row, values: UnsafeBufferPointer<Float>,
    consumer: (Output) -> Bool
  ) throws -> Bool {
    let time: Double
    let session: String?
    switch row {
    case .blank: return true
    case .skipped(let error):
      rowsSkipped += 1
      _ = consumer(.skippedRow(error))
      return true
    case .sample(let t, let s):
      time = t
      session = s
    }
    var keepGoing = true
    if session != currentSession {
      if !pending.isEmpty { keepGoing = try startPendingEngine(consumer) }
      checkGivenRate(consumer)
      keepGoing = keepGoing && finishEngine(consumer)
      engine = nil
      currentSession = session
      givenRateCheck = estimatesInputRate ? nil : []
    }
    if givenRateCheck != nil {
      givenRateCheck?.append(time)
      if givenRateCheck?.count == rateEstimateRows { checkGivenRate(consumer) }
    }
    if engine == nil {
      pending.append((time, Array(values)))
      if !estimatesInputRate || pending.count >= rateEstimateRows {
        keepGoing = try startPendingEngine(consumer)
      }
    } else {
      keepGoing = feed(time: time, values: values, consumer)
    }
    if !keepGoing { consumerStopped = true }
    return keepGoing
  }

  /// Ends the input: starts an engine for rows still waiting, then flushes it.
  /// After the consumer stopped, only the running engine's counts are collected.
  public func finish(consumer: (Output) -> Bool) throws {
    if !consumerStopped { checkGivenRate(consumer) }
    var keepGoing = !consumerStopped
    if keepGoing, !pending.isEmpty { keepGoing = try startPendingEngine(consumer) }
    if keepGoing {
      _ = finishEngine(consumer)
    } else if let engine {
      add(engine.statistics)  // the consumer went away: still count what was done
    }
    engine = nil
  }

  /// Tells the consumer when the session's timestamps so far disagree with the given rate; a
  /// session is checked once, on its first `rateEstimateRows` rows (or all it has, at its end).
  private func checkGivenRate(_ consumer: (Output) -> Bool) {
    defer { givenRateCheck = nil }
    guard let given = configuration.inputRateHz, let times = givenRateCheck, times.count >= 3,
      let estimated = estimateSampleRateHz(timestamps: times),
      abs(estimated - given) > Self.inputRateTolerance * given
    else { return }
    _ = consumer(
      .inputRateDisagrees(session: currentSession, givenHz: given, timestampsHz: estimated))
  }

  /// Starts the session's engine at the rate of the waiting rows and feeds them.
  private func startPendingEngine(_ consumer: (Output) -> Bool) throws -> Bool {
    var c = configuration
    if c.inputRateHz == nil {
      c.inputRateHz = estimateSampleRateHz(timestamps: pending.map(\.time))
    }
    engine = try makeEngine(configuration: c)
    for row in pending {
      let ok = row.values.withUnsafeBufferPointer { feed(time: row.time, values: $0, consumer) }
      if !ok { return false }
    }
    pending.removeAll()
    return true
  }

  /// A new engine, on the planned extractor when there is one. The extractor moves out of
  /// `plannedExtractor` here, so the engine owns it alone by the time it first extracts (a
  /// shared one would plan itself again).
  private func makeEngine(configuration: StreamConfiguration) throws -> StreamingClassifier {
    let planned = plannedExtractor
    plannedExtractor = nil
    return try StreamingClassifier(
      model: model, inputChannels: inputChannels, configuration: configuration,
      extractor: planned)
  }

  private func feed(
    time: Double, values: UnsafeBufferPointer<Float>, _ consumer: (Output) -> Bool
  ) -> Bool {
    guard let engine else { return true }
    let started = measuresSampleTime ? DispatchTime.now().uptimeNanoseconds : 0
    var ok = true
    let session = currentSession
    engine.append(timestamp: time, values: values) { event in
      if ok { ok = consumer(.event(event, session: session)) }
    }
    if measuresSampleTime {
      sampleTimes.record(DispatchTime.now().uptimeNanoseconds - started)
    }
    return ok
  }

  private func finishEngine(_ consumer: (Output) -> Bool) -> Bool {
    guard let engine else { return true }
    var ok = true
    let session = currentSession
    engine.finish { event in
      if ok { ok = consumer(.event(event, session: session)) }
    }
    add(engine.statistics)
    // Its caller drops the engine next, which leaves this copy the extractor's only owner.
    plannedExtractor = engine.extractor
    return ok
  }

  private func add(_ s: StreamStatistics) {
    statistics.samplesReceived += s.samplesReceived
    statistics.samplesSkippedNaN += s.samplesSkippedNaN
    statistics.samplesSkippedOutOfOrder += s.samplesSkippedOutOfOrder
    statistics.gaps += s.gaps
    statistics.predictions += s.predictions
    statistics.predictionsSkippedNonFinite += s.predictionsSkippedNonFinite
  }
}
