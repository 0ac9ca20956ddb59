// The displayed step total when two counters count the same walk: an external one that is
// slow but authoritative (the phone's pedometer, HealthKit) and a live one that answers at
// once (Motus's own `StepCounter`). The rule, from dual-source step trackers:
//
//     displayed = baseline (external) + delta (live steps since the baseline was set)
//
// An external total above the displayed one becomes the new baseline and the delta restarts;
// one below it is ignored. A persisted value restores the count after a relaunch. The
// displayed total never decreases, except at an explicit day rollover, and every step of it
// is attributed to the source that added it.

/// Combines an external step count with a live one so the displayed total only goes up.
public struct StepReconciler: Sendable, Equatable {
  /// Who added steps to the displayed total.
  public enum Source: String, Sendable, CaseIterable {
    case external, live, persisted
  }

  /// One change of the displayed total.
  public struct Increment: Sendable, Equatable {
    public var steps: Int
    public var source: Source
    public var displayed: Int

    public init(steps: Int, source: Source, displayed: Int) {
      (self.steps, self.source, self.displayed) = (steps, source, displayed)
    }
  }

  /// What the user sees.
  public private(set) var displayed = 0
  /// Steps of `displayed` each source added.
  public private(set) var stepsBySource: [Source: Int] = [:]
  private var baseline = 0
  /// The live counter's reading when the baseline was set, and its latest reading.
  private var liveAtBaseline = 0
  private var liveLatest = 0
  /// Steps the live counter added before it restarted (pause/resume, a new stream).
  private var liveCarried = 0

  public init() {}

  /// A new reading of the live counter's running total. A reading below the previous one
  /// means the counter restarted (a resumed session): the steps it had counted are kept.
  @discardableResult
  public mutating func liveTotal(_ total: Int) -> Increment? {
    precondition(total >= 0, "a step total cannot be negative: \(total)")
    if total < liveLatest { liveCarried += liveLatest - liveAtBaseline; liveAtBaseline = 0 }
    liveLatest = total
    return raise(to: baseline + liveCarried + liveLatest - liveAtBaseline, by: .live)
  }

  /// A new total from the external counter: adopted as the baseline when it is above the
  /// displayed total (the live delta restarts from here), ignored otherwise.
  @discardableResult
  public mutating func externalTotal(_ total: Int) -> Increment? {
    adoptBaseline(total, by: .external)
  }

  /// A total saved before the app stopped: the displayed total is the larger of the two.
  @discardableResult
  public mutating func restore(persisted total: Int) -> Increment? {
    adoptBaseline(total, by: .persisted)
  }

  /// A total above the displayed one becomes the baseline; the live delta restarts from it.
  private mutating func adoptBaseline(_ total: Int, by source: Source) -> Increment? {
    guard total > displayed else { return nil }
    baseline = total
    liveAtBaseline = liveLatest
    liveCarried = 0
    return raise(to: total, by: source)
  }

  /// A new day: every count starts again from zero (the only time the total goes down).
  public mutating func rollOver() {
    self = StepReconciler()
  }

  private mutating func raise(to candidate: Int, by source: Source) -> Increment? {
    guard candidate > displayed else { return nil }
    let steps = candidate - displayed
    displayed = candidate
    stepsBySource[source, default: 0] += steps
    return Increment(steps: steps, source: source, displayed: displayed)
  }
}
