import Foundation
import MoyaCore
import MoyaSchema
import TestSupport
import XCTest

/// The official JSON Schema Test Suite (../shared/json-schema-test-suite): every required test
/// of draft 2020-12, draft 7 and draft 4. Remote `$ref`s to `http://localhost:1234/` are
/// fetched from the suite's `remotes/`, served by the in-process server.
final class TestSuiteTests: XCTestCase {
    func testDraft2020_12() async throws { try await run("draft2020-12", .draft2020_12, expected: 1_299) }
    func testDraft7() async throws { try await run("draft7", .draft7, expected: 927) }
    func testDraft4() async throws { try await run("draft4", .draft4, expected: 618) }

    /// The optional format tests, with `format` asserted: reported, not required.
    func testOptionalFormatsAreReported() async throws {
        for (draft, dialect) in [
            ("draft2020-12", SchemaDialect.draft2020_12), ("draft7", .draft7), ("draft4", .draft4),
        ] {
            let (passed, skipped, failures) = try await results(
                draft + "/optional/format", dialect, assertingFormat: true)
            print("optional formats, \(draft): \(passed) of \(passed + failures.count + skipped) pass")
        }
    }

    /// The optional ECMA-262 regex tests, which MoyaRegex is held to: every one passes.
    func testOptionalRegexTestsPass() async throws {
        for draft in ["draft2020-12", "draft7", "draft4"] {
            let (passed, _, failures) = try await results(
                draft + "/optional", .draft2020_12, only: ["ecmascript-regex.json", "non-bmp-regex.json"])
            XCTAssertEqual(failures, [], "\(draft): \(passed) passed")
            XCTAssertGreaterThan(passed, 50, draft)
            print("optional regex tests, \(draft): \(passed) of \(passed + failures.count) pass")
        }
    }

    private func run(_ draft: String, _ dialect: SchemaDialect, expected: Int) async throws {
        let (passed, skipped, failures) = try await results(draft, dialect)
        XCTAssertEqual(passed + failures.count + skipped, expected, "required tests in \(draft)")
        XCTAssertEqual(failures, [], "\(draft): \(passed) passed, \(failures.count) failed")
        if skipped > 0 {
            print("\(draft): \(skipped) tests that need the drafts' metaschemas skipped; set JSON_SCHEMA_METASCHEMAS")
        }
    }

    /// Every test of the files in `tests/FOLDER`: how many passed, how many were skipped for
    /// want of a metaschema, and which failed, as `file: group / test`.
    private func results(
        _ folder: String, _ dialect: SchemaDialect, assertingFormat: Bool = false, only: Set<String>? = nil
    ) async throws -> (
        passed: Int, skipped: Int, failures: [String]
    ) {
        let suite = try Repository.shared("json-schema-test-suite", variable: "JSON_SCHEMA_TEST_SUITE")
        let server = try TestServer(files: suite + "/remotes")
        defer { server.stop() }
        let session = Session()
        defer { _Concurrency.Task { await session.shutdown() } }
        let folder = suite + "/tests/" + folder
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }
            .filter { only?.contains($0) ?? true }.sorted()
        var passed = 0
        var skipped = 0
        var failures: [String] = []
        for file in files {
            let groups = try JSONValue(parsing: Data(contentsOf: URL(fileURLWithPath: folder + "/" + file)))
            guard case .array(let list) = groups else { continue }
            for group in list {
                guard let schema = group["schema"], case .array(let tests)? = group["tests"] else { continue }
                let registry = SchemaRegistry()
                var validator = SchemaValidator(schema: schema, uri: "", dialect: dialect, registry: registry)
                validator.assertsFormat = assertingFormat
                let unavailable = await fetchRemotes(into: registry, dialect: dialect, server: server, session: session)
                if !unavailable.isEmpty, ProcessInfo.processInfo.environment["MOYA_SHARED_REQUIRED"] == nil {
                    skipped += tests.count
                    continue
                }
                for test in tests {
                    guard let data = test["data"], case .bool(let valid)? = test["valid"] else { continue }
                    if validator.isValid(data) == valid && validator.errors(in: data).isEmpty == valid {
                        passed += 1
                    } else {
                        failures.append(
                            "\(file): \(group["description"]?.text ?? "") / \(test["description"]?.text ?? "")")
                    }
                }
            }
        }
        return (passed, skipped, failures)
    }

    /// Fetches every document the registry refers to and does not hold: the suite's remotes
    /// from the server, the drafts' metaschemas from JSON_SCHEMA_METASCHEMAS (the schemas
    /// folder of PyPI's jsonschema-specifications, which `.ci/run` sets). Returns the
    /// metaschemas it could not load.
    private func fetchRemotes(
        into registry: SchemaRegistry, dialect: SchemaDialect, server: TestServer, session: Session
    ) async -> [String] {
        var tried: Set<String> = []
        var unavailable: [String] = []
        while let uri = registry.missingReferences.first(where: { !tried.contains($0) }) {
            tried.insert(uri)
            let prefix = "http://localhost:1234/"
            if uri.hasPrefix(prefix) {
                guard let url = URL(string: server.baseURL + "/files/" + uri.dropFirst(prefix.count)),
                    let response = try? await session.send(Request(url: url)), response.statusCode == 200,
                    let document = try? JSONValue(parsing: response.data)
                else { continue }
                registry.add(document, uri: uri, dialect: dialect)
            } else if let (file, metaDialect) = Self.metaschemaFile(uri) {
                guard let folder = ProcessInfo.processInfo.environment["JSON_SCHEMA_METASCHEMAS"],
                    let data = FileManager.default.contents(atPath: folder + "/" + file),
                    let document = try? JSONValue(parsing: data)
                else {
                    unavailable.append(uri)
                    continue
                }
                registry.add(document, uri: uri, dialect: metaDialect)
            }
        }
        return unavailable
    }

    /// Where jsonschema-specifications keeps a draft's metaschema or vocabulary.
    private static func metaschemaFile(_ uri: String) -> (String, SchemaDialect)? {
        let vocabularies = "https://json-schema.org/draft/2020-12/meta/"
        switch uri {
        case "https://json-schema.org/draft/2020-12/schema": return ("draft202012/metaschema.json", .draft2020_12)
        case "http://json-schema.org/draft-07/schema": return ("draft7/metaschema.json", .draft7)
        case "http://json-schema.org/draft-04/schema": return ("draft4/metaschema.json", .draft4)
        default:
            guard uri.hasPrefix(vocabularies) else { return nil }
            return ("draft202012/vocabularies/" + uri.dropFirst(vocabularies.count), .draft2020_12)
        }
    }
}
