import Foundation
import MoyaCLI
import TestSupport
import XCTest

/// `moya-cli import insomnia` through the command: Insomnia's format 2 fixture sends what
/// Insomnia's expected import says (method, URL and query, headers, body, basic credentials),
/// and an export of two workspaces is two specs, which need a folder.
final class InsomniaImportTests: XCTestCase {
    func testAFormatTwoExportSendsWhatInsomniaExpects() async throws {
        let shared = try Repository.shared("collections", variable: "MOYA_COLLECTIONS")
        let folder = NSTemporaryDirectory() + "insomnia-import-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        let (status, _, error) = await CommandTests.run(
            ["import", "insomnia", shared + "/insomnia-fixtures/insomnia-2/complex-input.json", "-o", "specs/"],
            in: folder)
        XCTAssertEqual(status, 0, error)
        XCTAssertEqual(
            error,
            "moya-cli: import: 2 requests → 2 targets in 1 service; everything carried\n"
                + "moya-cli: warning: set API_KEY, PASSWORD before calling: the source's credentials are read from the "
                + "environment, never written into the spec\n")
        let data = try Data(
            contentsOf: URL(
                fileURLWithPath: shared + "/insomnia-fixtures/outputs-2024-03/insomnia-2/complex-output.json"))
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let requests = (object["resources"] as? [[String: Any]] ?? []).filter { $0["_type"] as? String == "request" }
        XCTAssertEqual(requests.count, 2)
        for (request, target) in zip(requests, ["testFolderTestRequest", "testFolderTestRequest2"]) {
            let (called, out, callError) = await CommandTests.run(
                ["call", "insomnia.\(target)", "--specs", "specs", "--dry-run", "--json", "--show-secrets"],
                environment: ["API_KEY": "live_123", "PASSWORD": "pw"], in: folder)
            XCTAssertEqual(called, 0, callError)
            let printed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any], out)
            XCTAssertEqual(printed["method"] as? String, request["method"] as? String)
            let query = (request["parameters"] as? [[String: String]] ?? []).map {
                ($0["name"] ?? "").replacing(" ", with: "%20") + "=" + ($0["value"] ?? "").replacing(" ", with: "%20")
            }
            XCTAssertEqual(
                printed["url"] as? String, "https://insomnia.rest/api/v1/users?" + query.joined(separator: "&"))
            let headers = printed["headers"] as? [String: String] ?? [:]
            for header in request["headers"] as? [[String: String]] ?? [] {
                XCTAssertEqual(headers[header["name"] ?? ""], header["value"], target)
            }
            XCTAssertEqual(headers["Authorization"], "Basic " + Data("live_123:pw".utf8).base64EncodedString())
            XCTAssertEqual(printed["body"] as? String, (request["body"] as? [String: String])?["text"], target)
        }
    }

    func testTwoWorkspacesAreTwoSpecs() async throws {
        let folder = NSTemporaryDirectory() + "insomnia-two-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        let export = #"""
            { "_type": "export", "__export_format": 4, "resources": [
              { "_id": "wrk_1", "_type": "workspace", "parentId": null, "name": "Shop" },
              { "_id": "env_1", "_type": "environment", "parentId": "wrk_1", "data": { "base": "https://shop.example" } },
              { "_id": "env_2", "_type": "environment", "parentId": "env_1", "name": "Staging",
                "data": { "base": "https://staging.shop.example" } },
              { "_id": "req_1", "_type": "request", "parentId": "wrk_1", "name": "List orders", "method": "GET",
                "url": "{{ _.base }}/orders", "body": {}, "parameters": [], "headers": [], "authentication": {} },
              { "_id": "wrk_2", "_type": "workspace", "parentId": null, "name": "Billing" },
              { "_id": "req_2", "_type": "request", "parentId": "wrk_2", "name": "Invoice", "method": "POST",
                "url": "https://billing.example/invoices", "body": { "mimeType": "application/json", "text": "{\"n\":1}" },
                "headers": [], "authentication": { "type": "bearer", "token": "t-1" } }
            ] }
            """#
        try export.write(toFile: folder + "/export.json", atomically: true, encoding: .utf8)
        let (refused, _, refusal) = await CommandTests.run(["import", "insomnia", "export.json"], in: folder)
        XCTAssertEqual(refused, 64)
        XCTAssertTrue(
            refusal.hasSuffix(
                "moya-cli: error: export.json makes 2 specs (shop, billing); write them into a folder with -o DIR/\n"),
            refusal)
        let (status, _, error) = await CommandTests.run(
            ["import", "insomnia", "export.json", "-o", "specs/"], in: folder)
        XCTAssertEqual(status, 0, error)
        let shop = try String(contentsOfFile: folder + "/specs/shop.yaml", encoding: .utf8)
        XCTAssertTrue(shop.contains("baseURL: \"${BASE:-https://shop.example}\"\n"), shop)
        XCTAssertTrue(shop.contains("  staging: { baseURL: \"https://staging.shop.example\" }\n"), shop)
        let billing = try String(contentsOfFile: folder + "/specs/billing.yaml", encoding: .utf8)
        XCTAssertTrue(billing.contains("auth: { bearer: \"${TOKEN:-}\" }"), billing)
        XCTAssertFalse(billing.contains("t-1"))
        let (valid, validOut, _) = await CommandTests.run(["validate", "specs"], in: folder)
        XCTAssertEqual(valid, 0)
        XCTAssertTrue(validOut.hasPrefix("ok: 2 services, 2 targets"), validOut)
    }
}
