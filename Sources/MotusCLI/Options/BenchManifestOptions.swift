// The manifest a benchmark reads, six-class unless told otherwise: `bench accuracy` and
// `bench transfer` name it alike.

import ArgumentParser

struct BenchManifestOptions: ParsableArguments {
  @Option(help: ArgumentHelp("Dataset manifest.", valueName: "file"))
  var manifest = "datasets/six-class.json"

  @Option(help: ArgumentHelp("Folder the manifest's paths are relative to.", valueName: "folder"))
  var dataRoot: String?
}
