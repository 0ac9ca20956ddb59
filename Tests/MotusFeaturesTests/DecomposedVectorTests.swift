// Vertical and horizontal parts of a vector (`FeatureSpec.decomposedVectors`): names, values
// against the plain reference and by hand, independence from the device's orientation, and
// the coding of specs made before the field existed. Signals are synthetic.

import Foundation
import MotusData
import MotusFeatures
import MotusTestSupport
import XCTest

final class DecomposedVectorTests: XCTestCase {
  private let axes = ["acceleration.x", "acceleration.y", "acceleration.z"]

  private func spec(gravity: Bool = false, n: Int = 64) -> FeatureSpec {
    var names = axes
    if gravity { names += ["gravity.x", "gravity.y", "gravity.z"] }
    return FeatureSpec(
      recipes: names.map { ChannelRecipe.copy($0) }, channels: [],
      gravity: gravity ? ["gravity.x", "gravity.y", "gravity.z"] : nil, sampleRateHz: 15,
      windowLength: n, hopLength: n, spectral: SpectralFeature.allCases,
      bandEdgesHz: FeatureSpec.defaultBandEdges(sampleRateHz: 15), decomposedVectors: [axes])
  }

  /// Gravity along a tilted direction, a 2 Hz bounce along it and a 0.7 Hz sway across it,
  /// plus deterministic noise: shape [3][n].
  private func motion(_ n: Int, seed: UInt64 = 1) -> [[Float]] {
    var generator = SplitMix64(seed: seed)
    let up = [0.3, -0.8, -0.52].map { $0 / (0.09 + 0.64 + 0.2704).squareRoot() }
    let across = [0.0, 0.545, -0.838]
    return (0..<3).map { axis in
      (0..<n).map { t in
        let time = Double(t) / 15
        let bounce = 1 + 0.3 * sin(2 * .pi * 2 * time)
        let sway = 0.2 * sin(2 * .pi * 0.7 * time)
        return Float(up[axis] * bounce + across[axis] * sway + 0.02 * generator.gaussian())
      }
    }
  }

  private func rotated(_ columns: [[Float]], _ m: [Double]) -> [[Float]] {
    var out = columns
    for t in columns[0].indices {
      let v = (0..<3).map { Double(columns[$0][t]) }
      for r in 0..<3 { out[r][t] = Float(m[3 * r] * v[0] + m[3 * r + 1] * v[1] + m[3 * r + 2] * v[2]) }
    }
    return out
  }

  func testFeatureNames_AppendVerticalThenHorizontalChannels() {
    let s = spec()
    let names = s.featureNames
    let perChannel = names.count / 2
    XCTAssertEqual(names.count, 2 * perChannel)
    XCTAssertEqual(names.first, "acceleration.vertical:mean")
    XCTAssertEqual(names[perChannel], "acceleration.horizontal:mean")
    XCTAssertTrue(names.contains("acceleration.horizontal:log_band_0.5-1Hz"))
    XCTAssertEqual(s.decomposedChannelNames, ["acceleration.vertical", "acceleration.horizontal"])
  }

  func testValues_MatchReference() throws {
    for gravity in [false, true] {
      let s = spec(gravity: gravity)
      var columns = motion(64)
      if gravity { columns += [[Float](repeating: 0.1, count: 64), [-0.9, -0.9], [0.2]].map {
        [Float](repeating: $0[0], count: 64)
      } }
      var extractor = try FeatureExtractor(spec: s)
      let fast = extractor.extract(columns: columns, start: 0)
      let plain = FeatureExtractor.referenceFeatures(spec: s, columns: columns, start: 0)
      XCTAssertEqual(fast.count, plain.count)
      for (i, name) in s.featureNames.enumerated() {
        XCTAssertEqual(
          Double(fast[i]), plain[i], accuracy: 1e-3 * max(1, abs(plain[i])),
          "\(name), gravity \(gravity)")
      }
    }
  }

  func testValues_HandComputedForSwayAcrossGravity() throws {
    // Gravity -z and a sway along x of amplitude 0.1 g: vertical is 1 g throughout, horizontal
    // is |0.1 sin|, whose maximum over whole periods is 0.1.
    let n = 60
    let x = (0..<n).map { Float(0.1 * sin(2 * Double.pi * Double($0) / 15)) }
    let columns = [x, [Float](repeating: 0, count: n), [Float](repeating: -1, count: n)]
    var extractor = try FeatureExtractor(spec: spec(n: n))
    let row = extractor.extract(columns: columns, start: 0)
    let value = Dictionary(uniqueKeysWithValues: zip(extractor.featureNames, row))
    XCTAssertEqual(value["acceleration.vertical:mean"]!, 1, accuracy: 1e-6)
    XCTAssertEqual(value["acceleration.vertical:std"]!, 0, accuracy: 1e-6)
    XCTAssertEqual(value["acceleration.horizontal:max"]!, 0.1, accuracy: 1e-3)
    XCTAssertEqual(value["acceleration.horizontal:min"]!, 0, accuracy: 1e-6)
  }

  func testValues_DoNotChangeWhenTheDeviceIsRotated() throws {
    let s = spec()
    let columns = motion(64)
    var extractor = try FeatureExtractor(spec: s)
    let original = extractor.extract(columns: columns, start: 0)
    // A rotation of 100 degrees about (1, 2, 2) / 3.
    let (ux, uy, uz) = (1.0 / 3, 2.0 / 3, 2.0 / 3)
    let angle = 100.0 * .pi / 180
    let (c, sn) = (cos(angle), sin(angle))
    let m = [
      c + ux * ux * (1 - c), ux * uy * (1 - c) - uz * sn, ux * uz * (1 - c) + uy * sn,
      uy * ux * (1 - c) + uz * sn, c + uy * uy * (1 - c), uy * uz * (1 - c) - ux * sn,
      uz * ux * (1 - c) - uy * sn, uz * uy * (1 - c) + ux * sn, c + uz * uz * (1 - c),
    ]
    let turned = extractor.extract(columns: rotated(columns, m), start: 0)
    XCTAssertNotEqual(rotated(columns, m)[0], columns[0])
    for (i, name) in s.featureNames.enumerated() {
      XCTAssertEqual(turned[i], original[i], accuracy: 2e-3 * max(1, abs(original[i])), name)
    }
  }

  func testGravityColumns_GiveTheDirectionForGravityFreeVectors() throws {
    // userAcceleration averages to zero, so only gravity can say where "up" is: a bounce of
    // 0.2 g along gravity is all vertical.
    let n = 60
    let bounce = (0..<n).map { Float(0.2 * sin(2 * Double.pi * 2 * Double($0) / 15)) }
    let zero = [Float](repeating: 0, count: n)
    let s = FeatureSpec(
      recipes: ["u.x", "u.y", "u.z", "gravity.x", "gravity.y", "gravity.z"].map {
        ChannelRecipe.copy($0)
      }, channels: [], gravity: ["gravity.x", "gravity.y", "gravity.z"], sampleRateHz: 15,
      windowLength: n, hopLength: n, statistics: [.std, .max], spectral: [], bandEdgesHz: [],
      decomposedVectors: [["u.x", "u.y", "u.z"]])
    let columns = [zero, bounce, zero, zero, [Float](repeating: -1, count: n), zero]
    var extractor = try FeatureExtractor(spec: s)
    let row = extractor.extract(columns: columns, start: 0)
    let value = Dictionary(uniqueKeysWithValues: zip(extractor.featureNames, row))
    XCTAssertEqual(value["u.vertical:max"]!, bounce.max()!, accuracy: 1e-6)
    XCTAssertEqual(value["u.horizontal:max"]!, 0, accuracy: 1e-6)
  }

  func testValidate_RejectsUnknownChannelsAndWrongAxisCounts() {
    var s = spec()
    s.decomposedVectors = [["acceleration.x", "acceleration.y", "nope"]]
    XCTAssertThrowsError(try s.validate())
    s.decomposedVectors = [["acceleration.x", "acceleration.y"]]
    XCTAssertThrowsError(try s.validate())
  }

  func testCoding_OmitsTheKeyWhenUnusedAndDecodesOldSpecs() throws {
    var s = spec()
    s.decomposedVectors = []
    let json = String(decoding: try JSONEncoder().encode(s), as: UTF8.self)
    XCTAssertFalse(json.contains("decomposedVectors"))
    XCTAssertEqual(try JSONDecoder().decode(FeatureSpec.self, from: Data(json.utf8)), s)
    let used = spec()
    let back = try JSONDecoder().decode(FeatureSpec.self, from: JSONEncoder().encode(used))
    XCTAssertEqual(back.decomposedVectors, [axes])
  }
}
