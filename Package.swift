// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "Motus",
  products: [
    .library(name: "Motus", targets: ["Motus"]),
    // The inference path alone, for apps: pure Swift, no OpenBLAS, no batch ingest.
    .library(
      name: "MotusInference",
      targets: ["MotusStreaming", "MotusModels", "MotusFeatures", "MotusAdaptation"]),
    .executable(name: "motus", targets: ["MotusCLI"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    // `swift package generate-documentation` for the DocC catalogs; nothing builds against it.
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    // The HTTP server behind `motus serve` only (MotusServe); nothing in MotusInference needs it.
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
  ],
  targets: [
    // MARK: - Public API (pure Swift: embeddable in an iOS app)
    // What the engine reads: recordings, channel recipes, the resampler, one row of CSV, input
    // files, errors.
    .target(name: "MotusData", exclude: ["README.md"]),
    .target(name: "MotusLinearAlgebra", exclude: ["README.md"]),
    .target(
      name: "MotusFeatures", dependencies: ["MotusData", "MotusLinearAlgebra"],
      exclude: ["README.md"]),
    .target(
      name: "MotusModels", dependencies: ["MotusFeatures", "MotusLinearAlgebra", "MotusData"],
      exclude: ["README.md"]),
    // A model's last layer refitted on a person's own labelled minutes (`motus adapt`).
    .target(
      name: "MotusAdaptation",
      dependencies: ["MotusModels", "MotusFeatures", "MotusData", "MotusLinearAlgebra"],
      exclude: ["README.md"]),
    .target(
      name: "MotusStreaming",
      dependencies: ["MotusModels", "MotusFeatures", "MotusData", "MotusLinearAlgebra"],
      exclude: ["README.md"]),
    // Training-side ingest (pure Swift, but no part of MotusInference): the parallel CSV
    // loader, manifests, phone-app exports, Parquet and CSV window tables, device perturbation.
    .target(
      name: "MotusIngest",
      dependencies: ["MotusData", "MotusFeatures", "MotusLinearAlgebra", "MotusGzip", "MotusOutput"],
      exclude: ["README.md"]),
    // What commands write and print: the output rule (atomic files, `-`, outputs that are
    // inputs refused), checked standard output and error, text tables. No part of
    // MotusInference: an app writes none of these.
    .target(name: "MotusOutput", dependencies: ["MotusData"], exclude: ["README.md"]),
    // gzip-compressed input read as its text, inflated as it is read (zlib): ingest only.
    .target(name: "MotusGzip", dependencies: ["CZlib", "MotusData"], exclude: ["README.md"]),
    .target(name: "MotusBaselines", dependencies: ["MotusData"], exclude: ["README.md"]),
    // A model as ONNX (raw window in, probabilities out), for runtimes without Motus.
    .target(
      name: "MotusExport",
      dependencies: ["MotusModels", "MotusFeatures", "MotusData", "MotusLinearAlgebra"],
      exclude: ["README.md"]),
    // Synthetic recordings for the demo and tests (labelled synthetic wherever they appear),
    // and models of a real one's shape with random weights, for timing inference.
    .target(
      name: "MotusSimulation",
      dependencies: [
        "MotusData", "MotusIngest", "MotusFeatures", "MotusModels", "MotusLinearAlgebra",
      ],
      exclude: ["README.md"]),

    // Live classification of what phones push: the Sensor Logger push and CSV body parsers, one
    // stream session per device and session, limits, recording, the page. No network code.
    .target(
      name: "MotusLive",
      dependencies: [
        "MotusStreaming", "MotusModels", "MotusIngest", "MotusOutput", "MotusData",
      ], exclude: ["README.md"]),
    // `motus serve`: MotusLive behind HTTP (Hummingbird), with the token rule and live updates.
    .target(
      name: "MotusServe",
      dependencies: [
        "MotusLive", "MotusStreaming", "MotusModels", "MotusData",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"),
      ], exclude: ["README.md"]),

    // MARK: - Public API (training and batch evaluation: needs OpenBLAS)
    .target(
      name: "MotusBLAS", dependencies: ["COpenBLAS", "MotusLinearAlgebra"], exclude: ["README.md"]),
    .target(
      name: "MotusTraining",
      dependencies: [
        "MotusModels", "MotusFeatures", "MotusIngest", "MotusOutput", "MotusData",
        "MotusLinearAlgebra", "MotusBLAS",
      ], exclude: ["README.md"]),
    .target(
      name: "MotusEvaluation",
      dependencies: [
        "MotusTraining", "MotusStreaming", "MotusModels", "MotusFeatures", "MotusIngest",
        "MotusOutput", "MotusData", "MotusLinearAlgebra",
      ], exclude: ["README.md"]),
    // Every benchmark: the learned engine against threshold rules (it trains its models, so it
    // needs OpenBLAS too), and the cost of features and streaming.
    .target(
      name: "MotusBenchmarks",
      dependencies: [
        "MotusBaselines", "MotusStreaming", "MotusTraining", "MotusFeatures", "MotusModels",
        "MotusIngest", "MotusOutput", "MotusGzip", "MotusData", "MotusLinearAlgebra",
        "MotusAdaptation", "MotusEvaluation",
      ], exclude: ["README.md"]),
    .target(
      name: "Motus",
      dependencies: [
        "MotusData", "MotusIngest", "MotusOutput", "MotusGzip", "MotusLinearAlgebra", "MotusFeatures",
        "MotusModels", "MotusStreaming", "MotusBaselines", "MotusTraining", "MotusSimulation",
        "MotusEvaluation", "MotusBenchmarks", "MotusExport", "MotusAdaptation",
      ], exclude: ["README.md"]),

    // MARK: - Implementation details
    .systemLibrary(
      name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
    .systemLibrary(
      name: "COpenBLAS", pkgConfig: "openblas",
      providers: [.apt(["libopenblas-dev", "liblapacke-dev"]), .brew(["openblas"])]),
    .executableTarget(
      name: "MotusCLI",
      dependencies: [
        "Motus", "MotusServe", "MotusLive", .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ], exclude: ["README.md"]),

    // MARK: - Fuzzing (scripts/fuzz.sh builds MotusFuzz with -sanitize=fuzzer)
    .target(
      name: "MotusFuzzTargets",
      dependencies: [
        "MotusData", "MotusIngest", "MotusGzip", "MotusFeatures", "MotusModels", "MotusStreaming",
        "MotusExport", "MotusLive",
      ],
      path: "Fuzz/Targets"),
    .executableTarget(name: "MotusFuzz", dependencies: ["MotusFuzzTargets"], path: "Fuzz/Driver"),

    // MARK: - Unit test bundles
    .target(
      name: "MotusTestSupport",
      dependencies: [
        "MotusData", "MotusIngest", "MotusLinearAlgebra", "MotusFeatures", "MotusModels",
        "MotusStreaming", "MotusSimulation",
      ],
      path: "Tests/MotusTestSupport"),
    .testTarget(name: "MotusDataTests", dependencies: ["MotusData", "MotusTestSupport"]),
    .testTarget(
      name: "MotusIngestTests",
      dependencies: [
        "MotusIngest", "MotusData", "MotusFeatures", "MotusLinearAlgebra", "MotusGzip",
        "MotusOutput", "MotusTestSupport", "CMallocCounter",
      ],
      exclude: ["Fixtures"]),
    .testTarget(
      name: "MotusGzipTests", dependencies: ["MotusGzip", "MotusData", "MotusTestSupport"]),
    .testTarget(
      name: "MotusOutputTests", dependencies: ["MotusOutput", "MotusData", "MotusTestSupport"]),
    // Rules over the whole package (each import allowed by Package.swift), not one module.
    .testTarget(name: "PackageTests"),
    .testTarget(
      name: "MotusLinearAlgebraTests",
      dependencies: ["MotusLinearAlgebra", "MotusBLAS", "MotusTestSupport"]),
    .testTarget(
      name: "MotusFeaturesTests",
      dependencies: ["MotusFeatures", "MotusIngest", "MotusTestSupport"],
      exclude: ["Reference"],
      resources: [.copy("Fixtures")]),
    .testTarget(
      name: "MotusExportTests",
      dependencies: [
        "MotusExport", "MotusModels", "MotusFeatures", "MotusIngest", "MotusData", "MotusTestSupport",
      ]),
    .testTarget(name: "MotusSimulationTests", dependencies: ["MotusSimulation"]),
    .testTarget(name: "MotusModelsTests", dependencies: ["MotusModels", "MotusTestSupport"]),
    .testTarget(
      name: "MotusAdaptationTests",
      dependencies: [
        "MotusAdaptation", "MotusModels", "MotusFeatures", "MotusData", "MotusLinearAlgebra",
        "MotusTestSupport",
      ]),
    .testTarget(
      name: "MotusTrainingTests",
      dependencies: ["MotusTraining", "MotusModels", "MotusIngest", "MotusTestSupport"]),
    .target(name: "CMallocCounter", path: "Tests/CMallocCounter"),
    .testTarget(
      name: "MotusStreamingTests",
      dependencies: [
        "MotusStreaming", "MotusSimulation", "MotusLinearAlgebra", "MotusIngest",
        "MotusTestSupport", "CMallocCounter",
      ]),
    .testTarget(
      name: "MotusEvaluationTests",
      dependencies: [
        "MotusEvaluation", "MotusStreaming", "MotusTraining", "MotusModels", "MotusSimulation",
        "MotusIngest", "MotusOutput", "MotusTestSupport",
      ]),
    .testTarget(
      name: "MotusBaselinesTests", dependencies: ["MotusBaselines", "MotusData", "MotusBenchmarks"]),
    .testTarget(
      name: "MotusBenchmarksTests",
      dependencies: [
        "MotusBenchmarks", "MotusBaselines", "MotusStreaming", "MotusModels", "MotusFeatures",
        "MotusIngest", "MotusGzip", "MotusData", "MotusLinearAlgebra", "MotusTestSupport",
      ]),
    .testTarget(
      name: "MotusCLITests",
      dependencies: [
        "MotusCLI", "MotusTestSupport", "MotusSimulation", "MotusGzip", "MotusIngest",
        "MotusTraining", "MotusStreaming", "MotusServe", "MotusLive", "MotusModels",
      ]),
    .testTarget(
      name: "MotusLiveTests",
      dependencies: [
        "MotusLive", "MotusStreaming", "MotusModels", "MotusIngest", "MotusData", "MotusTestSupport",
      ]),
    .testTarget(
      name: "MotusServeTests",
      dependencies: [
        "MotusServe", "MotusLive", "MotusStreaming", "MotusModels", "MotusIngest", "MotusData",
        "MotusTestSupport",
      ]),
    .testTarget(
      name: "MotusFuzzTests",
      dependencies: [
        "MotusFuzzTargets", "MotusData", "MotusIngest", "MotusModels", "MotusStreaming",
        "MotusTestSupport",
      ]),
  ]
)
