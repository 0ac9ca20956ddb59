// The model file a command reads first, as `stream` and `model-info` name it.

import ArgumentParser

struct ModelFileArgument: ParsableArguments {
  @Argument(
    help: ArgumentHelp(
      "The model file written by `motus train`, e.g. models/six-class.motus.",
      valueName: "model"))
  var path: String
}
