import Foundation
import MoyaCompiler
import MoyaSpec
import TestSupport
import XCTest

@testable import MoyaOpenAPI

/// `import postman` on Postman's own transformer examples and Insomnia's Postman fixtures:
/// nothing dropped without a line (the requests counted by Foundation's JSON parser, walking
/// folders as Postman does), every spec compiles, v2.0 and v2.1 of one collection give the
/// same targets, and v1 is refused by name.
final class PostmanImporterTests: XCTestCase {
    func collections() throws -> [String] {
        let shared = try Repository.shared("collections", variable: "MOYA_COLLECTIONS")
        var files: [String] = []
        for folder in ["/postman-transformer/v2.0.0", "/postman-transformer/v2.1.0", "/insomnia-fixtures/postman"] {
            let path = shared + folder
            files += try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".json") }.sorted()
                .map { path + "/" + $0 }
        }
        return files
    }

    /// The requests of a collection, as an independent walk of its JSON counts them.
    static func requestCount(_ file: String) throws -> Int {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file)))
        func count(_ items: Any?) -> Int {
            (items as? [[String: Any]] ?? []).reduce(0) { total, item in
                total + (item["item"] != nil ? count(item["item"]) : 1)
            }
        }
        return count((object as? [String: Any])?["item"])
    }

    func testNothingIsDroppedSilentlyAndEverySpecCompiles() throws {
        var requests = 0
        var targets = 0
        for file in try collections() {
            let data = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
            let result = try PostmanImporter.importCollection(data, file: file, service: "p")
            let expected = try Self.requestCount(file)
            XCTAssertEqual(result.report.requests, expected, file)
            // Each request is a target, or a line saying why it is not.
            let reported = result.report.notCarried.filter { $0.what == "request" }
            XCTAssertEqual(result.report.targets + reported.count, expected, "\(file): \(result.report.lines)")
            requests += expected
            targets += result.report.targets
            guard result.report.targets > 0 else { continue }
            var compiler = SpecCompiler(environment: .none)
            compiler.fileRoot = "/"
            XCTAssertNoThrow(try compiler.compile(Array(result.spec.utf8), file: "p.yaml"), "\(file):\n\(result.spec)")
        }
        // The shared corpus: every request of every v2.0 and v2.1 transformer example and
        // fixture, less the three with no URL (Insomnia's minimal fixtures and its OAuth 2
        // export). Hackernews' COPY, in both versions, is a target: a registered method.
        XCTAssertEqual(requests, 392)
        XCTAssertEqual(targets, requests - 3)
    }

    /// The transformer's examples exist in v2.0 and v2.1 under one name: the same targets.
    func testVersionsGiveTheSameTargets() throws {
        let shared = try Repository.shared("collections", variable: "MOYA_COLLECTIONS")
        let v20 = shared + "/postman-transformer/v2.0.0"
        let v21 = shared + "/postman-transformer/v2.1.0"
        let both = Set(try FileManager.default.contentsOfDirectory(atPath: v20))
            .intersection(try FileManager.default.contentsOfDirectory(atPath: v21)).filter { $0.hasSuffix(".json") }
        XCTAssertGreaterThanOrEqual(both.count, 10)
        for name in both.sorted() {
            func targets(_ folder: String) throws -> [String] {
                let data = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
                let spec = try PostmanImporter.importCollection(data, file: name, service: "p").spec
                // Name, method and path lines of each target.
                return spec.split(separator: "\n").filter {
                    ($0.hasPrefix("  ") && !$0.hasPrefix("   ")) || $0.hasPrefix("    method:")
                        || $0.hasPrefix("    path:")
                }.map(String.init)
            }
            XCTAssertEqual(try targets(v20), try targets(v21), name)
        }
    }

    func testVersionOneIsRefusedByName() throws {
        let shared = try Repository.shared("collections", variable: "MOYA_COLLECTIONS")
        let file = shared + "/postman-transformer/v1.0.0/echo.json"
        XCTAssertThrowsError(
            try PostmanImporter.importCollection(
                Array(try Data(contentsOf: URL(fileURLWithPath: file))), file: "echo.json", service: nil)
        ) { error in
            XCTAssertEqual(
                (error as? PostmanImporter.Refusal)?.message,
                "echo.json is a Postman collection v1, which moya-cli does not read; export it again from Postman as Collection v2.1"
            )
        }
    }

    /// Insomnia's Postman environment fixture: its enabled value makes the environment's base
    /// URL, and its disabled one is a line of the report, not a silent drop.
    func testAnEnvironmentFixture() throws {
        let shared = try Repository.shared("collections", variable: "MOYA_COLLECTIONS")
        let environment = Array(
            try Data(contentsOf: URL(fileURLWithPath: shared + "/insomnia-fixtures/postman-env/basic-input.json")))
        let collection = Array(
            #"{"info": {"name": "Env", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}, "item": [{"name": "Root", "request": {"method": "GET", "url": "https://{{foo}}.example/"}}]}"#
                .utf8)
        let result = try PostmanImporter.importCollection(
            collection, file: "c.json", environments: [("env.json", environment)], service: "e")
        XCTAssertTrue(
            result.spec.contains("  productionEnv: { baseURL: \"https://production.example\" }\n"), result.spec)
        XCTAssertEqual(
            result.report.notCarried,
            [ImportReport.Item(place: "env.json", what: "bar", reason: "a disabled value is left out")])
    }
}
