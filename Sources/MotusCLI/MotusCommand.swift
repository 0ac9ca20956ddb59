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
      Stream.self, ModelInfo.self, Export.self, Bench.self,
    ])

  static func main() {
    // Before any output file exists, so an interrupted run never leaves one half-written.
    Interruption.removeTemporaryFilesOnSignal()
    // A closed pipe then fails the write (EPIPE) that `StandardOutput` reports, wherever it is.
    signal(SIGPIPE, SIG_IGN)
    TrainingRuntime.prepare()
    FreedMemory.reuseFreedBlocks()
    do {
      var command = try parseAsRoot()
      try command.run()
    } catch let error as StandardOutputError where error.isClosedPipe {
      // The reader went away (`| head`): nothing to tell it; end as a closed pipe ends `cat`.
      Interruption.dieOfClosedPipe()
    } catch {
      exit(withError: error)
    }
  }
}
