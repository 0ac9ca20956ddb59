// The one message for a flag given where it does nothing: every command refuses such a flag in
// `validate()` (exit 64) rather than ignore it, so a user never believes it took effect.

import ArgumentParser

extension ValidationError {
  /// `'--alpha' applies only with --smoothing ema; without it the flag would be ignored.`
  static func appliesOnly(_ flag: String, with condition: String) -> ValidationError {
    ValidationError(
      "'\(flag)' applies only with \(condition); without it the flag would be ignored.")
  }
}
