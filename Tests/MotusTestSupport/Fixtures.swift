// Shared test helpers: where the real data lives, approximate comparison, and a synthetic
// recording's text.

import Foundation

public enum SharedData {
  /// `../shared/datasets` beside the repository (CI has it too).
  public static var root: URL {
    let repo = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    return repo.deletingLastPathComponent().appendingPathComponent("shared/datasets")
  }
  public static var motionSense: URL { root.appendingPathComponent("motionsense/motionsense.csv") }
  public static var qrowd: URL { root.appendingPathComponent("qrowd_tr/qrowd_tr.csv") }
  public static var pushUps: URL { root.appendingPathComponent("gains_pushup/gains_pushup.csv") }
  public static var isAvailable: Bool { FileManager.default.fileExists(atPath: motionSense.path) }
}

/// Largest absolute difference between two equal-length arrays.
public func maxAbsoluteDifference(_ a: [Float], _ b: [Float]) -> Float {
  precondition(a.count == b.count, "lengths differ: \(a.count) vs \(b.count)")
  var worst: Float = 0
  for i in a.indices { worst = max(worst, abs(a[i] - b[i])) }
  return worst
}

/// A fresh temporary directory, removed by the caller when done.
public func makeTemporaryDirectory() throws -> URL {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("motus-test-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

/// A long-layout CSV of one session at 50 Hz with one channel `x`, the label switching between
/// walk and run every 50 rows: text in any amount for the readers of files.
public func walkRunCSV(rows: Int) -> [UInt8] {
  Array(
    ("timestamp,session,label,x\n"
      + (0..<rows).map {
        "\(Double($0) * 0.02),s1,\($0 / 50 % 2 == 0 ? "walk" : "run"),\($0 % 7)\n"
      }
      .joined()).utf8)
}
