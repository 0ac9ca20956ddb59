// The warning every data command gives when recordings are too short for one window.

import Foundation
import Motus

extension LoadOutline {
  /// Notes recordings shorter than the window of `spec` in the report and warns on stderr.
  mutating func warnRecordingsWithoutWindow(spec: FeatureSpec) {
    let seconds = Double(spec.windowLength) / spec.sampleRateHz
    if let message = noteRecordingsWithoutWindow(windowSeconds: seconds) {
      Warnings.write("warning: \(message).\n")
    }
  }
}

extension WindowedLoad {
  /// `LoadOutline.warnRecordingsWithoutWindow(spec:)` with this load's spec.
  mutating func warnRecordingsWithoutWindow() { outline.warnRecordingsWithoutWindow(spec: spec) }
}
