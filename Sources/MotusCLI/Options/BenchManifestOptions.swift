// The manifest a benchmark reads, six-class unless told otherwise: `bench accuracy` and
// `bench transfer` name it alike.

import ArgumentParser
import Motus

struct BenchManifestOptions: ParsableArguments {
  @Option(help: ArgumentHelp("Dataset manifest.", valueName: "file"))
  var manifest = "datasets/six-class.json"

  @Option(help: ArgumentHelp("Folder the manifest's paths are relative to.", valueName: "folder"))
  var dataRoot: String?

  /// The manifest as a data source.
  var dataSource: DataSource { DataSource(manifest: manifest, dataRoot: dataRoot) }

  /// The manifest's data loaded whole, with `progress` naming the stage.
  func load(showing progress: ProgressLine) throws -> WholeLoad {
    progress.show("reading \(manifest)")
    return try dataSource.load()
  }
}
