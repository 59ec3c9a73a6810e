import Foundation
import MoyaCompiler
import TestSupport
import XCTest

@testable import MoyaOpenAPI

/// `import insomnia` on Insomnia's own fixtures, formats 2 to 5: every request (counted by a
/// separate walk: Python's view of the resources, or v5's items that are no folder) is a
/// target or a line of the report, every spec compiles; format 1 and an MCP client file are
/// refused by name.
final class InsomniaImporterTests: XCTestCase {
    func testEveryRequestIsATargetOrALine() throws {
        let shared = try Repository.shared("collections", variable: "MOYA_COLLECTIONS")
        let folder = shared + "/insomnia-fixtures"
        let files = [
            "insomnia-2/complex-input.json", "insomnia-3/basic-input.json", "insomnia-4/basic-input.yaml",
            "insomnia-5/security_collection.yaml",
        ]
        var total = 0
        for name in files {
            let data = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
            let expected = try Self.requestCount(folder + "/" + name)
            let workspaces = try InsomniaImporter.importExport(data, file: name, service: nil)
            let targets = workspaces.reduce(0) { $0 + $1.report.targets }
            let dropped = workspaces.reduce(0) { $0 + $1.report.notCarried.filter { $0.what == "request" }.count }
            XCTAssertEqual(workspaces.reduce(0) { $0 + $1.report.requests }, expected, name)
            XCTAssertEqual(targets + dropped, expected, name)
            total += targets
            for workspace in workspaces where workspace.report.targets > 0 {
                var compiler = SpecCompiler(environment: .none)
                compiler.fileRoot = "/"
                XCTAssertNoThrow(try compiler.compile(Array(workspace.spec.utf8), file: "i.yaml"), workspace.spec)
            }
        }
        XCTAssertEqual(total, 8)
    }

    /// The requests of an export, by Python's YAML and JSON readers: v2–v4's resources of a
    /// request type, v5's items with a URL or a method.
    static func requestCount(_ path: String) throws -> Int {
        try Repository.requirePrograms(["python3"])
        let script = """
            import json, sys, yaml
            text = open(sys.argv[1]).read()
            doc = json.loads(text) if text.lstrip().startswith('{') else yaml.safe_load(text)
            def items(list_):
                return sum(items(i.get('children') or []) if ('children' in i or (i.get('url') is None and i.get('method') is None)) else 1 for i in list_ or [])
            if 'resources' in doc:
                print(sum(1 for r in doc['resources'] if r.get('_type', '').endswith('request')))
            else:
                print(items(doc.get('collection')))
            """
        let run = try Launch.run(Launch.onPath("python3").0, ["python3", "-c", script, path], environment: nil)
        guard run.status == 0, let count = Int(run.out.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw Repository.unavailable("python3 with PyYAML is needed to count independently: \(run.error)")
        }
        return count
    }

    func testOldFormatsAndOtherFilesAreRefusedByName() throws {
        let shared = try Repository.shared("collections", variable: "MOYA_COLLECTIONS")
        for (name, message) in [
            (
                "insomnia-1/complex-input.json",
                "complex-input.json is an Insomnia export of format 1, which moya-cli does not read; export it again from Insomnia"
            ),
            (
                "insomnia-5/mcp_flights.yaml",
                "mcp_flights.yaml is an Insomnia mcpClient.insomnia/5.0 file, which holds no collection of requests"
            ),
        ] {
            let data = Array(try Data(contentsOf: URL(fileURLWithPath: shared + "/insomnia-fixtures/" + name)))
            let file = String(name.split(separator: "/").last ?? "")
            XCTAssertThrowsError(try InsomniaImporter.importExport(data, file: file, service: nil)) { error in
                XCTAssertEqual((error as? PostmanImporter.Refusal)?.message, message)
            }
        }
    }

    /// A stranger's export whose groups are their own ancestors, and a request whose parent is
    /// nowhere: the import ends, and says what it left out.
    func testACycleOfGroupsAndAnOrphanAreReported() throws {
        let export = #"""
            { "_type": "export", "__export_format": 4, "resources": [
              { "_id": "wrk_1", "_type": "workspace", "name": "W" },
              { "_id": "fld_a", "_type": "request_group", "parentId": "wrk_1", "name": "A" },
              { "_id": "fld_b", "_type": "request_group", "parentId": "fld_a", "name": "B" },
              { "_id": "fld_a", "_type": "request_group", "parentId": "fld_b", "name": "A again" },
              { "_id": "fld_self", "_type": "request_group", "parentId": "fld_self", "name": "Self" },
              { "_id": "req_1", "_type": "request", "parentId": "fld_b", "name": "Kept", "method": "GET",
                "url": "https://w.example/kept" },
              { "_id": "req_2", "_type": "request", "parentId": "fld_nowhere", "name": "Orphan", "method": "GET",
                "url": "https://w.example/orphan" }
            ] }
            """#
        let workspaces = try InsomniaImporter.importExport(Array(export.utf8), file: "e.json", service: nil)
        XCTAssertEqual(workspaces.count, 1)
        let report = try XCTUnwrap(workspaces.first?.report)
        XCTAssertEqual(report.requests, 2)
        XCTAssertEqual(report.targets, 1)
        XCTAssertTrue(
            report.notCarried.contains {
                $0.what == "request"
                    && $0.reason == "its parent is neither a workspace nor a request group in one; it is left out"
            }, "\(report.lines)")
        XCTAssertTrue(report.notCarried.contains { $0.what == "request group" }, "\(report.lines)")
    }
}
