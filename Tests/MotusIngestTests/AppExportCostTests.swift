// What reading a phone-app export costs against the same rows in the long layout: the app
// readers parse cells from the file's bytes (no String per cell) and hand the loader columns,
// not text, so their allocations do not grow with the rows. SYNTHETIC data.

import CMallocCounter
import Foundation
import MotusData
@testable import MotusIngest
import MotusTestSupport
import XCTest

final class AppExportCostTests: TemporaryFolderTestCase {
  /// The same 20,000 rows as a Physics Toolbox export and in the long layout.
  private func writeBoth(rows: Int) throws -> (app: String, long: String) {
    var app = "time,gFx,gFy,gFz,TgF\n"
    var long = "timestamp,session,subject,label,acceleration.x,acceleration.y,acceleration.z\n"
    for i in 0..<rows {
      let t = String(format: "%.6f", Double(i) * 0.01)
      let v = [0.01 * Double(i % 7), -0.02 * Double(i % 5), 0.98 + 0.001 * Double(i % 11)]
        .map { String(format: "%.4f", $0) }
      app += "\(t),\(v.joined(separator: ",")),1.0\n"
      long += "\(t),rec,rec,walking,\(v.joined(separator: ","))\n"
    }
    return (try write(app, "rec.csv"), try write(long, "long.csv"))
  }

  private func allocations(_ body: () throws -> Void) rethrows -> Int {
    let before = motus_allocation_count()
    try body()
    return Int(motus_allocation_count() - before)
  }

  /// Counted in optimised builds (as CI tests): a debug build allocates for closures and
  /// temporaries the optimiser removes, in the long layout's loader as much as here.
  func testPhysicsToolboxLoad_AllocatesNoMoreThanTheLongLayoutPerRow() throws {
    #if DEBUG
      throw XCTSkip("allocation counts are pinned in optimised builds (scripts/test.sh)")
    #else
      let (app, long) = try writeBoth(rows: 20_000)
      var options = LoadOptions()
      options.appLabels = AppExportLabels(label: "walking")
      let conversion = try allocations { _ = try AppExport.read(path: app, label: "walking") }
      let appCount = try allocations { _ = try DatasetLoader.load([app], options: options) }
      let longCount = try allocations { _ = try DatasetLoader.load([long], options: LoadOptions()) }
      // A String or an array per cell or row would be 20,000 allocations and more.
      XCTAssertLessThan(conversion, 2_000, "conversion \(conversion)")
      XCTAssertLessThan(appCount, longCount + 2_000, "app \(appCount), long \(longCount)")
    #endif
  }
}
