import Foundation
import MotusData
import MotusFeatures
import MotusTestSupport
import XCTest

final class FeatureExtractorTests: XCTestCase {
  /// Features of one window of `columns` (named by `names`), keyed by feature name.
  private func features(
    _ columns: [[Float]], names: [String], rate: Double, vectors: [[String]] = [],
    gravity: [String]? = nil, edges: [Double]? = nil
  ) throws -> [String: Float] {
    let n = columns[0].count
    let spec = FeatureSpec(
      recipes: names.map { ChannelRecipe.copy($0) }, channels: names, vectors: vectors,
      gravity: gravity, sampleRateHz: rate, windowLength: n, hopLength: n,
      bandEdgesHz: edges ?? FeatureSpec.defaultBandEdges(sampleRateHz: rate))
    var extractor = try FeatureExtractor(spec: spec)
    let row = extractor.extract(columns: columns, start: 0)
    return Dictionary(uniqueKeysWithValues: zip(extractor.featureNames, row))
  }

  func testStatistics_HandCheckedOnOneToFour() throws {
    let f = try features([[4, 1, 3, 2]], names: ["x"], rate: 1)
    // sorted 1 2 3 4; NumPy linear percentiles at q * 3.
    let expected: [String: Float] = [
      "mean": 2.5, "std": Float(1.25).squareRoot(), "min": 1, "max": 4, "p10": 1.3, "p25": 1.75,
      "median": 2.5, "p75": 3.25, "p90": 3.7, "iqr": 1.5, "rms": Float(7.5).squareRoot(),
      // |x - 2.5| = 1.5 1.5 0.5 0.5 -> median 1.
      "mad": 1,
      // Symmetric: no skew; m4 / m2^2 - 3 = 2.5625 / 1.5625 - 3.
      "skewness": 0, "kurtosis": -1.36,
      // d = 1.5 -1.5 0.5 -0.5: three sign changes in 4 s.
      "mean_crossing_rate": 0.75,
    ]
    for (name, value) in expected {
      XCTAssertEqual(f["x:\(name)"] ?? .nan, value, accuracy: 1e-6, name)
    }
  }

  func testStatistics_SkewnessSignAndConstantWindow() throws {
    let skewed = try features([[0, 0, 0, 0, 0, 0, 0, 10]], names: ["x"], rate: 1)
    // m2 = 10.9375, m3 = 8 * ... : positive; exact value from the population formula.
    let x: [Double] = [0, 0, 0, 0, 0, 0, 0, 10]
    let mean = 1.25
    let m2 = x.map { pow($0 - mean, 2) }.reduce(0, +) / 8
    let m3 = x.map { pow($0 - mean, 3) }.reduce(0, +) / 8
    XCTAssertEqual(Double(skewed["x:skewness"] ?? .nan), m3 / pow(m2, 1.5), accuracy: 1e-6)
    let constant = try features([[Float](repeating: 3, count: 16)], names: ["x"], rate: 8)
    for name in [
      "std", "skewness", "kurtosis", "mad", "iqr", "acf_peak", "acf_lag",
      "dominant_hz", "dominant_share", "centroid_hz", "entropy", "mean_crossing_rate",
    ] {
      XCTAssertEqual(constant["x:\(name)"], 0, name)
    }
    XCTAssertEqual(constant["x:mean"], 3)
    XCTAssertEqual(constant["x:rms"], 3)
  }

  func testSpectrumAndACF_PureToneAtBinCentre() throws {
    // Period 16 samples at 50 Hz: 3.125 Hz, exactly bin 8 of 128. A periodic Hann window
    // spreads it over bins 7, 8, 9 with powers 1/4 : 1 : 1/4.
    // Half-sample phase: no sample sits on a zero crossing.
    let tone = (0..<128).map { Float(sin(2 * Double.pi * (Double($0) + 0.5) / 16)) }
    let f = try features([tone], names: ["x"], rate: 50)
    XCTAssertEqual(f["x:dominant_hz"] ?? .nan, 3.125, accuracy: 1e-6)
    XCTAssertEqual(f["x:dominant_share"] ?? .nan, 2.0 / 3, accuracy: 1e-5)
    XCTAssertEqual(f["x:centroid_hz"] ?? .nan, 3.125, accuracy: 1e-4)
    let p: [Double] = [1.0 / 6, 2.0 / 3, 1.0 / 6]
    let entropy = -p.map { $0 * log($0) }.reduce(0, +) / log(65)
    XCTAssertEqual(Double(f["x:entropy"] ?? .nan), entropy, accuracy: 1e-5)
    // Bin 7 (2.734 Hz) is in [2, 3); bins 8 and 9 (3.125, 3.516 Hz) in [3, 5).
    let b23 = f["x:band_2-3Hz"] ?? .nan, b35 = f["x:band_3-5Hz"] ?? .nan
    XCTAssertEqual(b35 / b23, 5, accuracy: 1e-3)
    // |X[8]| = n/2 for a unit sine, halved by the window; |X[9]| = n/8. P = |X|^2 / n.
    let amplitude8 = 128.0 / 4
    XCTAssertEqual(Double(b35), (amplitude8 * amplitude8 * (1 + 0.25)) / 128, accuracy: 1e-3)
    XCTAssertEqual(f["x:band_0-0.5Hz"] ?? .nan, 0, accuracy: 1e-6)
    // ACF peaks at one period: 16 samples = 0.32 s, height (128 - 16) / 128.
    XCTAssertEqual(f["x:acf_lag"] ?? .nan, 0.32, accuracy: 1e-6)
    XCTAssertEqual(f["x:acf_peak"] ?? .nan, 112.0 / 128, accuracy: 1e-4)
    // Zeros at t = 7.5, 15.5, ..., 119.5: 15 crossings in 2.56 s.
    XCTAssertEqual(f["x:mean_crossing_rate"] ?? .nan, 15 / 2.56, accuracy: 1e-5)
  }

  func testBands_HalfOpenWithClosedLastBand() throws {
    // cos(pi t) at 8 Hz, n = 8: windowed, X[4] = sum w = 4 and the Hann leakage X[3] = -2, so
    // P[4] = 16 / 8 = 2 (4 Hz, Nyquist) and P[3] = 4 / 8 = 0.5 (3 Hz); other bins are 0.
    let alternating: [Float] = [1, -1, 1, -1, 1, -1, 1, -1]
    let f = try features([alternating], names: ["x"], rate: 8, edges: [0, 2, 3, 4])
    XCTAssertEqual(f["x:band_0-2Hz"] ?? .nan, 0, accuracy: 1e-6)
    XCTAssertEqual(f["x:band_2-3Hz"] ?? .nan, 0, accuracy: 1e-6)
    // [3, 4] is the last band, closed: it takes 3 Hz and the Nyquist bin.
    XCTAssertEqual(f["x:band_3-4Hz"] ?? .nan, 2.5, accuracy: 1e-5)
    XCTAssertEqual(f["x:dominant_hz"] ?? .nan, 4)
    XCTAssertEqual(f["x:dominant_share"] ?? .nan, 0.8, accuracy: 1e-6)
    // Edges below Nyquist drop the bins above the last edge.
    let g = try features([alternating], names: ["x"], rate: 8, edges: [0, 2, 3.5])
    XCTAssertEqual(g["x:band_2-3.5Hz"] ?? .nan, 0.5, accuracy: 1e-6)
  }

  func testVectors_CorrelationsAndGravityAngle() throws {
    let t = (0..<8).map(Float.init)
    let f = try features(
      [
        t, t.map { 2 * $0 + 1 }, t.map { -$0 }, [Float](repeating: 0, count: 8),
        [Float](repeating: 0, count: 8), [Float](repeating: 1, count: 8),
      ],
      names: ["v.x", "v.y", "v.z", "g.x", "g.y", "g.z"], rate: 8,
      vectors: [["v.x", "v.y", "v.z"], ["g.x", "g.y", "g.z"]], gravity: ["g.x", "g.y", "g.z"])
    XCTAssertEqual(f["v:corr_xy"] ?? .nan, 1, accuracy: 1e-6)
    XCTAssertEqual(f["v:corr_xz"] ?? .nan, -1, accuracy: 1e-6)
    XCTAssertEqual(f["v:corr_yz"] ?? .nan, -1, accuracy: 1e-6)
    // A constant axis has std 0: correlation 0.
    XCTAssertEqual(f["g:corr_xy"], 0)
    XCTAssertNil(f["g:gravity_angle"], "gravity gets no angle to itself")
    // v(t) = (t, 2t + 1, -t), g = (0, 0, 1): angle acos(-t / |v|), t = 0 gives pi/2.
    let expected =
      (0..<8).map { i -> Double in
        let x = Double(i), y = 2 * x + 1, z = -x
        return acos(z / (x * x + y * y + z * z).squareRoot())
      }.reduce(0, +) / 8
    XCTAssertEqual(Double(f["v:gravity_angle"] ?? .nan), expected, accuracy: 1e-6)
  }

  func testExtract_MatchesPlainReferenceOnRandomWindows() throws {
    var state: UInt64 = 42
    func next() -> Float {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Float(Double(state >> 11) / Double(1 << 53) * 2 - 1)
    }
    for (n, rate) in [
      (128, 50.0), (38, 15.0), (100, 20.0), (5, 10.0), (9, 10.0), (16, 40.0), (17, 8.0),
    ] {
      let names = ["a.x", "a.y", "a.z", "gravity.x", "gravity.y", "gravity.z"]
      let length = 3 * n
      // A tone plus noise, so the ACF has interior peaks.
      let columns = names.indices.map { c in
        (0..<length).map { t in
          Float(sin(Double(t) * 0.4 * Double(c + 1))) + 0.3 * next() + (c >= 3 ? 1 : 0)
        }
      }
      let recipes = names.map { ChannelRecipe.copy($0) }
      let spec = FeatureSpec.standard(
        recipes: recipes, channels: names, sampleRateHz: rate, windowLength: n, hopLength: n / 2)
      var extractor = try FeatureExtractor(spec: spec)
      for start in [0, n / 2, 2 * n] {
        let fast = extractor.extract(columns: columns, start: start)
        let plain = FeatureExtractor.referenceFeatures(spec: spec, columns: columns, start: start)
        XCTAssertEqual(fast.count, plain.count)
        for (i, name) in extractor.featureNames.enumerated() {
          XCTAssertEqual(
            Double(fast[i]), plain[i], accuracy: 1e-4 * max(1, abs(plain[i])),
            "n \(n) start \(start) \(name)")
        }
      }
    }
  }

  func testExtract_CopiesDoNotShareScratch() throws {
    let names = ["x"]
    let a = (0..<64).map { Float(sin(Double($0) * 0.3)) }
    let b = (0..<64).map { Float(cos(Double($0) * 0.7)) * 2 }
    let spec = FeatureSpec.standard(
      recipes: [.copy("x")], channels: names, sampleRateHz: 10, windowLength: 64, hopLength: 32)
    var first = try FeatureExtractor(spec: spec)
    var second = first
    let fromA = first.extract(columns: [a], start: 0)
    _ = second.extract(columns: [b], start: 0)
    XCTAssertEqual(first.extract(columns: [a], start: 0), fromA)
  }

  func testInit_RejectsInvalidSpec() {
    let spec = FeatureSpec(
      recipes: [.copy("x")], channels: ["x"], sampleRateHz: 10, windowLength: 0, hopLength: 1,
      bandEdgesHz: [0, 5])
    XCTAssertThrowsError(try FeatureExtractor(spec: spec)) { error in
      XCTAssertEqual(error as? FeatureSpecError, .windowNotPositive(0))
    }
  }
}
