import Foundation
import MoyaCompiler
import TestSupport
import XCTest

@testable import MoyaOpenAPI

/// `import har` on Insomnia's HAR fixtures: every entry, counted by Foundation's JSON parser,
/// is a target, joins one, or is a line of the report; each target has the method and URL of
/// Insomnia's expected import; every spec compiles.
final class HARImporterTests: XCTestCase {
    func testInsomniasFixturesAreAccountedFor() throws {
        let shared = try Repository.shared("collections", variable: "MOYA_COLLECTIONS")
        let inputs = shared + "/insomnia-fixtures/har"
        let outputs = shared + "/insomnia-fixtures/outputs-2024-03/har"
        let names = try FileManager.default.contentsOfDirectory(atPath: inputs).filter { $0.hasSuffix("-input.json") }
        XCTAssertEqual(names.count, 5)
        for name in names.sorted() {
            let data = try Data(contentsOf: URL(fileURLWithPath: inputs + "/" + name))
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let entries = ((object["log"] as? [String: Any])?["entries"] as? [Any])?.count ?? 1
            let result = try HARImporter.importArchive(Array(data), file: name, service: "h")
            let dropped = result.report.notCarried.filter { $0.what == "request" }.count
            XCTAssertEqual(result.report.requests, entries, name)
            XCTAssertEqual(
                result.report.targets + result.report.merged + dropped, entries, "\(name): \(result.report.lines)")
            guard result.report.targets > 0 else { continue }
            var compiler = SpecCompiler(environment: .none)
            compiler.fileRoot = "/"
            XCTAssertNoThrow(try compiler.compile(Array(result.spec.utf8), file: "h.yaml"), result.spec)
            // Insomnia's expected requests with a URL: the same methods and URLs.
            let expected = try XCTUnwrap(
                try JSONSerialization.jsonObject(
                    with: Data(
                        contentsOf: URL(fileURLWithPath: outputs + "/" + name.replacing("-input", with: "-output"))))
                    as? [String: Any])
            let requests = (expected["resources"] as? [[String: Any]] ?? [])
                .filter { $0["_type"] as? String == "request" && ($0["url"] as? String ?? "") != "" }
            XCTAssertEqual(requests.count, result.report.targets, name)
            for request in requests {
                let url = request["url"] as? String ?? ""
                let path = url.replacing(/^https?:\/\/[^\/]*/, with: "")
                XCTAssertTrue(result.spec.contains("    path: \(path)\n"), "\(name): \(path) in\n\(result.spec)")
                let method = request["method"] as? String ?? ""
                XCTAssertTrue(method == "GET" || result.spec.contains("    method: \(method)\n"), name)
            }
        }
    }
}
