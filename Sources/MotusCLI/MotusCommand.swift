import ArgumentParser
import Foundation
import Motus

@main
struct MotusCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "motus",
    abstract: "Train, evaluate and stream activity classifiers on IMU recordings.",
    version: MotusVersion.string,
    subcommands: [
      Demo.self, Inspect.self, Features.self, Train.self, Evaluate.self, CrossValidate.self,
      Stream.self, Serve.self, Adapt.self, ModelInfo.self, Export.self, Bench.self,
    ])

  static func main() {
    startWithPinnedBLASKernels()
    // Before any output file exists, so an interrupted run never leaves one half-written.
    Interruption.removeTemporaryFilesOnSignal()
    // A closed pipe then fails the write (EPIPE) that `StandardOutput` reports, wherever it is.
    signal(SIGPIPE, SIG_IGN)
    TrainingRuntime.prepare()
    FreedMemory.reuseFreedBlocks()
    do {
      if let unknown = unknownCommand(Array(CommandLine.arguments.dropFirst())) { throw unknown }
      var command = try parseAsRoot()
      try command.run()
    } catch let error as StandardOutputError where error.isClosedPipe {
      // The reader went away (`| head`): nothing to tell it; end as a closed pipe ends `cat`.
      Interruption.dieOfClosedPipe()
    } catch {
      fail(error)
    }
    // Standard error's reader went away (`2>&1 >report.txt | head`): the outputs are finished
    // and stay; end as a program whose pipe closed ends (warnings were dropped meanwhile).
    if StandardError.readerWentAway { Interruption.dieOfClosedPipe() }
  }

  /// Prints `error` as ArgumentParser would, but through the checked `StandardError` (a full
  /// disk or closed pipe drops it; the exit status stays the error's), and exits.
  private static func fail(_ error: Error) -> Never {
    let code = exitCode(for: error)
    // Help and version requests go to standard output and exit 0, as ArgumentParser does.
    if code.rawValue == 0 { exit(withError: error) }
    let message = fullMessage(for: error)
    if !message.isEmpty { StandardError.write(message + "\n") }
    Foundation.exit(code.rawValue)
  }

  /// A first argument that is neither a flag nor a command, with the command meant when it is
  /// a misspelling of one ("did you mean"); nil when the first argument is fine.
  static func unknownCommand(_ arguments: [String]) -> ValidationError? {
    guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
    let names = configuration.subcommands.map { $0._commandName }
    guard !names.contains(first), first != "help" else { return nil }
    if let meant = SpellingSuggestion.closest(to: first, among: names) {
      return ValidationError(
        "'\(Excerpt.text(first))' is not a motus command. Did you mean '\(meant)'?")
    }
    return ValidationError(
      "'\(Excerpt.text(first))' is not a motus command; the commands are "
        + names.joined(separator: ", ") + ".")
  }

  /// Starts this program again with OpenBLAS's kernels pinned (MotusBLAS's `BLASKernels`), so a model
  /// trained here is the file the same command writes on any other x86-64 machine. OpenBLAS has
  /// already chosen by the time Swift code runs, hence a new start rather than a setting. When
  /// the new start fails, the program goes on with the kernels it has.
  private static func startWithPinnedBLASKernels() {
    guard let pin = TrainingRuntime.kernelPinning() else { return }
    setenv(pin.name, pin.value, 1)
    let arguments = CommandLine.unsafeArgv
    execv("/proc/self/exe", arguments)
  }
}
