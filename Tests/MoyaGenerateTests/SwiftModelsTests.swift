import Foundation
import MoyaBinding
import MoyaCompiler
import MoyaCore
import MoyaOpenAPI
import MoyaSpec
import TestSupport
import XCTest

@testable import MoyaGenerate

/// `generate swift`'s models on real descriptions: every document of `../shared/openapi-real`
/// and the OpenAPI Initiative's examples, imported then generated, type-checks against the
/// Moya module, and each target's stubbed sample decodes with its model, encodes, and
/// decodes again to an equal value.
final class SwiftModelsTests: XCTestCase {
    var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "models-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The corpus, imported once for both tests, in a folder of its own.
    nonisolated(unsafe) static var imported: [ServiceSpec]?
    static let corpusDirectory = NSTemporaryDirectory() + "models-corpus-\(UUID().uuidString)"

    override class func tearDown() {
        try? FileManager.default.removeItem(atPath: corpusDirectory)
    }

    func corpus() throws -> [ServiceSpec] {
        if let imported = Self.imported { return imported }
        let services = try importCorpus(into: Self.corpusDirectory)
        Self.imported = services
        return services
    }

    /// Each corpus document imported and compiled as `generate swift` compiles it, its service
    /// named after the file so that all of them can share one module.
    func importCorpus(into directory: String) throws -> [ServiceSpec] {
        let folders = [
            try Repository.shared("openapi-real", variable: "OPENAPI_REAL"),
            try Repository.shared("openapi-examples", variable: "OPENAPI_EXAMPLES"),
        ]
        var services: [ServiceSpec] = []
        for folder in folders {
            let documents = try FileManager.default.contentsOfDirectory(atPath: folder).filter {
                $0.hasSuffix(".yaml") || $0.hasSuffix(".json")
            }.sorted()
            for document in documents {
                let stem = String(document.split(separator: ".").dropLast().joined(separator: "_"))
                let name = stem.replacing("-", with: "_")
                let folder = folder + "/" + document
                let path = directory + "/" + name + "/" + document
                try FileManager.default.createDirectory(
                    atPath: directory + "/" + name, withIntermediateDirectories: true)
                try FileManager.default.copyItem(atPath: folder, toPath: path)
                let spec = directory + "/" + name + "/" + name + ".moya.yaml"
                let bytes = try XCTUnwrap(FileManager.default.contents(atPath: path))
                let imported = try OpenAPIImporter.importSpec(Array(bytes), file: path, service: name, spec: spec)
                try imported.spec.write(toFile: spec, atomically: true, encoding: .utf8)
                let compiler = SpecCompiler(environment: .none)
                services.append(try compiler.compile(Array(imported.spec.utf8), file: spec))
            }
        }
        XCTAssertEqual(services.count, 19)
        return services
    }

    /// The whole generated file of every document, type-checked together against Moya.
    func testEveryDocumentGeneratesSwiftThatTypeChecksAgainstMoya() throws {
        let services = try corpus()
        var files: [String] = []
        var models = 0
        var typedCalls = 0
        for service in services {
            let (source, _) = SwiftGenerator(command: "moya-cli generate swift").generate(service)
            let file = directory + "/" + SwiftName.words(service.name).joined() + ".swift"
            try source.write(toFile: file, atomically: true, encoding: .utf8)
            files.append(file)
            let plan = GeneratedFile(service: service, access: .public).models
            models += plan?.models.count ?? 0
            typedCalls += plan?.responses.count ?? 0
        }
        // Not nothing: the corpus's schemas are models, and most targets have a typed call.
        XCTAssertGreaterThan(models, 1000)
        XCTAssertGreaterThan(typedCalls, 1000)
        let (status, output) = try Swiftc.run(["-typecheck", "-swift-version", "6"] + Swiftc.moyaFlags() + files)
        XCTAssertEqual(status, 0, String(output.prefix(4000)))
    }

    /// Every stubbed sample with a schema decodes with its model, encodes, and decodes again to
    /// an equal value: the models with MoyaJSON alone (what they use of Moya), and a driver.
    func testEverySampleRoundTripsThroughItsModel() throws {
        let services = try corpus()
        var sources = [Repository.root + "/Sources/MoyaJSON"].flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted().map { folder + "/" + $0 }
        }
        var driver = """
            import Foundation

            var failures = 0
            var passed = 0
            func check<Value: Codable & Hashable>(_ name: String, _ type: Value.Type, _ path: String) {
                guard let data = FileManager.default.contents(atPath: path) else {
                    print("\\(name): no sample at \\(path)")
                    failures += 1
                    return
                }
                do {
                    let first = try JSONDecoder().decode(Value.self, from: data)
                    let again = try JSONDecoder().decode(Value.self, from: JSONEncoder().encode(first))
                    if first == again {
                        passed += 1
                    } else {
                        print("\\(name): decoded, encoded and decoded again, it differs")
                        failures += 1
                    }
                } catch {
                    print("\\(name): \\(error)")
                    failures += 1
                }
            }

            """
        var samples = 0
        for service in services {
            var file = GeneratedFile(service: service, access: .internal)
            guard let plan = file.models else { continue }
            file.line("enum \(file.typeName) {}")
            file.writeModelTypes(plan)
            let path = directory + "/" + file.typeName + "Models.swift"
            try file.output.write(toFile: path, atomically: true, encoding: .utf8)
            sources.append(path)
            for target in service.targets {
                var bodies: [(sample: String?, type: ModelType)] = []
                if let type = plan.responses[target.name] { bodies.append((nil, type)) }
                for (name, type) in (plan.sampleTypes[target.name] ?? [:]).sorted(by: { $0.key < $1.key }) {
                    bodies.append((name, type))
                }
                for (sample, type) in bodies {
                    guard let data = try? Self.body(service.sample(of: target, named: sample, values: [:])),
                        !data.isEmpty, (try? JSONValue(parsing: data)) != nil
                    else { continue }
                    samples += 1
                    let sampleFile = directory + "/sample-\(samples).json"
                    try data.write(to: URL(fileURLWithPath: sampleFile))
                    let name = "\(service.name).\(target.name)" + (sample.map { " (\($0))" } ?? "")
                    driver +=
                        "check(\(SwiftName.literal(name)), (\(file.qualified(type))).self, \(SwiftName.literal(sampleFile)))\n"
                }
            }
        }
        driver += "print(\"\\(passed) passed, \\(failures) failed\")\n"
        XCTAssertGreaterThan(samples, 1000)
        let main = directory + "/main.swift"
        try driver.write(toFile: main, atomically: true, encoding: .utf8)
        let program = directory + "/round-trip"
        let (built, errors) = try Swiftc.run(
            ["-Onone", "-gnone", "-j2", "-module-name", "RoundTrip", "-package-name", "RoundTrip", "-o", program]
                + sources + [main])
        XCTAssertEqual(built, 0, String(errors.prefix(4000)))
        guard built == 0 else { return }
        let (status, output) = try Swiftc.run([], executable: program)
        XCTAssertEqual(status, 0, output)
        XCTAssertEqual(output, "\(samples) passed, 0 failed\n")
    }

    static func body(_ sample: EndpointSampleResponse) -> Data? {
        switch sample {
        case .networkResponse(_, let data), .response(_, let data): data
        case .networkError: nil
        }
    }
}

/// Runs `swiftc`, or a program it built, and the flags that compile a file against the Moya
/// module as this package's own `GeneratedServices` target is compiled.
enum Swiftc {
    /// Exit status, and what it printed on stdout and stderr together.
    static func run(_ arguments: [String], executable: String? = nil) throws -> (Int32, String) {
        let (env, swiftc) = Launch.onPath("swiftc")
        let ran = try Launch.run(
            executable.map(URL.init(fileURLWithPath:)) ?? env, executable == nil ? swiftc + arguments : arguments,
            environment: nil)
        return (ran.status, ran.out + ran.error)
    }

    /// The search paths, target and C module maps SwiftPM compiles `GeneratedServices` with,
    /// read from the build's manifest (`.build/debug.yaml`): `import Moya` then finds Moya and
    /// every module under it.
    static func moyaFlags() throws -> [String] {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = binary.deletingLastPathComponent()
        var manifest: URL?
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("debug.yaml")
            if FileManager.default.fileExists(atPath: candidate.path) {
                manifest = candidate
                break
            }
            folder = folder.deletingLastPathComponent()
        }
        let text = try String(
            contentsOf: try XCTUnwrap(manifest, "no debug.yaml above \(binary.path)"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("  \"C.GeneratedServices-") }),
            let argsLine = lines[start...].prefix(30).first(where: {
                $0.trimmingCharacters(in: .whitespaces).hasPrefix("args:")
            }),
            let open = argsLine.firstIndex(of: "["),
            let arguments = try JSONSerialization.jsonObject(with: Data(argsLine[open...].utf8)) as? [String]
        else {
            XCTFail("the manifest has no compile command for GeneratedServices")
            return []
        }
        var flags: [String] = []
        var index = 1
        while index < arguments.count - 1 {
            if ["-I", "-target", "-Xcc", "-sdk"].contains(arguments[index]) {
                flags += [arguments[index], arguments[index + 1]]
                index += 2
            } else {
                index += 1
            }
        }
        return flags
    }
}
