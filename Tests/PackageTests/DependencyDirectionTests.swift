// The dependency direction of the modules, checked on the source text: every `import` in
// `Sources/<Module>/**/*.swift` must name a dependency that Package.swift declares for that
// module (or a platform module), and the pure-Swift inference modules must never reach the
// training side (batch ingest included) or OpenBLAS, so that an iOS app can embed them.

import Foundation
import XCTest

final class DependencyDirectionTests: XCTestCase {
  /// Embeddable in an app: pure Swift, no OpenBLAS.
  static let pureInferenceModules: Set<String> = [
    "MotusData", "MotusLinearAlgebra", "MotusFeatures", "MotusModels", "MotusStreaming",
    "MotusAdaptation",
  ]
  /// What a pure inference module must never import, directly or through its dependencies:
  /// OpenBLAS and the training side, batch ingest included (pure Swift, but no app needs it),
  /// and zlib with the compressed input it reads (an app reads sensors, not files).
  static let forbiddenForInference: Set<String> = [
    "MotusBLAS", "MotusTraining", "MotusEvaluation", "MotusBenchmarks", "COpenBLAS",
    "MotusIngest", "MotusGzip", "CZlib", "MotusOutput", "MotusLive", "MotusServe", "Hummingbird",
  ]
  /// The library product an app embeds, and the targets it names.
  static let inferenceProduct = "MotusInference"
  static let inferenceProductTargets: Set<String> = [
    "MotusStreaming", "MotusModels", "MotusFeatures", "MotusAdaptation",
  ]
  /// Modules of the platform, importable from any module.
  static let platformModules: Set<String> = [
    "Foundation", "FoundationEssentials", "Dispatch", "Glibc", "Musl", "Darwin",
  ]

  static var repositoryRoot: URL {
    URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  }

  // MARK: - The repository itself

  func testEveryImportInSourcesIsADeclaredDependencyAndInferenceStaysPure() throws {
    let root = Self.repositoryRoot
    let manifest = try String(
      contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
    let declared = try Self.declaredDependencies(inManifest: manifest)

    let sources = root.appendingPathComponent("Sources")
    let modules = try FileManager.default.contentsOfDirectory(atPath: sources.path)
      .filter { !$0.hasPrefix(".") }.sorted()
    XCTAssertGreaterThanOrEqual(modules.count, 14, "Sources/ lists \(modules)")

    var problems: [String] = []
    var importsSeen = 0
    for module in modules {
      guard declared[module] != nil else {
        problems.append("Sources/\(module) has no target of that name in Package.swift")
        continue
      }
      var imports: [ImportLine] = []
      for file in try Self.swiftFiles(under: sources.appendingPathComponent(module)) {
        let text = try String(contentsOf: file, encoding: .utf8)
        let relative = String(file.path.dropFirst(root.path.count + 1))
        imports += try Self.imports(in: text, file: relative)
      }
      importsSeen += imports.count
      problems += Self.violations(module: module, imports: imports, declared: declared)
    }
    problems += Self.manifestViolations(declared: declared)

    XCTAssertGreaterThan(importsSeen, 100, "the scan found too few imports to be reading the code")
    XCTAssert(problems.isEmpty, "dependency direction broken:\n" + problems.joined(separator: "\n"))
  }

  func testPackageManifestParsesIntoTheExpectedGraph() throws {
    let manifest = try String(
      contentsOf: Self.repositoryRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
    let declared = try Self.declaredDependencies(inManifest: manifest)
    XCTAssertEqual(declared["MotusData"], [])
    XCTAssertEqual(declared["MotusFeatures"], ["MotusData", "MotusLinearAlgebra"])
    XCTAssertEqual(
      declared["MotusIngest"],
      ["MotusData", "MotusFeatures", "MotusLinearAlgebra", "MotusGzip", "MotusOutput"])
    XCTAssertEqual(declared["MotusOutput"], ["MotusData"])
    XCTAssertEqual(declared["MotusGzip"], ["CZlib", "MotusData"])
    XCTAssertEqual(declared["CZlib"], [])
    XCTAssertEqual(declared["MotusBLAS"], ["COpenBLAS", "MotusLinearAlgebra"])
    XCTAssertEqual(declared["MotusCLI"], ["Motus", "MotusServe", "MotusLive", "ArgumentParser"])
    XCTAssertEqual(
      declared["MotusLive"],
      ["MotusStreaming", "MotusModels", "MotusIngest", "MotusOutput", "MotusData"])
    XCTAssertEqual(
      declared["MotusServe"],
      ["MotusLive", "MotusStreaming", "MotusModels", "MotusData", "Hummingbird", "Logging"])
    XCTAssertEqual(declared["COpenBLAS"], [])
  }

  /// The app product reaches the pure inference modules and nothing else: batch ingest
  /// (MotusIngest) stays out of MotusFeatures, MotusModels and MotusStreaming.
  func testInferenceProductReachesNoIngest() throws {
    let manifest = try String(
      contentsOf: Self.repositoryRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
    let declared = try Self.declaredDependencies(inManifest: manifest)
    let targets = try Self.productTargets(named: Self.inferenceProduct, inManifest: manifest)
    XCTAssertEqual(targets, Self.inferenceProductTargets)
    let reached = Self.reachable(from: targets, declared: declared)
    XCTAssertFalse(reached.contains("MotusIngest"), "\(Self.inferenceProduct) reaches \(reached)")
    XCTAssertTrue(
      reached.isDisjoint(with: ["MotusGzip", "CZlib"]), "\(Self.inferenceProduct) reaches zlib")
    XCTAssertEqual(reached, Self.pureInferenceModules)
  }

  /// The HTTP server (Hummingbird) is reached by the command line only: no library target
  /// but MotusServe names it, and only the CLI (and tests) name MotusServe.
  func testOnlyTheCommandLineReachesTheServer() throws {
    let manifest = try String(
      contentsOf: Self.repositoryRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
    let declared = try Self.declaredDependencies(inManifest: manifest)
    let naming = declared.filter { $0.value.contains("Hummingbird") }.map(\.key)
    XCTAssertEqual(naming, ["MotusServe"])
    let users = declared.filter { $0.value.contains("MotusServe") && !$0.key.hasSuffix("Tests") }
      .map(\.key).sorted()
    XCTAssertEqual(users, ["MotusCLI"])
    let library = try Self.productTargets(named: "Motus", inManifest: manifest)
    XCTAssertFalse(
      Self.reachable(from: library, declared: declared).contains("Hummingbird"),
      "the Motus library reaches the HTTP server")
  }

  // MARK: - The checker can fail

  func testCheckerReportsUndeclaredAndForbiddenImportsWithFileAndLine() throws {
    let declared = try Self.declaredDependencies(inManifest: Self.syntheticManifest)
    XCTAssertEqual(declared["Streaming"], ["Models"])
    XCTAssertEqual(declared["Training"], ["Models", "BLAS"])
    XCTAssertEqual(declared["Tool"], ["Training", "ArgumentParser"])

    let source = """
      // import Training   (a comment, not an import)
      import Foundation
      @testable import Models
        import Glibc
      @_implementationOnly import Training
      public import struct BLAS.Vector
      import ArgumentParser
      let text = "import COpenBLAS"
      """
    let imports = try Self.imports(in: source, file: "Sources/Streaming/Stream.swift")
    XCTAssertEqual(
      imports.map { "\($0.line):\($0.module)" },
      ["2:Foundation", "3:Models", "4:Glibc", "5:Training", "6:BLAS", "7:ArgumentParser"])

    let found = Self.violations(
      module: "Streaming", imports: imports, declared: declared,
      pure: ["Streaming", "Models"], forbidden: ["Training", "BLAS"])
    XCTAssertEqual(
      found,
      [
        "Sources/Streaming/Stream.swift:5: Streaming imports Training, which Package.swift "
          + "does not list as its dependency",
        "Sources/Streaming/Stream.swift:5: Streaming is a pure inference module and must not "
          + "import Training",
        "Sources/Streaming/Stream.swift:6: Streaming imports BLAS, which Package.swift "
          + "does not list as its dependency",
        "Sources/Streaming/Stream.swift:6: Streaming is a pure inference module and must not "
          + "import BLAS",
        "Sources/Streaming/Stream.swift:7: Streaming imports ArgumentParser, which Package.swift "
          + "does not list as its dependency",
      ])

    // The declared dependencies are allowed; a product dependency counts by its product name.
    let tool = try Self.imports(
      in: "import Training\nimport ArgumentParser\nimport Darwin\n", file: "Sources/Tool/Main.swift"
    )
    XCTAssertEqual(Self.violations(module: "Tool", imports: tool, declared: declared), [])

    // An inference module importing batch ingest is refused, declared or not.
    var ingesting = try Self.declaredDependencies(inManifest: Self.syntheticManifest)
    ingesting["MotusFeatures"] = ["MotusData", "MotusIngest"]
    ingesting["MotusIngest"] = ["MotusData"]
    let features = try Self.imports(
      in: "import MotusData\nimport MotusIngest\n", file: "Sources/MotusFeatures/Window.swift")
    XCTAssertEqual(
      Self.violations(module: "MotusFeatures", imports: features, declared: ingesting),
      [
        "Sources/MotusFeatures/Window.swift:2: MotusFeatures is a pure inference module and "
          + "must not import MotusIngest"
      ])
    XCTAssertEqual(
      Self.manifestViolations(declared: ingesting, pure: ["MotusFeatures", "MotusModels"]),
      ["Package.swift: pure inference module MotusFeatures depends on MotusIngest"])
    // zlib likewise: a streaming module reading gzip, or MotusData leaning on MotusGzip.
    var compressed = try Self.declaredDependencies(inManifest: Self.syntheticManifest)
    compressed["MotusStreaming"] = ["MotusData", "CZlib"]
    compressed["MotusData"] = ["MotusGzip"]
    compressed["MotusGzip"] = ["CZlib"]
    let streaming = try Self.imports(
      in: "import CZlib\n", file: "Sources/MotusStreaming/Reader.swift")
    XCTAssertEqual(
      Self.violations(module: "MotusStreaming", imports: streaming, declared: compressed),
      [
        "Sources/MotusStreaming/Reader.swift:1: MotusStreaming is a pure inference module and "
          + "must not import CZlib"
      ])
    XCTAssertEqual(
      Self.manifestViolations(declared: compressed, pure: ["MotusData", "MotusStreaming"]),
      [
        "Package.swift: pure inference module MotusData depends on MotusGzip",
        "Package.swift: pure inference module MotusData depends on CZlib (through MotusGzip)",
        "Package.swift: pure inference module MotusStreaming depends on CZlib",
        "Package.swift: pure inference module MotusStreaming depends on MotusGzip (through "
          + "MotusData)",
      ])
    let product = """
      products: [
        .library(name: "Other", targets: ["Training"]),
        .library(name: "App", targets: ["Streaming", "Models"]),
      ],
      """
    XCTAssertEqual(
      try Self.productTargets(named: "App", inManifest: product), ["Streaming", "Models"])
    XCTAssertEqual(
      Self.reachable(from: ["Streaming"], declared: declared), ["Streaming", "Models"])

    // Package.swift itself may not route a pure module to a forbidden one, even indirectly.
    var leaky = declared
    leaky["Models", default: []].insert("Tool")
    XCTAssertEqual(
      Self.manifestViolations(declared: leaky, pure: ["Streaming", "Models"], forbidden: ["BLAS"]),
      [
        "Package.swift: pure inference module Models depends on BLAS (through Tool)",
        "Package.swift: pure inference module Streaming depends on BLAS (through Models)",
      ])
  }

  static let syntheticManifest = """
    let package = Package(
      name: "Synthetic",
      targets: [
        .target(name: "Models"),
        .target(name: "Streaming", dependencies: ["Models"]),
        .target(
          name: "Training",
          dependencies: [
            "Models", "BLAS",  // trailing comment
          ]),
        .systemLibrary(name: "BLAS", pkgConfig: "openblas"),
        .executableTarget(
          name: "Tool",
          dependencies: [
            "Training", .product(name: "ArgumentParser", package: "swift-argument-parser"),
          ]),
        .testTarget(name: "ModelsTests", dependencies: ["Models"]),
      ]
    )
    """

  // MARK: - The checker

  struct ImportLine: Equatable {
    let file: String
    let line: Int
    let module: String
  }

  /// The `import` declarations of a Swift file: the imported module and the 1-based line.
  static func imports(in text: String, file: String) throws -> [ImportLine] {
    let attributes = #"(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*"#
    let access = #"(?:(?:public|package|internal|fileprivate|private)\s+)?"#
    let kind = #"(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?"#
    let regex = try NSRegularExpression(
      pattern: #"^\s*"# + attributes + access + #"import\s+"# + kind + #"([A-Za-z_][A-Za-z0-9_]*)"#)
    var found: [ImportLine] = []
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    for (index, line) in lines.enumerated() {
      let line = String(line)
      let range = NSRange(line.startIndex..., in: line)
      guard let match = regex.firstMatch(in: line, range: range),
        let name = Range(match.range(at: 1), in: line)
      else { continue }
      found.append(ImportLine(file: file, line: index + 1, module: String(line[name])))
    }
    return found
  }

  /// Each target of a Package.swift and the dependencies it declares (a product counts by its
  /// product name), parsed from `.target(name: "X", dependencies: [...])` entries and their
  /// `executableTarget`, `systemLibrary` and `testTarget` kin.
  static func declaredDependencies(inManifest manifest: String) throws -> [String: Set<String>] {
    // Comments out, so a commented-out dependency does not count.
    let text = manifest.split(separator: "\n", omittingEmptySubsequences: false)
      .map { line -> Substring in
        guard let comment = line.range(of: "//") else { return line }
        return line[..<comment.lowerBound]
      }
      .joined(separator: "\n")
    let entry = try NSRegularExpression(
      pattern: #"\.(?:target|executableTarget|systemLibrary|testTarget)\(\s*name:\s*"([^"]+)""#)
    let whole = NSRange(text.startIndex..., in: text)
    let matches = entry.matches(in: text, range: whole)
    var declared: [String: Set<String>] = [:]
    let quoted = try NSRegularExpression(pattern: #""([^"]+)""#)
    for (index, match) in matches.enumerated() {
      guard let nameRange = Range(match.range(at: 1), in: text),
        let entryRange = Range(match.range, in: text)
      else { continue }
      let next = index + 1 < matches.count ? Range(matches[index + 1].range, in: text) : nil
      let body = text[entryRange.upperBound..<(next?.lowerBound ?? text.endIndex)]
      var dependencies: Set<String> = []
      if let start = body.range(of: "dependencies:"),
        let open = body[start.upperBound...].firstIndex(of: "["),
        let close = body[open...].firstIndex(of: "]")
      {
        var list = String(body[body.index(after: open)..<close])
        // `.product(name: "P", package: "p")`: the module is the product P.
        list = list.replacingOccurrences(
          of: #"package:\s*"[^"]*""#, with: "", options: .regularExpression)
        for item in quoted.matches(in: list, range: NSRange(list.startIndex..., in: list)) {
          if let range = Range(item.range(at: 1), in: list) {
            dependencies.insert(String(list[range]))
          }
        }
      }
      declared[String(text[nameRange])] = dependencies
    }
    return declared
  }

  /// One message per import that breaks the rules, naming the file and line.
  static func violations(
    module: String, imports: [ImportLine], declared: [String: Set<String>],
    pure: Set<String> = pureInferenceModules, forbidden: Set<String> = forbiddenForInference
  ) -> [String] {
    let allowed = (declared[module] ?? []).union(platformModules)
    var problems: [String] = []
    for item in imports where item.module != module {
      let place = "\(item.file):\(item.line)"
      if !allowed.contains(item.module) {
        problems.append(
          "\(place): \(module) imports \(item.module), which Package.swift does not list as "
            + "its dependency")
      }
      if pure.contains(module) && forbidden.contains(item.module) {
        problems.append(
          "\(place): \(module) is a pure inference module and must not import \(item.module)")
      }
    }
    return problems
  }

  /// Pure inference modules whose declared dependencies reach a forbidden module.
  static func manifestViolations(
    declared: [String: Set<String>],
    pure: Set<String> = pureInferenceModules, forbidden: Set<String> = forbiddenForInference
  ) -> [String] {
    var problems: [String] = []
    for module in pure.sorted() {
      // Breadth-first over the declared graph, remembering the direct dependency it came by.
      var seen: Set<String> = [module]
      var queue = (declared[module] ?? []).sorted().map { ($0, $0) }
      while !queue.isEmpty {
        let (next, via) = queue.removeFirst()
        guard seen.insert(next).inserted else { continue }
        if forbidden.contains(next) {
          let through = next == via ? "" : " (through \(via))"
          problems.append(
            "Package.swift: pure inference module \(module) depends on \(next)\(through)")
        }
        queue += (declared[next] ?? []).sorted().map { ($0, via) }
      }
    }
    return problems
  }

  /// The targets a `.library(name: "<name>", targets: [...])` product lists.
  static func productTargets(named name: String, inManifest manifest: String) throws -> Set<String>
  {
    let library = try NSRegularExpression(
      pattern: #"\.library\(\s*name:\s*""# + NSRegularExpression.escapedPattern(for: name)
        + #""\s*,\s*targets:\s*\[([^\]]*)\]"#)
    let whole = NSRange(manifest.startIndex..., in: manifest)
    guard let match = library.firstMatch(in: manifest, range: whole),
      let list = Range(match.range(at: 1), in: manifest)
    else { return [] }
    let quoted = try NSRegularExpression(pattern: #""([^"]+)""#)
    let text = String(manifest[list])
    return Set(
      quoted.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
        Range($0.range(at: 1), in: text).map { String(text[$0]) }
      })
  }

  /// `modules` and every target they depend on, directly or not.
  static func reachable(from modules: Set<String>, declared: [String: Set<String>]) -> Set<String> {
    var seen: Set<String> = []
    var queue = Array(modules)
    while let next = queue.popLast() {
      guard seen.insert(next).inserted else { continue }
      queue += declared[next] ?? []
    }
    return seen
  }

  static func swiftFiles(under folder: URL) throws -> [URL] {
    guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
    else { return [] }
    return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
      .sorted { $0.path < $1.path }
  }
}
