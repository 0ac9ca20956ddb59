// The warnings every data command gives: data repaired or left out on the way (a phone-app
// clock that stepped back, a sensor cut short), and recordings too short for one window.

import Foundation
import Motus

extension LoadOutline {
  /// Warns on stderr of the report's warnings, and of recordings shorter than the window of
  /// `spec` (noted in the report too).
  mutating func warnAboutData(spec: FeatureSpec) {
    for warning in report.warnings { Warnings.write("warning: \(Excerpt.printable(warning))\n") }
    if let message = noteRecordingsWithoutWindow(windowSeconds: spec.windowSeconds) {
      Warnings.write("warning: \(message).\n")
    }
  }
}

extension WindowedLoad {
  /// `LoadOutline.warnAboutData(spec:)` with this load's spec.
  mutating func warnAboutData() { outline.warnAboutData(spec: spec) }
}
