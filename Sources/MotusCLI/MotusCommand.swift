import ArgumentParser
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
    TrainingRuntime.prepare()
    FreedMemory.reuseFreedBlocks()
    main(nil)
  }
}
