// The one JSON encoder setup of every file and report motus writes (the model file's header,
// the JSON reports of evaluate, cross-validate, inspect, model-info and the benchmarks): keys
// sorted, so the same value gives the same bytes; slashes as they are (paths stay readable);
// non-finite numbers as the strings "inf", "-inf" and "nan", which the model file reads back.

import Foundation

extension JSONEncoder {
  /// An encoder with sorted keys, unescaped slashes and non-finite numbers as strings;
  /// `prettyPrinted` indents it for people (reports) rather than packing it (the model file).
  public static func sortedKeys(prettyPrinted: Bool) -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting =
      prettyPrinted
      ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
      : [.sortedKeys, .withoutEscapingSlashes]
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    return encoder
  }
}
