// Flags that place windows and choose features: `--window`, `--hop`, `--min-purity`, `--bands`,
// `--statistics`, `--spectral`, `--log-power-floor`, `--context`. Shared by features, train,
// cross-validate and bench features.

import ArgumentParser
import Foundation
import Motus

extension WindowSpan: ExpressibleByArgument {
  public init?(argument: String) {
    let text = argument.trimmingCharacters(in: .whitespaces)
    if text.hasSuffix("s") {
      guard let value = Double(text.dropLast()), value.isFinite else { return nil }
      self = .seconds(value)
    } else {
      guard let value = Int(text) else { return nil }
      self = .samples(value)
    }
  }

  public var defaultValueDescription: String { description }

  /// Longest span typed in seconds: an hour, far beyond an activity window.
  static let maximumSeconds = 3600.0

  /// Why the span is out of bounds, or nil.
  func problem(flag: String) -> String? {
    switch self {
    case .seconds(let s) where !(s > 0):
      return "'\(flag)' must be positive, got \(self). Example: \(flag) 2.56s"
    case .samples(let n) where n < 1:
      return "'\(flag)' must be positive, got \(self). Example: \(flag) 2.56s"
    case .seconds(let s) where s > Self.maximumSeconds:
      return "'\(flag)' must be at most \(Int(Self.maximumSeconds))s (an hour; activity windows "
        + "span seconds), got \(self)."
    case .samples(let n) where n > FeatureSpec.maximumWindowLength:
      return "'\(flag)' must be at most \(FeatureSpec.maximumWindowLength) samples (over 10 "
        + "minutes at 100 Hz; activity windows span seconds), got \(self)."
    default:
      return nil
    }
  }
}

struct WindowOptions: ParsableArguments {
  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Window length: seconds with an 's' suffix (2.56s) or samples (128).",
      valueName: "length"))
  var window: WindowSpan = FeatureChoice.defaultWindow

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Hop between window starts, as seconds (1.28s) or samples (64).",
      discussion: "Default: a third of the window.", valueName: "length"))
  var hop: WindowSpan?

  @OptionGroup var purity: PurityOptions
  var minimumPurity: Float { purity.minimumPurity }

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Band edges in Hz, comma-separated and ascending, up to the Nyquist frequency.",
      discussion: "Default: 0,0.5,1,2,3,5,8,12,16,20,25 below Nyquist, then Nyquist. Bins "
        + "with lo <= f < hi form a band; the last band also takes f == hi.",
      valueName: "hz,..."))
  var bands: String?

  @Option(
    help: ArgumentHelp(
      "Per-channel statistics, comma-separated, in output order; 'all' or 'none'.",
      discussion: "Default: all of them: "
        + Statistic.allCases.map(\.rawValue).joined(separator: ",")
        + ". Example: --statistics mean,std,p10,median,p90",
      valueName: "names"))
  var statistics: String?

  @Option(
    help: ArgumentHelp(
      "Per-channel spectral features, comma-separated, in output order; 'all' or 'none'.",
      discussion: "Default: "
        + FeatureChoice.defaultSpectral.map(\.rawValue).joined(separator: ",")
        + ". 'log_band' is log10(band power + --log-power-floor) per band, which a device's "
        + "gain only shifts. Examples: --spectral band,log_band  --spectral log_band,entropy",
      valueName: "names"))
  var spectral: String?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Floor added to band powers before log_band takes log10, in (channel unit)^2.",
      discussion: "Default: \(FeatureSpec.defaultLogPowerFloor), above phone sensor noise so "
        + "quiet windows read alike on every device. Example: --log-power-floor 1e-3",
      valueName: "power"))
  var logPowerFloor: Double?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "How far back each window also looks: seconds (30s) or samples; 0 for only the window.",
      discussion: "The windows starting within this span before the current one (the current "
        + "one included) are summarised by the minimum, mean and maximum of each channel's std "
        + "and log band powers, so a car that stops at a light is not read as a still phone. "
        + "Near the start of a recording or stream the summaries cover the windows there are. "
        + "Default: "
        + (FeatureChoice.defaultContext.map { "\($0)" } ?? "0") + ".",
      valueName: "span"))
  var context: WindowSpan?

  @Flag(
    inversion: .prefixedNo,
    help: ArgumentHelp(
      "With --context, summarise each channel's log band powers too, not only its std "
        + "(default: \(FeatureChoice.defaultContextBands ? "on" : "off"))."))
  var contextBands = FeatureChoice.defaultContextBands

  func validate() throws {
    if let problem = window.problem(flag: "--window") { throw ValidationError(problem) }
    if let problem = hop?.problem(flag: "--hop") { throw ValidationError(problem) }
    if let context {
      // 0 (or 0s) turns the context off; anything else is a span like a window's.
      let isZero: Bool
      switch context {
      case .seconds(let s): isZero = s == 0
      case .samples(let n): isZero = n == 0
      }
      if !isZero, let problem = context.problem(flag: "--context") {
        throw ValidationError(problem)
      }
    }
    _ = try bandEdges()
    _ = try chosenStatistics()
    _ = try chosenSpectral()
    if let logPowerFloor, !(logPowerFloor.isFinite && logPowerFloor > 0) {
      throw ValidationError(
        "'--log-power-floor' must be finite and positive, got \(logPowerFloor). "
          + "HINT: e.g. --log-power-floor 1e-4, in (channel unit)^2.")
    }
    let spectralChosen = try chosenSpectral() ?? FeatureChoice.defaultSpectral
    if logPowerFloor != nil, !spectralChosen.contains(.logBandPowers) {
      throw ValidationError.appliesOnly("--log-power-floor", with: "log_band in --spectral")
    }
  }

  /// The `--statistics` list, or nil for the default.
  func chosenStatistics() throws -> [Statistic]? {
    try Self.parseNames(statistics, flag: "--statistics", all: Statistic.allCases)
  }

  /// The `--spectral` list, or nil for the default.
  func chosenSpectral() throws -> [SpectralFeature]? {
    try Self.parseNames(spectral, flag: "--spectral", all: SpectralFeature.allCases)
  }

  /// A comma-separated list of raw names; `all` gives every case, `none` an empty list.
  static func parseNames<Name: RawRepresentable<String> & CaseIterable & Equatable>(
    _ text: String?, flag: String, all: Name.AllCases
  ) throws -> [Name]? {
    guard let text else { return nil }
    let items = text.split(separator: ",", omittingEmptySubsequences: false)
      .map { $0.trimmingCharacters(in: .whitespaces) }
    let valid = all.map(\.rawValue).joined(separator: ", ")
    if items == ["all"] { return Array(all) }
    if items == ["none"] { return [] }
    var names: [Name] = []
    for item in items {
      guard let name = Name(rawValue: item) else {
        throw ValidationError(
          "'\(flag)': unknown name '\(Excerpt.text(item))'. HINT: choose among \(valid) "
            + "(comma-separated), or 'all' or 'none' alone.")
      }
      guard !names.contains(name) else {
        throw ValidationError(
          "'\(flag)': '\(Excerpt.text(item))' is listed twice. HINT: list each name once.")
      }
      names.append(name)
    }
    return names
  }

  /// Most `--bands` edges.
  static let maximumBandEdges = 1000

  /// The `--bands` list, or nil for the default edges.
  func bandEdges() throws -> [Double]? {
    guard let bands else { return nil }
    let items = bands.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    guard items.count <= Self.maximumBandEdges else {
      throw ValidationError(
        "'--bands' lists \(items.count) edges, more than \(Self.maximumBandEdges) (each band "
          + "adds a feature per channel). Example: --bands 0,1,3,8")
    }
    var edges: [Double] = []
    for item in items {
      guard let edge = Double(item), edge.isFinite else {
        throw ValidationError(
          "'--bands' item '\(Excerpt.text(item))' is not a number of Hz. Example: 0,1,3,8")
      }
      edges.append(edge)
    }
    guard edges.allSatisfy({ $0 >= 0 }), zip(edges, edges.dropFirst()).allSatisfy({ $0 < $1 })
    else {
      throw ValidationError(
        "'--bands' edges must be non-negative and strictly ascending, got "
          + "\(Excerpt.text(bands)). Example: 0,1,3,8")
    }
    return edges
  }

  /// The window and feature choices these flags make (defaults where a flag is absent).
  func featureChoice() throws -> FeatureChoice {
    var choice = FeatureChoice()
    choice.window = window
    choice.hop = hop
    choice.bandEdgesHz = try bandEdges()
    choice.statistics = try chosenStatistics()
    choice.spectral = try chosenSpectral()
    choice.logPowerFloor = logPowerFloor
    if let context { choice.context = context.isPositive ? context : nil }
    choice.contextBands = contextBands
    return choice
  }
}
