// Where a command's summary lines go: standard output, unless its output file is standard
// output itself (`-o -`), in which case they go to standard error and the data stays clean.

import Motus

extension StandardOutput {
  /// Writes `text` and a line end beside the command's `output` path.
  ///
  /// - Throws: `StandardOutputError` when standard output takes it and fails.
  static func printSummary(_ text: String, besideOutput output: String) throws {
    if output == InputFile.standardInputPath {
      Warnings.write(text + "\n")
    } else {
      try StandardOutput.print(text)
    }
  }
}
