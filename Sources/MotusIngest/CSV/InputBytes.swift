import Foundation
import MotusData
import MotusGzip

/// One input read whole: its name in messages and its bytes.
package struct InputBytes: Sendable {
  /// The path as given (`<stdin>` for `-`).
  package var name: String
  package var bytes: [UInt8]
  /// The phone-app recording these are, if any (its samples are loaded, not `bytes`).
  package var appExport: AppExportRecording?

  package init(name: String, bytes: [UInt8], appExport: AppExportRecording? = nil) {
    self.name = name
    self.bytes = bytes
    self.appExport = appExport
  }
}
