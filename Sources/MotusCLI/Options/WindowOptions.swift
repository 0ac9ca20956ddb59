// Flags that place windows and choose band edges: `--window`, `--hop`, `--min-purity`, `--bands`.

import ArgumentParser
import Foundation
import Motus

/// A length typed as seconds (`2.56s`) or samples (`128`).
enum WindowSpan: ExpressibleByArgument, Equatable, CustomStringConvertible {
  case seconds(Double)
  case samples(Int)

  init?(argument: String) {
    let text = argument.trimmingCharacters(in: .whitespaces)
    if text.hasSuffix("s") {
      guard let value = Double(text.dropLast()), value.isFinite else { return nil }
      self = .seconds(value)
    } else {
      guard let value = Int(text) else { return nil }
      self = .samples(value)
    }
  }

  var description: String {
    switch self {
    case .seconds(let s): "\(s)s"
    case .samples(let n): "\(n)"
    }
  }

  var defaultValueDescription: String { description }

  var isPositive: Bool {
    switch self {
    case .seconds(let s): s > 0
    case .samples(let n): n > 0
    }
  }

  /// Samples at `rateHz`, rounded to the nearest.
  func samples(atRate rateHz: Double) -> Int {
    switch self {
    case .seconds(let s): Int((s * rateHz).rounded())
    case .samples(let n): n
    }
  }
}

struct WindowOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Window length: seconds with an 's' suffix (2.56s) or samples (128).",
      valueName: "length"))
  var window: WindowSpan = .seconds(2.56)

  @Option(
    help: ArgumentHelp(
      "Hop between window starts, as seconds (1.28s) or samples (64).",
      discussion: "Default: half the window (50% overlap).", valueName: "length"))
  var hop: WindowSpan?

  @Option(
    help: ArgumentHelp(
      "Drop windows whose majority label covers less than this fraction (0...1).",
      valueName: "fraction"))
  var minPurity: Float = 0

  @Option(
    help: ArgumentHelp(
      "Band edges in Hz, comma-separated and ascending, up to the Nyquist frequency.",
      discussion: "Default: 0,0.5,1,2,3,5,8,12,16,20,25 below Nyquist, then Nyquist. Bins "
        + "with lo <= f < hi form a band; the last band also takes f == hi.",
      valueName: "hz,..."))
  var bands: String?

  func validate() throws {
    guard window.isPositive else {
      throw ValidationError("'--window' must be positive, got \(window). Example: --window 2.56s")
    }
    if let hop, !hop.isPositive {
      throw ValidationError("'--hop' must be positive, got \(hop). Example: --hop 1.28s")
    }
    guard (0...1).contains(minPurity) else {
      throw ValidationError("'--min-purity' must be in 0...1, got \(minPurity).")
    }
    _ = try bandEdges()
  }

  /// The `--bands` list, or nil for the default edges.
  func bandEdges() throws -> [Double]? {
    guard let bands else { return nil }
    let items = bands.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    var edges: [Double] = []
    for item in items {
      guard let edge = Double(item), edge.isFinite else {
        throw ValidationError("'--bands' item '\(item)' is not a number of Hz. Example: 0,1,3,8")
      }
      edges.append(edge)
    }
    return edges
  }

  /// The standard spec over every loaded channel, at the data's sampling rate.
  ///
  /// - Throws: `ToolError` when recordings differ in rate or the window does not fit.
  func featureSpec(for result: LoadResult) throws -> FeatureSpec {
    let rates = result.dataset.recordings.map(\.sampleRateHz).sorted()
    guard !rates.isEmpty else {
      throw ToolError("no recordings were loaded.", hint: "check the files and the filters.")
    }
    let rate = FeatureSpec.nominalRate(rates[rates.count / 2])
    if let low = rates.first, let high = rates.last, high - low > 0.02 * rate {
      throw ToolError(
        "recordings are sampled at rates from \(low) to \(high) Hz; windows need one rate.",
        hint: "resample with --sample-rate \(Int(rate.rounded())).")
    }
    let windowLength = window.samples(atRate: rate)
    let hopLength = hop?.samples(atRate: rate) ?? max(1, windowLength / 2)
    var spec = FeatureSpec.standard(
      recipes: result.recipes, channels: result.recipes.map(\.name), sampleRateHz: rate,
      windowLength: windowLength, hopLength: hopLength)
    if let edges = try bandEdges() { spec.bandEdgesHz = edges }
    do {
      try spec.validate()
    } catch let error as FeatureSpecError {
      throw ToolError(
        "with --window \(window) (\(windowLength) samples at \(rate) Hz), --hop "
          + "\(hop?.description ?? "(half the window)") (\(hopLength) samples): \(error)")
    }
    return spec
  }
}
