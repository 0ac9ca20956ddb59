// A phone-app recording read into streams, before they are joined on one clock.

import MotusData

/// A phone-app recording read into streams, before they are joined on one clock.
struct AppRecordingParts {
  var layout: AppExportLayout
  /// Platform or device, when the export says (`iOS`, `Android`, `iPhone 13`).
  var platform: String?
  var streams: [AppStream] = []
  var pedometer: PedometerReference?
  /// Files or sensors read but not used, and why.
  var ignored: [String] = []
  var notes: [String] = []
  /// Notes about data changed or left out (a pedometer), which every command prints.
  var warnings: [String] = []
}
