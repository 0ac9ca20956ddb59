// The umbrella: `import Motus` brings in the whole toolkit, as `Numerics` does for its modules.
// An iOS app that only runs models imports MotusStreaming (product `MotusInference`) instead.
@_exported import MotusAdaptation
@_exported import MotusBaselines
@_exported import MotusBenchmarks
@_exported import MotusData
@_exported import MotusEvaluation
@_exported import MotusExport
@_exported import MotusFeatures
@_exported import MotusGzip
@_exported import MotusIngest
@_exported import MotusLinearAlgebra
@_exported import MotusModels
@_exported import MotusOutput
@_exported import MotusSimulation
@_exported import MotusStreaming
@_exported import MotusTraining
