// Usage errors every command words alike: a flag given where it does nothing (refused in
// `validate()`, exit 64, rather than ignored, so a user never believes it took effect), and a
// sample rate a flag gives outside the bounds the library sets.

import ArgumentParser
import Motus

extension ValidationError {
  /// `'--alpha' applies only with --smoothing ema; without it the flag would be ignored.`
  static func appliesOnly(_ flag: String, with condition: String) -> ValidationError {
    ValidationError(
      "'\(flag)' applies only with \(condition); without it the flag would be ignored.")
  }
}

extension ValidationError {
  /// `Limits.checkSampleRate(_:flag:)` as a usage error (exit 64), its message unchanged.
  static func checkSampleRate(_ hz: Double, flag: String) throws {
    do {
      try Limits.checkSampleRate(hz, flag: flag)
    } catch let error as LimitError {
      throw ValidationError(error.description)
    }
  }
}
