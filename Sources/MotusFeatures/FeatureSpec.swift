// The complete, serialisable description of a feature vector. A model file stores one, and
// `FeatureExtractor(spec:)` rebuilds exactly the features the model was trained on.

import MotusData

/// Everything needed to turn raw samples into one feature vector per window.
///
/// Feature names are stable strings such as `userAcceleration.x:std` and
/// `|rotationRate|:band_2-3Hz`; `featureNames` lists them in vector order.
public struct FeatureSpec: Codable, Sendable, Equatable {
  /// How the channels are computed from raw input columns (also run by streaming).
  public var recipes: [ChannelRecipe]
  /// Recipe outputs that get per-channel features, in feature-vector order.
  public var channels: [String]
  /// Three-axis groups (e.g. `["userAcceleration.x", "userAcceleration.y", "userAcceleration.z"]`)
  /// that get axis correlations and, when `gravity` is set, the angle to gravity.
  public var vectors: [[String]]
  /// The gravity axes, when the data has them.
  public var gravity: [String]?
  /// The rate windows are sampled at; input at another rate is resampled to it.
  public var sampleRateHz: Double
  /// Window and hop, in samples at `sampleRateHz`.
  public var windowLength: Int
  public var hopLength: Int
  /// Per-channel time-domain statistics, in output order.
  public var statistics: [Statistic]
  /// Per-channel spectral features, in output order.
  public var spectral: [SpectralFeature]
  /// Ascending band edges in Hz; `m + 1` edges give `m` band powers per channel.
  public var bandEdgesHz: [Double]
  /// Added to each band power before `log_band` takes its log10, in the band power's unit,
  /// (channel unit)^2. Default `defaultLogPowerFloor`; must be finite and > 0 when `spectral`
  /// holds `.logBandPowers`, unused otherwise.
  public var logPowerFloor: Double
  /// Three-axis vectors split, window by window, into two orientation-free channels:
  /// `<name>.vertical`, the component along the window's mean gravity direction, and
  /// `<name>.horizontal`, the magnitude of the rest. Each gets every per-channel feature. The
  /// direction is the window mean of `gravity` when set (and the vector is not gravity),
  /// else of the vector itself (raw acceleration averages to gravity). Default none.
  public var decomposedVectors: [[String]]
  /// Summaries of recent windows' features (`FeatureContext`), after every per-window
  /// feature; nil for none (the default).
  public var context: FeatureContext?

  public init(
    recipes: [ChannelRecipe], channels: [String], vectors: [[String]] = [],
    gravity: [String]? = nil, sampleRateHz: Double, windowLength: Int, hopLength: Int,
    statistics: [Statistic] = Statistic.defaults,
    spectral: [SpectralFeature] = SpectralFeature.defaults,
    bandEdgesHz: [Double], logPowerFloor: Double = FeatureSpec.defaultLogPowerFloor,
    decomposedVectors: [[String]] = [], context: FeatureContext? = nil
  ) {
    self.recipes = recipes
    self.channels = channels
    self.vectors = vectors
    self.gravity = gravity
    self.sampleRateHz = sampleRateHz
    self.windowLength = windowLength
    self.hopLength = hopLength
    self.statistics = statistics
    self.spectral = spectral
    self.bandEdgesHz = bandEdgesHz
    self.logPowerFloor = logPowerFloor
    self.decomposedVectors = decomposedVectors
    self.context = context
  }
}

/// A per-channel time-domain statistic; the raw value is the name's suffix.
public enum Statistic: String, Codable, Sendable, CaseIterable {
  case mean, std, min, max, p10, p25, median, p75, p90, iqr, rms, mad, skewness, kurtosis
  /// Crossings of the window mean per second.
  case meanCrossingRate = "mean_crossing_rate"
  /// Height of the highest normalised autocorrelation peak, and its lag in seconds.
  case autocorrelationPeak = "acf_peak"
  case autocorrelationLag = "acf_lag"

  /// The statistics `FeatureSpec.standard` and the CLI use by default: all of them.
  public static let defaults: [Statistic] = allCases
}

/// A per-channel frequency-domain feature (real FFT, Hann window, mean removed).
public enum SpectralFeature: String, Codable, Sendable, CaseIterable {
  /// One feature per band of `bandEdgesHz`, named `band_<lo>-<hi>Hz`.
  case bandPowers = "band"
  case dominantFrequency = "dominant_hz"
  /// The dominant bin's share of total power.
  case dominantShare = "dominant_share"
  case spectralCentroid = "centroid_hz"
  case spectralEntropy = "entropy"
  /// One feature per band of `bandEdgesHz`, named `log_band_<lo>-<hi>Hz`:
  /// log10(band power + `logPowerFloor`). A gain g on the channel adds 2 log10(g) (while the
  /// floor is negligible), and the log tames the band powers' heavy tails.
  case logBandPowers = "log_band"

  /// The default spectral features (not `logBandPowers`, so specs, references and model files
  /// made before it existed are unchanged).
  public static let defaults: [SpectralFeature] = [
    .bandPowers, .dominantFrequency, .dominantShare, .spectralCentroid, .spectralEntropy,
  ]

  /// Whether the feature expands to one value per band.
  public var isPerBand: Bool { self == .bandPowers || self == .logBandPowers }
}

// MARK: - Names, defaults, validation

extension FeatureSpec {
  /// The default `logPowerFloor`, (channel unit)^2. Band powers sum |X_k|^2 / n, so they grow
  /// with the window. For accelerations in g over 2.56 s at 50 Hz, a phone accelerometer's
  /// noise (100-300 ug/sqrt(Hz)) puts about 1e-7 to 1e-5 g^2 into one band, and a gyroscope's
  /// a like amount of (rad/s)^2; 1e-4 sits above both, so a quiet window reads about -4 on a
  /// noisy device and on a clean one alike instead of reading each device's noise floor.
  /// Walking puts 1e-2 to 1 g^2 into its bands, where the floor changes little.
  public static let defaultLogPowerFloor = 1e-4

  /// The default band edges in Hz, capped at the Nyquist frequency (which becomes the last edge).
  public static let defaultBandEdgesHz: [Double] = [0, 0.5, 1, 2, 3, 5, 8, 12, 16, 20, 25]

  /// `hz` rounded to 1 mHz when that moves it by less than one part in a million, so a rate
  /// measured from timestamps (14.9999999993 Hz) becomes the nominal one (15 Hz) and band
  /// names stay readable; other rates are returned unchanged.
  public static func nominalRate(_ hz: Double) -> Double {
    let rounded = (hz * 1000).rounded() / 1000
    return abs(rounded - hz) <= 1e-6 * abs(hz) ? rounded : hz
  }

  /// `defaultBandEdgesHz` below `sampleRateHz / 2`, then the Nyquist frequency itself.
  public static func defaultBandEdges(sampleRateHz: Double) -> [Double] {
    let nyquist = sampleRateHz / 2
    return defaultBandEdgesHz.filter { $0 < nyquist } + [nyquist]
  }

  /// The spec most commands use: every statistic and spectral feature for `channels`, axis
  /// correlations for each `name.x/.y/.z` triple among `channels`, the angle to gravity when
  /// the recipes produce `gravity.x/y/z`, and the default band edges.
  ///
  /// - Parameters:
  ///   - recipes: Every channel the extractor receives, in column order.
  ///   - channels: The recipe outputs that get per-channel features (often all of them).
  ///   - sampleRateHz: The rate the windows are sampled at.
  ///   - windowLength, hopLength: In samples.
  public static func standard(
    recipes: [ChannelRecipe], channels: [String], sampleRateHz: Double, windowLength: Int,
    hopLength: Int
  ) -> FeatureSpec {
    let names = Set(recipes.map(\.name))
    var vectors: [[String]] = []
    for channel in channels where channel.hasSuffix(".x") {
      let prefix = String(channel.dropLast(2))
      let axes = ["x", "y", "z"].map { "\(prefix).\($0)" }
      if axes.allSatisfy(channels.contains) { vectors.append(axes) }
    }
    let gravityAxes = ["gravity.x", "gravity.y", "gravity.z"]
    let gravity = gravityAxes.allSatisfy(names.contains) ? gravityAxes : nil
    return FeatureSpec(
      recipes: recipes, channels: channels, vectors: vectors, gravity: gravity,
      sampleRateHz: sampleRateHz, windowLength: windowLength, hopLength: hopLength,
      bandEdgesHz: defaultBandEdges(sampleRateHz: sampleRateHz))
  }

  /// The share of a window that is new at each hop, `hopLength / windowLength` in (0, 1]: how
  /// much one window's answer should count as evidence in a filter over overlapping windows
  /// (`PredictionSmoother`), since every sample is seen by `windowLength / hopLength` windows.
  public var evidenceWeight: Float {
    guard windowLength > 0 else { return 1 }
    return Float(min(max(Double(hopLength) / Double(windowLength), 1e-3), 1))
  }

  /// `userAcceleration` for `[userAcceleration.x, .y, .z]`.
  public static func vectorName(_ axes: [String]) -> String {
    guard let first = axes.first else { return "" }
    return first.hasSuffix(".x") ? String(first.dropLast(2)) : first
  }

  /// Whether `axes` gets a `gravity_angle` feature (never for gravity itself).
  package func hasGravityAngle(_ axes: [String]) -> Bool {
    guard let gravity else { return false }
    return axes != gravity
  }

  /// `band_<lo>-<hi>Hz`, with edges printed as the shortest decimal (`0.5`, `2`, `7.5`).
  public static func bandName(lo: Double, hi: Double) -> String {
    "band_\(formatHz(lo))-\(formatHz(hi))Hz"
  }

  /// `log_band_<lo>-<hi>Hz`, the `logBandPowers` name of the band `bandName` names.
  public static func logBandName(lo: Double, hi: Double) -> String {
    "log_" + bandName(lo: lo, hi: hi)
  }

  static func formatHz(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
    return "\(value)"
  }

  /// Feature names in output order: for each channel its statistics then its spectral
  /// features (`band` and `log_band` expanded in edge order); then for each vector `corr_xy`,
  /// `corr_xz`, `corr_yz` and, when gravity is set and the vector is not gravity, `gravity_angle`;
  /// then the per-channel features of each decomposed vector's vertical and horizontal parts;
  /// then the context's summaries (`FeatureContext.featureNames`).
  public var featureNames: [String] { windowFeatureNames + (context?.featureNames ?? []) }

  /// The features of one window on its own: `featureNames` without the context's.
  public var windowFeatureNames: [String] {
    var names: [String] = []
    for channel in channels { names += perChannelNames(channel) }
    for axes in vectors {
      let name = FeatureSpec.vectorName(axes)
      for pair in ["xy", "xz", "yz"] { names.append("\(name):corr_\(pair)") }
      if hasGravityAngle(axes) { names.append("\(name):gravity_angle") }
    }
    for channel in decomposedChannelNames { names += perChannelNames(channel) }
    return names
  }

  /// The lags acf_peak and acf_lag search, in samples: from 0.2 s (at least 1) to half the
  /// window.
  public var autocorrelationLags: (first: Int, last: Int) {
    (max(1, Int((0.2 * sampleRateHz).rounded())), windowLength / 2)
  }

  /// The spectrum bins (0...n/2, bin k at k * rate / n Hz) each band of `bandEdgesHz` sums:
  /// lo <= f < hi, the last band also taking f == hi; an empty range for a band with no bin.
  ///
  /// - Complexity: O(*bands* log *n*): bin frequencies grow with the bin, so each edge's first
  ///   bin is found by bisection (a scan of every bin per band cost bands x n, seconds for a
  ///   65,536-sample window with thousands of bands).
  public var bandBinRanges: [Range<Int>] {
    let edges = bandEdgesHz, n = windowLength, binCount = windowLength / 2 + 1
    guard edges.count >= 2 else { return [] }
    // The first bin whose frequency `isPast` holds for (`binCount` when none); `isPast` is
    // false up to some frequency and true from there on.
    func firstBin(_ isPast: (Double) -> Bool) -> Int {
      var low = 0, high = binCount
      while low < high {
        let middle = (low + high) / 2
        if isPast(Double(middle) * sampleRateHz / Double(n)) {
          high = middle
        } else {
          low = middle + 1
        }
      }
      return low
    }
    return (0..<(edges.count - 1)).map { b in
      let (lo, hi) = (edges[b], edges[b + 1])
      let first = firstBin { $0 >= lo }
      // lo <= f < hi; the last band also takes f == hi.
      let end = b == edges.count - 2 ? firstBin { $0 > hi } : firstBin { $0 >= hi }
      return first < end ? first..<end : 0..<0
    }
  }

  /// `<name>.vertical`, `<name>.horizontal` for each of `decomposedVectors`, in order.
  public var decomposedChannelNames: [String] {
    decomposedVectors.flatMap { axes -> [String] in
      let name = FeatureSpec.vectorName(axes)
      return ["\(name).vertical", "\(name).horizontal"]
    }
  }

  /// One channel's statistics then its spectral features (bands expanded in edge order).
  func perChannelNames(_ channel: String) -> [String] {
    var names: [String] = []
    for statistic in statistics { names.append("\(channel):\(statistic.rawValue)") }
    for feature in spectral {
      if feature.isPerBand {
        for b in 0..<max(bandEdgesHz.count - 1, 0) {
          let (lo, hi) = (bandEdgesHz[b], bandEdgesHz[b + 1])
          let band =
            feature == .bandPowers
            ? FeatureSpec.bandName(lo: lo, hi: hi) : FeatureSpec.logBandName(lo: lo, hi: hi)
          names.append("\(channel):\(band)")
        }
      } else {
        names.append("\(channel):\(feature.rawValue)")
      }
    }
    return names
  }

  /// Checks every field; the error names the field and gives a hint.
  public func validate() throws {
    guard windowLength > 0 else { throw FeatureSpecError.windowNotPositive(windowLength) }
    try validateLimits()
    guard (1...windowLength).contains(hopLength) else {
      throw FeatureSpecError.hopOutOfRange(hop: hopLength, window: windowLength)
    }
    guard sampleRateHz > 0, sampleRateHz.isFinite else {
      throw FeatureSpecError.sampleRateNotPositive(sampleRateHz)
    }
    let nyquist = sampleRateHz / 2
    if spectral.contains(.logBandPowers) {
      guard logPowerFloor.isFinite, logPowerFloor > 0 else {
        throw FeatureSpecError.logPowerFloorNotPositive(logPowerFloor)
      }
    }
    if spectral.contains(where: \.isPerBand) {
      guard bandEdgesHz.count >= 2 else { throw FeatureSpecError.tooFewBandEdges(bandEdgesHz) }
      for i in bandEdgesHz.indices {
        let edge = bandEdgesHz[i]
        guard edge.isFinite, edge >= 0 else {
          throw FeatureSpecError.bandEdgesNotAscending(bandEdgesHz)
        }
        if i > 0, edge <= bandEdgesHz[i - 1] {
          throw FeatureSpecError.bandEdgesNotAscending(bandEdgesHz)
        }
        // A relative slack so a rounded Nyquist edge (e.g. 7.5 at 15 Hz) is accepted.
        if edge > nyquist * (1 + 1e-9) {
          throw FeatureSpecError.bandEdgeAboveNyquist(edge: edge, nyquist: nyquist)
        }
      }
    }
    let available = recipes.map(\.name)
    let known = Set(available)
    for channel in channels + vectors.flatMap({ $0 }) + (gravity ?? [])
    where !known.contains(channel) {
      throw FeatureSpecError.unknownChannel(channel, available: available)
    }
    for axes in vectors + decomposedVectors where axes.count != 3 {
      throw FeatureSpecError.vectorNotThreeAxes(axes)
    }
    for channel in decomposedVectors.flatMap({ $0 }) where !known.contains(channel) {
      throw FeatureSpecError.unknownChannel(channel, available: available)
    }
    if let gravity, gravity.count != 3 { throw FeatureSpecError.vectorNotThreeAxes(gravity) }
    if Set(featureNames).count != featureNames.count {
      throw FeatureSpecError.duplicateFeatureNames
    }
    if let context { try validate(context) }
  }
}

extension FeatureSpec {
  /// A context's window count, statistics and features: each one of this spec's own.
  func validate(_ context: FeatureContext) throws {
    guard (2...FeatureContext.maximumWindowCount).contains(context.windowCount) else {
      throw FeatureSpecError.invalidContext(
        "\(context.windowCount) windows; it summarises 2 to \(FeatureContext.maximumWindowCount)")
    }
    guard !context.features.isEmpty, !context.statistics.isEmpty else {
      throw FeatureSpecError.invalidContext("it names no feature or no statistic")
    }
    guard Set(context.statistics).count == context.statistics.count else {
      throw FeatureSpecError.invalidContext("a statistic is named twice")
    }
    let own = Set(windowFeatureNames)
    for name in context.features where !own.contains(name) {
      throw FeatureSpecError.invalidContext("'\(Excerpt.text(name))' is not a feature of the window")
    }
  }
}

// MARK: - Coding

extension FeatureSpec {
  private enum CodingKeys: String, CodingKey {
    case recipes, channels, vectors, gravity, sampleRateHz, windowLength, hopLength
    case statistics, spectral, bandEdgesHz, logPowerFloor, decomposedVectors, context
  }

  /// Decodes specs written before `logPowerFloor` existed with the default floor.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    recipes = try c.decode([ChannelRecipe].self, forKey: .recipes)
    channels = try c.decode([String].self, forKey: .channels)
    vectors = try c.decode([[String]].self, forKey: .vectors)
    gravity = try c.decodeIfPresent([String].self, forKey: .gravity)
    sampleRateHz = try c.decode(Double.self, forKey: .sampleRateHz)
    windowLength = try c.decode(Int.self, forKey: .windowLength)
    hopLength = try c.decode(Int.self, forKey: .hopLength)
    statistics = try c.decode([Statistic].self, forKey: .statistics)
    spectral = try c.decode([SpectralFeature].self, forKey: .spectral)
    bandEdgesHz = try c.decode([Double].self, forKey: .bandEdgesHz)
    logPowerFloor =
      try c.decodeIfPresent(Double.self, forKey: .logPowerFloor)
      ?? FeatureSpec.defaultLogPowerFloor
    decomposedVectors =
      try c.decodeIfPresent([[String]].self, forKey: .decomposedVectors) ?? []
    context = try c.decodeIfPresent(FeatureContext.self, forKey: .context)
  }

  /// Writes `logPowerFloor` only when log bands use it or it is not the default, so specs
  /// without log bands encode to the same bytes as before the field existed.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(recipes, forKey: .recipes)
    try c.encode(channels, forKey: .channels)
    try c.encode(vectors, forKey: .vectors)
    try c.encodeIfPresent(gravity, forKey: .gravity)
    try c.encode(sampleRateHz, forKey: .sampleRateHz)
    try c.encode(windowLength, forKey: .windowLength)
    try c.encode(hopLength, forKey: .hopLength)
    try c.encode(statistics, forKey: .statistics)
    try c.encode(spectral, forKey: .spectral)
    try c.encode(bandEdgesHz, forKey: .bandEdgesHz)
    if spectral.contains(.logBandPowers) || logPowerFloor != FeatureSpec.defaultLogPowerFloor {
      try c.encode(logPowerFloor, forKey: .logPowerFloor)
    }
    if !decomposedVectors.isEmpty { try c.encode(decomposedVectors, forKey: .decomposedVectors) }
    try c.encodeIfPresent(context, forKey: .context)
  }
}
